import { utcMinute } from '../../../i18n/dates';
import { type Html, html } from '../../../platform/web/html';
import { type StaffPageFrame, staffLayout } from '../../../platform/web/staff-layout';
import type { AuditEvent } from '../../audit';

/** The filters of the audit page, as given (and shown again in its form). */
export interface AuditFilter {
  actorType?: string;
  targetType?: string;
  action?: string;
  since?: string;
  until?: string;
  requestId?: string;
}

export interface AuditPageView {
  events: AuditEvent[];
  /** Display names of the users who acted. */
  names: Map<string, string>;
  filter: AuditFilter;
  /** The filters as a query string (for the next page's link). */
  query: string;
  nextCursor: string | null;
  /** Not the first page: a link back to the newest. */
  older: boolean;
}

const actorTypes: [string, string][] = [
  ['user', 'A staff user (browser)'],
  ['api_key', 'An API key'],
  ['oauth_client', 'An application (OAuth)'],
  ['contact', 'A contact (action link)'],
  ['system', 'The system'],
];

const targetTypes: [string, string][] = [
  ['customer', 'Contacts'],
  ['portfolio', 'Portfolios'],
  ['session_request', 'Actions'],
  ['session', 'Answers'],
  ['signer', 'Signers'],
  ['question_list', 'Questionnaire templates'],
  ['file', 'Files'],
  ['setup', 'Deep-link setups'],
  ['webhook', 'Webhooks'],
  ['webhook_delivery', 'Webhook deliveries'],
  ['user', 'Users'],
  ['api_key', 'API keys'],
  ['password_token', 'Password links'],
  ['oauth_client', 'OAuth clients'],
  ['oauth_token', 'OAuth tokens'],
  ['sso_provider', 'Sign-in providers'],
  ['sso_identity', 'Sign-in identities'],
  ['organisation', 'The organisation'],
  ['campaign_visitor', 'Campaign visitors'],
];

/** Where a target can be looked at on the staff pages. */
function targetLink(type: string, id: string): string | null {
  switch (type) {
    case 'customer':
      return `/staff/contacts/${id}`;
    case 'session_request':
      return `/staff/actions/${id}`;
    case 'user':
      return `/staff/users/${id}`;
    case 'oauth_client':
      return `/staff/integrations/clients/${id}`;
    case 'sso_provider':
      return `/staff/integrations/providers/${id}`;
    default:
      return null;
  }
}

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const shown = (v: unknown) => clip(typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** How a change reads: each field with what became of it (never more than the trail holds). */
function changesText(summary: Record<string, unknown>): string {
  // Records written by the code for its own changes: `changed: {field: {from, to}}`.
  const legacy = summary.changed as Record<string, { from?: unknown; to?: unknown } | string> | undefined;
  const fields: [string, unknown][] =
    legacy && typeof legacy === 'object'
      ? Object.entries(legacy).map(([k, c]) =>
          typeof c === 'string' ? [k, c] : [k, { before: c.from ?? null, after: c.to ?? null }],
        )
      : Object.entries(summary);
  return fields
    .map(([field, c]) => {
      if (typeof c === 'string') return `${field} ${c}`;
      if (c && typeof c === 'object' && !Array.isArray(c)) {
        const o = c as Record<string, unknown>;
        if (Array.isArray(o.keys)) return `${field}: ${clip((o.keys as string[]).join(', '))}`;
        if (o.items && typeof o.items === 'object') {
          const items = o.items as { before?: number | null; after?: number | null };
          return `${field}: ${items.before ?? 0} → ${items.after ?? 0} items`;
        }
        if ('before' in o || 'after' in o)
          return o.before === null || o.before === undefined
            ? `${field}: ${shown(o.after)}`
            : `${field}: ${shown(o.before)} → ${shown(o.after)}`;
      }
      return `${field}: ${shown(c)}`;
    })
    .join('; ');
}

function who(e: AuditEvent, names: Map<string, string>): string {
  const name = e.actor.userId ? (names.get(e.actor.userId) ?? 'a removed user') : null;
  switch (e.actor.type) {
    case 'api_key':
      return `${name ?? 'a user'} (API key)`;
    case 'oauth_client':
      return `${name ?? 'a user'} (an application)`;
    case 'contact':
      return 'the contact';
    case 'system':
      return name ?? (e.actor.label ? `the system (${e.actor.label})` : 'the system');
    default:
      return name ?? 'a user';
  }
}

const option = (value: string, label: string, chosen: string | undefined) =>
  html`<option value="${value}"${chosen === value ? html` selected` : ''}>${label}</option>`;

/** Integrations → Audit trail: who changed what, when, from where; filters; a page at a time. */
export function auditPage(f: StaffPageFrame, v: AuditPageView): string {
  const rows: Html[] = v.events.map((e) => {
    const link = targetLink(e.target.type, e.target.id);
    const label = `${e.target.type} ${e.target.id.slice(0, 8)}`;
    const target = link
      ? html`<a href="${link}" title="${e.target.id}">${label}</a>`
      : html`<span title="${e.target.id}">${label}</span>`;
    return html`<tr><td>${utcMinute(e.at)}</td><td>${who(e, v.names)}</td><td><code>${e.action}</code> ${target}</td><td>${changesText(e.summary)}</td><td>${e.address ?? '—'}</td><td><code>${e.requestId ?? '—'}</code></td></tr>`;
  });
  return staffLayout({
    title: 'Audit trail',
    area: 'audit',
    user: { ...f.me, csrf: f.csrf },
    css: '.scroll{overflow-x:auto}.scroll table{min-width:44rem}td code{font-size:.85em;word-break:break-all}.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end}.filters label{display:block;font-weight:600}',
    body: html`<h1>Audit trail</h1>
<p>Every change to the organisation’s records: who made it (a user in the browser, an API key, an application, a contact or the system), what changed (the fields, never a secret or a contact’s answers), when, from which address, and under which request id. The same trail is at <code>GET /api/v1/audit-events</code>.</p>
<form method="get" action="/staff/audit" class="filters" aria-label="Filter the audit trail">
<div><label for="actorType">Who</label><select id="actorType" name="actorType">${option('', 'Anyone', v.filter.actorType)}${actorTypes.map(([value, label]) => option(value, label, v.filter.actorType))}</select></div>
<div><label for="targetType">What</label><select id="targetType" name="targetType">${option('', 'Everything', v.filter.targetType)}${targetTypes.map(([value, label]) => option(value, label, v.filter.targetType))}</select></div>
<div><label for="action">Action</label><input id="action" name="action" type="text" value="${v.filter.action ?? ''}" placeholder="customer.updated" size="18"></div>
<div><label for="since">From (UTC)</label><input id="since" name="since" type="date" value="${v.filter.since ?? ''}"></div>
<div><label for="until">To (UTC)</label><input id="until" name="until" type="date" value="${v.filter.until ?? ''}"></div>
<div><label for="requestId">Request id</label><input id="requestId" name="requestId" type="text" value="${v.filter.requestId ?? ''}" size="20"></div>
<div><button type="submit">Show</button></div>
</form>
${
  rows.length
    ? html`<div class="scroll" role="region" aria-label="Changes, newest first" tabindex="0"><table><caption class="skip">Changes, newest first</caption><thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Changes</th><th scope="col">Address</th><th scope="col">Request</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : html`<p role="status">No change recorded${v.query ? ' with these filters' : ''}.</p>`
}
<nav aria-label="Pages of the audit trail"><p>${v.older ? html`<a href="/staff/audit${v.query ? `?${v.query}` : ''}">Newest</a> ` : ''}${
      v.nextCursor
        ? html`<a href="/staff/audit?${v.query ? `${v.query}&` : ''}startingAfter=${v.nextCursor}">Older changes →</a>`
        : ''
    }</p></nav>`,
  });
}
