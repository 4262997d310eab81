// What a sign-in provider's page reports: directory synchronisation's last run with the changes it made to
// users, and the provider's history, each change with its settings before and after in the page's words.
import { providerWords } from '../../../i18n/desk-providers';
import { userWords } from '../../../i18n/desk-users';
import { staffWords } from '../../../i18n/staff';
import { type Html, html, joinHtml } from '../../../platform/web/html';
import { csrfField, type StaffPageFrame, when } from '../../../platform/web/staff-layout';
import type { AuditEvent } from '../../audit';
import type { SsoProvider } from '../../sso';

/** A record's value for a key the data chose (an action, a field, a group), or undefined. */
const own = (record: Record<string, string>, key: string): string | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** A group's name in the page's language. */
export const groupName = (f: StaffPageFrame, group: string) =>
  own(userWords[f.lang].groupNames, group) ?? group;

/** A setting's value as the history holds it, in words: yes or no, groups by name, none as a dash. */
function valueText(f: StaffPageFrame, field: string, v: unknown): string {
  const w = providerWords[f.lang].history;
  const none = staffWords[f.lang].none;
  if (v === null || v === undefined || v === '') return none;
  if (typeof v === 'boolean') return v ? w.yes : w.no;
  if (Array.isArray(v)) return v.length ? v.map((x) => valueText(f, field, x)).join(', ') : none;
  if (typeof v === 'object') {
    const entries = Object.entries(v);
    return entries.length ? entries.map(([k, x]) => `${k} = ${valueText(f, field, x)}`).join(', ') : none;
  }
  if (typeof v !== 'string') return String(v);
  if (field === 'status') return own(userWords[f.lang].statuses, v) ?? v;
  if (field === 'groups' || field === 'jitGroup' || field === 'groupMapping') return groupName(f, v);
  return JSON.stringify(v);
}

/** How a change reads in the history: the fields with before and after. */
function summaryText(f: StaffPageFrame, e: AuditEvent): string {
  const w = providerWords[f.lang].history;
  const changed = e.summary.changed as Record<string, { from?: unknown; to?: unknown } | string> | undefined;
  if (!changed || typeof changed !== 'object') return '';
  return Object.entries(changed)
    .map(([field, c]) => {
      const label = own(w.fields, field) ?? field;
      if (typeof c === 'string') return `${label} ${own(w.secret, c) ?? c}`;
      return c.from === null || c.from === undefined
        ? `${label}: ${valueText(f, field, c.to)}`
        : `${label}: ${valueText(f, field, c.from)} → ${valueText(f, field, c.to)}`;
    })
    .join('; ');
}

/** What happened, in words: the action, and why (directory synchronisation) and what changed. */
function changeText(f: StaffPageFrame, e: AuditEvent): Html {
  const w = providerWords[f.lang];
  const reason = e.summary.reason;
  const why =
    reason === 'disabled in the directory'
      ? w.directory.reasons.disabled
      : reason === 'not in the directory'
        ? w.directory.reasons.gone
        : typeof reason === 'string'
          ? reason
          : '';
  const summary = summaryText(f, e);
  return joinHtml(
    [
      html`${own(w.history.actions, e.action) ?? e.action}${why ? html` (${why})` : ''}`,
      ...(summary ? [html`${summary}`] : []),
    ],
    html`: `,
  );
}

/** Microsoft-type: the last run of directory synchronisation, and a button to run it now. */
export function syncSection(
  f: StaffPageFrame,
  p: SsoProvider,
  synced: AuditEvent[],
  names: Map<string, string>,
): Html {
  const w = providerWords[f.lang].directory;
  const h = providerWords[f.lang].history;
  const last = p.lastSync;
  const run = p.lastSyncAt
    ? last?.error
      ? html`${w.lastRun} ${when(f, p.lastSyncAt)}: ${w.nothingChanged} — ${last.error}`
      : html`${w.lastRun} ${when(f, p.lastSyncAt)}: ${w.outcome(last?.users ?? 0, last?.deactivated ?? 0, last?.updated ?? 0)}${last?.skipped.length ? html` (${w.notDone}: ${last.skipped.join('; ')})` : ''}.`
    : w.notRun;
  return html`<h2 id="directory">${w.heading}</h2>
<p>${p.directorySync ? w.on : w.off}. ${run}</p>
${p.directorySync ? html`<form method="post" action="/staff/integrations/providers/${p._id}/sync">${csrfField(f.csrf)}<div class="row"><button type="submit" data-confirm="${w.confirmSync}">${w.syncNow}</button></div></form>` : ''}
${
  synced.length
    ? html`<table class="stack"><caption>${w.latest}</caption><thead><tr><th scope="col">${h.when}</th><th scope="col">${w.user}</th><th scope="col">${h.what}</th></tr></thead><tbody>${synced.map(
        (e) =>
          html`<tr><td>${when(f, e.at)}</td><td><a href="/staff/users/${e.target.id}">${names.get(e.target.id) ?? h.removedUser}</a></td><td>${changeText(f, e)}</td></tr>`,
      )}</tbody></table>`
    : ''
}`;
}

/** The provider's history: each change with who made it and what changed. */
export function historySection(
  f: StaffPageFrame,
  p: SsoProvider,
  history: AuditEvent[],
  names: Map<string, string>,
): Html {
  const w = providerWords[f.lang].history;
  const who = (e: AuditEvent) => {
    const name = e.actor.userId
      ? (names.get(e.actor.userId) ?? w.removedUser)
      : e.actor.type === 'system'
        ? w.system
        : (e.actor.label ?? w.system);
    return e.actor.type === 'api_key' ? w.apiKey(name) : e.actor.type === 'oauth_client' ? w.app(name) : name;
  };
  return html`<h2 id="history">${w.heading}</h2>
${
  history.length
    ? html`<table class="stack"><caption class="skip">${w.caption(p.name)}</caption><thead><tr><th scope="col">${w.when}</th><th scope="col">${w.who}</th><th scope="col">${w.what}</th></tr></thead><tbody>${history.map(
        (e) =>
          html`<tr><td>${when(f, e.at)}</td><td data-label="${w.who}">${who(e)}</td><td data-label="${w.what}">${changeText(f, e)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>${w.none}</p>`
}`;
}
