import { type DeskView, deskViews, deskWords } from '../../../i18n/desk';
import { staffWords } from '../../../i18n/staff';
import { type Html, html } from '../../../platform/web/html';
import { framed, type StaffPageFrame, staffLayout, when } from '../../../platform/web/staff-layout';
import type { SessionRequest } from '../../sessionrequests';
import type { ActionRowView } from './desk.pages';

export interface HomeView {
  groups: Record<DeskView, { rows: ActionRowView[]; total: number }>;
  mine: boolean;
}

/** The moment that matters for a row of each group. */
const momentOf: Record<DeskView, (a: SessionRequest) => string | null> = {
  waiting: (a) => a.sentAt ?? a.createdAt,
  expiring: (a) => a.expiresAt,
  declined: (a) => a.closedAt,
  failed: (a) => a.sentAt ?? a.createdAt,
  completed: (a) => a.completedAt,
};

export const homeCss = `
.groups{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(20rem,1fr));margin:1rem 0}
.group{border:1px solid #d0d4da;border-radius:8px;padding:1rem}
.group h2{font-size:1.1rem;margin:0 0 .25rem;display:flex;justify-content:space-between;gap:.5rem}
.group .count{display:inline-block;min-width:1.75rem;text-align:center;border-radius:1rem;background:#12355b;color:#fff;padding:0 .4rem}
.group .count.zero{background:#e8eaed;color:#44474f}
.group ul{list-style:none;padding:0;margin:.5rem 0}
.group li{padding:.4rem 0;border-top:1px solid #eceef1}
.group li a{font-weight:600}
.group .sub{display:block;color:#44474f;font-size:.95rem}
.scope{display:flex;gap:1rem;flex-wrap:wrap}
`;

export function homePage(f: StaffPageFrame, v: HomeView): string {
  const w = deskWords[f.lang].home;
  const s = staffWords[f.lang];
  const scope = v.mine ? '&mine=1' : '';
  const group = (view: DeskView): Html => {
    const g = v.groups[view];
    const t = w.groups[view];
    const id = `group-${view}`;
    return html`<section class="group" aria-labelledby="${id}"><h2 id="${id}"><span>${t.title}</span><span class="count${g.total === 0 ? ' zero' : ''}">${g.total}</span></h2>
<p class="hint">${t.hint}</p>${
      g.rows.length
        ? html`<ul>${g.rows.map(
            (a) =>
              html`<li><a href="/staff/actions/${a._id}">${a.contact}</a><span class="sub">${a.document?.title ?? s.kinds[a.type]} · ${s.statuses[a.status]} · ${when(f, momentOf[view](a))}</span></li>`,
          )}</ul>${g.total > g.rows.length ? html`<p><a href="/staff/actions?view=${view}${scope}">${w.seeAll(g.total)}</a></p>` : ''}`
        : html`<p>${t.empty}</p>`
    }</section>`;
  };
  return staffLayout({
    title: w.title,
    area: 'home',
    ...framed(f),
    css: homeCss,
    body: html`<h1>${w.welcome(f.me.name)}</h1>
<p>${w.intro}</p>
<div class="row"><a class="button primary" href="/sessionrequests/new">${w.send}</a><a class="button" href="/staff/contacts/new">${w.newContact}</a></div>
<nav class="scope" aria-label="${w.scope}"><a href="/staff"${v.mine ? '' : html` aria-current="page"`}>${w.everyone}</a><a href="/staff?mine=1"${v.mine ? html` aria-current="page"` : ''}>${w.mine}</a></nav>
<div class="groups">${deskViews.map(group)}</div>`,
  });
}
