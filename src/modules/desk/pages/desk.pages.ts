import { sessionRequestStatuses } from '../../../db/schema/enums';
import { utcMinute } from '../../../i18n/dates';
import { type Html, html } from '../../../platform/web/html';
import { csrfField, pageNotices, type StaffPageFrame, staffLayout } from '../../../platform/web/staff-layout';
import type { Customer } from '../../customers';
import { contactEmail, contactLabel } from '../../customers';
import type { SessionRequest, SessionRequestDetail } from '../../sessionrequests';
import type { Session } from '../../sessions';

const nameOf = (data: Record<string, string> | undefined) => (data ? contactLabel(data) : '—');

const typeNames: Record<string, string> = {
  qlist: 'Questionnaire',
  multisigning: 'Questionnaire and signing',
  quicksign: 'Document to sign',
  campaign: 'Campaign link',
};

function pager(base: string, params: URLSearchParams, page: number, pages: number): Html {
  if (pages <= 1) return html``;
  const link = (p: number) => {
    const q = new URLSearchParams(params);
    q.set('page', String(p));
    return `${base}?${q}`;
  };
  return html`<nav class="pager" aria-label="Pages">${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous</a>` : ''}<span>Page ${page} of ${pages}</span>${
    page < pages ? html`<a href="${link(page + 1)}" rel="next">Next</a>` : ''
  }</nav>`;
}

export interface ActionRowView extends SessionRequest {
  contact: string;
}

export function actionsPage(
  f: StaffPageFrame,
  v: { rows: ActionRowView[]; total: number; page: number; limit: number; status?: string; q?: string },
): string {
  const params = new URLSearchParams();
  if (v.status) params.set('status', v.status);
  if (v.q) params.set('q', v.q);
  return staffLayout({
    title: 'Actions',
    area: 'actions',
    user: { ...f.me, csrf: f.csrf },
    body: html`<div class="row"><h1>Actions</h1><a class="button primary" href="/sessionrequests/new">Send a new action</a></div>
<form method="get" action="/staff/actions" class="filters" role="search">
<div class="field"><label for="status">Status</label><select id="status" name="status"><option value="">All</option>${sessionRequestStatuses.map(
      (s) => html`<option value="${s}"${v.status === s ? html` selected` : ''}>${s}</option>`,
    )}</select></div>
<div class="field"><label for="q">Contact or document</label><input type="search" id="q" name="q" value="${v.q ?? ''}"></div>
<button type="submit">Filter</button></form>
<p role="status">${v.total === 1 ? '1 action' : `${v.total} actions`}</p>
${
  v.rows.length
    ? html`<table><caption class="skip">Actions, newest first</caption><thead><tr><th scope="col">Contact</th><th scope="col">Kind</th><th scope="col">Document or templates</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead><tbody>${v.rows.map(
        (a) =>
          html`<tr><td><a href="/staff/actions/${a._id}">${a.contact}</a></td><td>${typeNames[a.type] ?? a.type}</td><td>${a.document?.title ?? `${a.questionListIds.length} template${a.questionListIds.length === 1 ? '' : 's'}`}</td><td><span class="status">${a.status}</span></td><td>${utcMinute(a.createdAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No action matches.</p>`
}
${pager('/staff/actions', params, v.page, Math.ceil(v.total / v.limit))}`,
  });
}

export interface ActionPageView {
  action: SessionRequestDetail;
  contact: { id: string; name: string } | null;
  signerNames: Record<string, string>;
  templateNames: string[];
  sessions: Session[];
  notice?: string;
  error?: string;
  canChange: boolean;
}

export function actionPage(f: StaffPageFrame, v: ActionPageView): string {
  const a = v.action;
  const open = ['created', 'sent', 'opened', 'reopened'].includes(a.status);
  const latest = v.sessions[0];
  return staffLayout({
    title: `${typeNames[a.type] ?? a.type} for ${v.contact?.name ?? 'a campaign'}`,
    area: 'actions',
    user: { ...f.me, csrf: f.csrf },
    body: html`<p><a href="/staff/actions">← Actions</a></p>
<h1>${typeNames[a.type] ?? a.type}${v.contact ? html` for <a href="/staff/contacts/${v.contact.id}">${v.contact.name}</a>` : ''}</h1>
${pageNotices(v.notice, v.error)}
<dl class="facts"><dt>Status</dt><dd><span class="status">${a.status}</span></dd>
${a.document ? html`<dt>Document</dt><dd>${a.document.title}</dd>` : ''}
${v.templateNames.length ? html`<dt>Templates</dt><dd>${v.templateNames.join(', ')}</dd>` : ''}
<dt>Language</dt><dd>${a.language}</dd><dt>Link</dt><dd><code>${a.url}</code></dd>
<dt>Created</dt><dd>${utcMinute(a.createdAt)}</dd><dt>Sent</dt><dd>${utcMinute(a.sentAt)}</dd><dt>Opened</dt><dd>${utcMinute(a.openedAt)}</dd><dt>Completed</dt><dd>${utcMinute(a.completedAt)}</dd>
${a.expiresAt ? html`<dt>Works until</dt><dd>${utcMinute(a.expiresAt)}</dd>` : ''}</dl>
${
  v.canChange
    ? html`<div class="row">${
        open
          ? html`<form method="post" action="/staff/actions/${a._id}/withdraw">${csrfField(f.csrf)}<button type="submit" class="danger" data-confirm="Withdraw this action? The contact’s link stops working at once and the reminders still to come are cancelled. This cannot be undone.">Withdraw</button></form>`
          : ''
      }${
        a.status === 'completed'
          ? html`<form method="post" action="/staff/actions/${a._id}/reopen">${csrfField(f.csrf)}<div class="choice"><input type="checkbox" id="reopen-email" name="email" value="yes" checked><label for="reopen-email">E-mail the contact that it is open again</label></div><button type="submit" data-confirm="Reopen this action? The contact’s link works again, so they can change their answers and submit them once more.">Reopen</button></form>`
          : ''
      }</div>`
    : ''
}
${
  a.signers.length
    ? html`<h2>Signers</h2><table><thead><tr><th scope="col">Signer</th><th scope="col">Status</th><th scope="col">Opened</th><th scope="col">Signed</th></tr></thead><tbody>${a.signers.map(
        (s) =>
          html`<tr><td>${v.signerNames[s.customerId] ?? s.customerId}</td><td>${s.status}${s.declineReason ? html` — ${s.declineReason}` : ''}</td><td>${utcMinute(s.openedAt)}</td><td>${utcMinute(s.signedAt)}</td></tr>`,
      )}</tbody></table>`
    : ''
}
<h2>Answers and documents</h2>
${
  latest
    ? html`${latest.documentsPending ? html`<p>The documents are being made.</p>` : ''}
${latest.documents.length ? html`<ul>${latest.documents.map((d) => html`<li><a href="${d.fileUrl}">${d.fileName}</a></li>`)}</ul>` : ''}
${latest.responses.length ? html`<dl class="facts">${latest.responses.map((r) => html`<dt>${r.questionTitle}</dt><dd>${r.response || '—'}</dd>`)}</dl>` : ''}
${v.sessions.length > 1 ? html`<p class="hint">${v.sessions.length} submissions; the latest is shown.</p>` : ''}`
    : html`<p>Nothing submitted yet.</p>`
}
<h2>History</h2>
<table><thead><tr><th scope="col">When</th><th scope="col">From</th><th scope="col">To</th><th scope="col">By</th></tr></thead><tbody>${a.history.map(
      (c) =>
        html`<tr><td>${utcMinute(c.at)}</td><td>${c.from ?? '—'}</td><td>${c.to}</td><td>${c.actor}</td></tr>`,
    )}</tbody></table>
<h2>Notifications</h2>
${
  a.notifications.length
    ? html`<table><thead><tr><th scope="col">Message</th><th scope="col">Channel</th><th scope="col">Status</th><th scope="col">Due or sent</th><th scope="col">Problem</th></tr></thead><tbody>${a.notifications.map(
        (m) =>
          html`<tr><td>${m.purpose}</td><td>${m.channel}</td><td>${m.status}</td><td>${utcMinute(m.sentAt ?? m.scheduledFor)}</td><td>${m.lastError ?? ''}</td></tr>`,
      )}</tbody></table>`
    : html`<p>None.</p>`
}`,
  });
}

export function contactsPage(
  f: StaffPageFrame,
  v: { rows: Customer[]; total: number; page: number; limit: number; q?: string },
): string {
  const params = new URLSearchParams();
  if (v.q) params.set('q', v.q);
  return staffLayout({
    title: 'Contacts',
    area: 'contacts',
    user: { ...f.me, csrf: f.csrf },
    body: html`<h1>Contacts</h1>
<form method="get" action="/staff/contacts" class="filters" role="search">
<div class="field"><label for="q">Name or e-mail</label><input type="search" id="q" name="q" value="${v.q ?? ''}"></div>
<button type="submit">Search</button></form>
<p role="status">${v.total === 1 ? '1 contact' : `${v.total} contacts`}</p>
${
  v.rows.length
    ? html`<table><caption class="skip">Contacts</caption><thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Reference</th><th scope="col">Added</th></tr></thead><tbody>${v.rows.map(
        (c) =>
          html`<tr><td><a href="/staff/contacts/${c._id}">${nameOf(c.data)}</a></td><td>${contactEmail(c.data) ?? ''}</td><td>${c.thirdpartyId ?? ''}</td><td>${utcMinute(c.createdAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No contact matches.</p>`
}
${pager('/staff/contacts', params, v.page, Math.ceil(v.total / v.limit))}`,
  });
}

export function contactPage(f: StaffPageFrame, v: { contact: Customer; actions: SessionRequest[] }): string {
  const c = v.contact;
  return staffLayout({
    title: nameOf(c.data),
    area: 'contacts',
    user: { ...f.me, csrf: f.csrf },
    body: html`<p><a href="/staff/contacts">← Contacts</a></p>
<h1>${nameOf(c.data)}</h1>
<div class="row"><a class="button primary" href="/sessionrequests/new?contact=${c._id}&step=options">Send an action</a></div>
<h2>Data</h2>
<dl class="facts">${c.thirdpartyId ? html`<dt>Reference</dt><dd>${c.thirdpartyId}</dd>` : ''}${Object.entries(
      c.data,
    ).map(([k, val]) => html`<dt>${k}</dt><dd>${val}</dd>`)}</dl>
<h2>Actions</h2>
${
  v.actions.length
    ? html`<table><thead><tr><th scope="col">Kind</th><th scope="col">Document or templates</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead><tbody>${v.actions.map(
        (a) =>
          html`<tr><td><a href="/staff/actions/${a._id}">${typeNames[a.type] ?? a.type}</a></td><td>${a.document?.title ?? `${a.questionListIds.length} template${a.questionListIds.length === 1 ? '' : 's'}`}</td><td><span class="status">${a.status}</span></td><td>${utcMinute(a.createdAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No actions yet.</p>`
}`,
  });
}
