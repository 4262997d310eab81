import { sessionRequestStatuses } from '../../../db/schema/enums';
import { type DeskView, deskViews, deskWords } from '../../../i18n/desk';
import { staffWords } from '../../../i18n/staff';
import { type Html, html } from '../../../platform/web/html';
import { framed, type StaffPageFrame, staffLayout, when } from '../../../platform/web/staff-layout';
import type { SessionRequest } from '../../sessionrequests';

/** The links to the other pages of a list, in the page's language. */
export function pager(
  f: StaffPageFrame,
  base: string,
  params: URLSearchParams,
  page: number,
  pages: number,
): Html {
  if (pages <= 1) return html``;
  const s = staffWords[f.lang];
  const link = (p: number) => {
    const q = new URLSearchParams(params);
    q.set('page', String(p));
    return `${base}?${q}`;
  };
  return html`<nav class="pager" aria-label="${s.pages}">${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">${s.previous}</a>` : ''}<span>${s.pageOf(page, pages)}</span>${
    page < pages ? html`<a href="${link(page + 1)}" rel="next">${s.next}</a>` : ''
  }</nav>`;
}

/** What an action is about: its document, or how many templates it asks. */
export const actionSubject = (f: StaffPageFrame, a: SessionRequest): string =>
  a.document?.title ?? deskWords[f.lang].actions.templates(a.questionListIds.length);

export interface ActionRowView extends SessionRequest {
  contact: string;
}

export interface ActionsFilter {
  status?: string;
  view?: DeskView;
  mine: boolean;
  q?: string;
}

export function actionsPage(
  f: StaffPageFrame,
  v: { rows: ActionRowView[]; total: number; page: number; limit: number; filter: ActionsFilter },
): string {
  const w = deskWords[f.lang].actions;
  const s = staffWords[f.lang];
  const groups = deskWords[f.lang].home.groups;
  const params = new URLSearchParams();
  if (v.filter.status) params.set('status', v.filter.status);
  if (v.filter.view) params.set('view', v.filter.view);
  if (v.filter.mine) params.set('mine', '1');
  if (v.filter.q) params.set('q', v.filter.q);
  return staffLayout({
    title: w.title,
    area: 'actions',
    ...framed(f),
    body: html`<div class="row"><h1>${w.title}</h1><a class="button primary" href="/sessionrequests/new">${w.send}</a></div>
<form method="get" action="/staff/actions" class="filters" role="search">
<div class="field"><label for="view">${w.view}</label><select id="view" name="view"><option value="">${w.everything}</option>${deskViews.map(
      (g) =>
        html`<option value="${g}"${v.filter.view === g ? html` selected` : ''}>${groups[g].title}</option>`,
    )}</select></div>
<div class="field"><label for="status">${w.status}</label><select id="status" name="status"><option value="">${w.all}</option>${sessionRequestStatuses.map(
      (st) =>
        html`<option value="${st}"${v.filter.status === st ? html` selected` : ''}>${s.statuses[st]}</option>`,
    )}</select></div>
<div class="field"><label for="q">${w.search}</label><input type="search" id="q" name="q" value="${v.filter.q ?? ''}"></div>
<div class="choice"><input type="checkbox" id="mine" name="mine" value="1"${v.filter.mine ? html` checked` : ''}><label for="mine">${w.onlyMine}</label></div>
<button type="submit">${w.filter}</button></form>
<p role="status">${w.count(v.total)}</p>
${
  v.rows.length
    ? html`<table class="stack"><caption class="skip">${w.caption}</caption><thead><tr><th scope="col">${w.contact}</th><th scope="col">${w.kind}</th><th scope="col">${w.what}</th><th scope="col">${w.statusColumn}</th><th scope="col">${w.created}</th></tr></thead><tbody>${v.rows.map(
        (a) =>
          html`<tr><td data-label="${w.contact}"><a href="/staff/actions/${a._id}">${a.contact}</a></td><td data-label="${w.kind}">${s.kinds[a.type]}</td><td data-label="${w.what}">${actionSubject(f, a)}</td><td data-label="${w.statusColumn}"><span class="status">${s.statuses[a.status]}</span></td><td data-label="${w.created}">${when(f, a.createdAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>${w.none}</p>`
}
${pager(f, '/staff/actions', params, v.page, Math.ceil(v.total / v.limit))}`,
  });
}
