import { type ActionWords, actionWords } from '../../../i18n/desk-action';
import { languageName } from '../../../i18n/languages';
import { staffWords } from '../../../i18n/staff';
import { type Html, html } from '../../../platform/web/html';
import {
  csrfField,
  framed,
  pageNotices,
  type StaffPageFrame,
  staffLayout,
  when,
} from '../../../platform/web/staff-layout';
import { isAwaiting, isOpen, type SessionRequestDetail } from '../../sessionrequests';
import type { Session } from '../../sessions';

export interface ActionPageView {
  action: SessionRequestDetail;
  contact: { id: string; name: string } | null;
  signerNames: Record<string, string>;
  /** The organisation's users by id: a person's name, or none for an integration's account. */
  people: Map<string, { name: string; kind: 'staff' | 'service' }>;
  templateNames: string[];
  sessions: Session[];
  notice?: string;
  error?: string;
  canChange: boolean;
}

/** Who did something, as a sentence names them: the person, "An integration", or ActionDesk. */
function actorName(v: ActionPageView, w: ActionWords, actor: string, userId: string | null): string {
  if (actor === 'contact') return v.contact?.name ?? w.integration;
  if (actor === 'system') return w.system;
  const who = userId ? v.people.get(userId) : undefined;
  return who?.kind === 'staff' ? who.name : w.integration;
}

/** The action's story, oldest first: status changes, each signer's steps and each message. */
export function timelineOf(v: ActionPageView, lang: StaffPageFrame['lang']): { at: string; text: string }[] {
  // At the same moment, what people did comes before what it led to (the last signature, then complete).
  const last = new Set(['completed', 'declined', 'expired']);
  const w = actionWords[lang];
  const channels = staffWords[lang].channels;
  const a = v.action;
  const signing = a.signers.length > 0;
  const contact = v.contact?.name ?? '';
  const items: { at: string; text: string; after?: boolean }[] = [];
  for (const c of a.history) {
    const who = actorName(v, w, c.actor, c.userId);
    const text = {
      created: w.story.created(who),
      sent: c.from === null ? w.story.createdAndSent(who) : w.story.sent,
      opened: signing ? null : w.story.opened(contact),
      completed: signing ? w.story.allSigned : w.story.completed(contact),
      reopened: w.story.reopened(who),
      deactivated: w.story.deactivated(who),
      expired: w.story.expired,
      declined: signing ? null : w.story.declined(contact),
    }[c.to];
    if (text) items.push({ at: c.at, text, after: last.has(c.to) });
  }
  const title = a.document?.title ?? '';
  for (const g of a.signers) {
    const name = v.signerNames[g.customerId] ?? '';
    if (g.openedAt) items.push({ at: g.openedAt, text: w.story.signerOpened(name) });
    if (g.codeSentAt && g.codeChannel)
      items.push({ at: g.codeSentAt, text: w.story.codeSent(name, channels[g.codeChannel]) });
    if (g.signedAt) items.push({ at: g.signedAt, text: w.story.signerSigned(name, title) });
    if (g.declinedAt) items.push({ at: g.declinedAt, text: w.story.signerDeclined(name, g.declineReason) });
  }
  for (const m of a.notifications) {
    const signer = m.signerId ? a.signers.find((g) => g._id === m.signerId) : undefined;
    const to = signer ? (v.signerNames[signer.customerId] ?? '') : contact;
    const args = [w.purposes[m.purpose], to, channels[m.channel]] as const;
    if (m.status === 'sent' && m.sentAt) items.push({ at: m.sentAt, text: w.story.messageSent(...args) });
    else if (m.status === 'failed') items.push({ at: m.scheduledFor, text: w.story.messageFailed(...args) });
    else if (m.status === 'pending')
      items.push({ at: m.scheduledFor, text: w.story.messagePlanned(...args) });
  }
  return items
    .sort((x, y) => x.at.localeCompare(y.at) || Number(x.after ?? false) - Number(y.after ?? false))
    .map(({ at, text }) => ({ at, text }));
}

function buttons(f: StaffPageFrame, v: ActionPageView, w: ActionWords): Html {
  const a = v.action;
  if (!v.canChange) return html``;
  const sends = a.notificationEmail.send || a.notificationSms.send;
  return html`<div class="row">${
    isAwaiting(a.status) && sends
      ? html`<form method="post" action="/staff/actions/${a._id}/resend">${csrfField(f.csrf)}<button type="submit" aria-describedby="resend-hint">${w.resend}</button> <span class="hint" id="resend-hint">${w.resendHint}</span></form>`
      : ''
  }${
    isOpen(a.status)
      ? html`<form method="post" action="/staff/actions/${a._id}/withdraw">${csrfField(f.csrf)}<button type="submit" class="danger" data-confirm="${w.withdrawConfirm}">${w.withdraw}</button></form>`
      : ''
  }${
    a.status === 'completed' && a.signers.length === 0
      ? html`<form method="post" action="/staff/actions/${a._id}/reopen">${csrfField(f.csrf)}<div class="choice"><input type="checkbox" id="reopen-email" name="email" value="yes" checked><label for="reopen-email">${w.reopenEmail}</label></div><button type="submit" data-confirm="${w.reopenConfirm}">${w.reopen}</button></form>`
      : ''
  }</div>`;
}

function results(f: StaffPageFrame, v: ActionPageView, w: ActionWords): Html {
  const latest = v.sessions[0];
  if (!latest) return html`<p>${w.nothingYet}</p>`;
  return html`${latest.documentsPending ? html`<p>${w.preparing}</p>` : ''}
${latest.documents.length ? html`<ul class="files">${latest.documents.map((d) => html`<li><a href="${d.fileUrl}" download>${w.download}: ${d.fileName}</a></li>`)}</ul>` : ''}
${latest.responses.length ? html`<dl class="facts">${latest.responses.map((r) => html`<dt>${r.questionTitle}</dt><dd>${r.response || staffWords[f.lang].none}</dd>`)}</dl>` : ''}
${v.sessions.length > 1 ? html`<p class="hint">${w.submissions(v.sessions.length)}</p>` : ''}`;
}

const actionCss = `
ol.timeline{list-style:none;padding:0;margin:1rem 0;border-left:3px solid #d0d4da}
ol.timeline li{position:relative;padding:.35rem 0 .35rem 1.1rem}
ol.timeline li::before{content:"";position:absolute;left:-.45rem;top:.75rem;width:.6rem;height:.6rem;border-radius:50%;background:#12355b}
ol.timeline time{display:block;color:#44474f;font-size:.9rem}
ul.files{padding-left:1.2rem}
dl.facts code{overflow-wrap:anywhere;word-break:break-all}
`;

export function actionPage(f: StaffPageFrame, v: ActionPageView): string {
  const w = actionWords[f.lang];
  const s = staffWords[f.lang];
  const a = v.action;
  const kind = s.kinds[a.type];
  const creator = a.createdBy ? v.people.get(a.createdBy) : undefined;
  return staffLayout({
    title: w.title(kind, v.contact?.name ?? null),
    area: 'actions',
    ...framed(f),
    css: actionCss,
    body: html`<p><a href="/staff/actions">${w.back}</a></p>
<h1>${v.contact ? html`${w.titleLead(kind)}<a href="/staff/contacts/${v.contact.id}">${v.contact.name}</a>` : w.title(kind, null)}</h1>
${pageNotices(v.notice, v.error)}
<dl class="facts"><dt>${w.facts.status}</dt><dd><span class="status">${s.statuses[a.status]}</span></dd>
${a.document ? html`<dt>${w.facts.document}</dt><dd>${a.document.title}</dd>` : ''}
${v.templateNames.length ? html`<dt>${w.facts.templates}</dt><dd>${v.templateNames.join(', ')}</dd>` : ''}
<dt>${w.facts.language}</dt><dd>${languageName(a.language)}</dd>
<dt>${w.facts.createdBy}</dt><dd>${creator?.kind === 'staff' ? creator.name : w.integration}</dd>
<dt>${w.facts.created}</dt><dd>${when(f, a.createdAt)}</dd>
${a.expiresAt ? html`<dt>${w.facts.expires}</dt><dd>${when(f, a.expiresAt)}</dd>` : ''}
<dt>${w.facts.link}</dt><dd><code>${a.url}</code></dd></dl>
${buttons(f, v, w)}
${
  a.signers.length
    ? html`<h2>${w.signers}</h2>${a.signers.length > 1 ? html`<p>${w.facts.order}: ${a.signingOrder === 'sequential' ? w.facts.inOrder : w.facts.atOnce}</p>` : ''}<table class="stack"><thead><tr><th scope="col">${w.signer}</th><th scope="col">${w.signerStatus}</th><th scope="col">${w.opened}</th><th scope="col">${w.signed}</th></tr></thead><tbody>${a.signers.map(
        (g) =>
          html`<tr><td data-label="${w.signer}">${v.signerNames[g.customerId] ?? g.customerId}</td><td data-label="${w.signerStatus}">${s.signerStatuses[g.status]}${g.declineReason ? html` — ${g.declineReason}` : ''}</td><td data-label="${w.opened}">${when(f, g.openedAt)}</td><td data-label="${w.signed}">${when(f, g.signedAt)}</td></tr>`,
      )}</tbody></table>`
    : ''
}
<h2>${w.results}</h2>
${results(f, v, w)}
<h2>${w.timeline}</h2>
<ol class="timeline">${timelineOf(v, f.lang).map((e) => html`<li>${when(f, e.at)}${e.text}</li>`)}</ol>
${f.me.administrator ? html`<p><a href="/staff/audit?action=${a._id}">${staffWords[f.lang].nav.audit}</a></p>` : ''}
<h2>${w.messages}</h2>
${
  a.notifications.length
    ? html`<table class="stack"><thead><tr><th scope="col">${w.message}</th><th scope="col">${w.channel}</th><th scope="col">${w.messageStatus}</th><th scope="col">${w.dueOrSent}</th><th scope="col">${w.problem}</th></tr></thead><tbody>${a.notifications.map(
        (m) =>
          html`<tr><td data-label="${w.message}">${w.purposes[m.purpose]}</td><td data-label="${w.channel}">${s.channels[m.channel]}</td><td data-label="${w.messageStatus}">${w.jobStatuses[m.status]}</td><td data-label="${w.dueOrSent}">${when(f, m.sentAt ?? m.scheduledFor)}</td><td data-label="${w.problem}">${m.lastError ?? ''}</td></tr>`,
      )}</tbody></table>`
    : html`<p>${w.noMessages}</p>`
}`,
  });
}
