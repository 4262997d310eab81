import { utcMinute } from '../../../i18n/dates';
import { type Html, html, joinHtml } from '../../../platform/web/html';
import { csrfField, type StaffPageFrame, staffLayout } from '../../../platform/web/staff-layout';
import type { AuditEvent } from '../../audit';
import type { SsoProvider } from '../../sso';

const typeNames: Record<string, string> = {
  google: 'Google-type (Google Workspace)',
  microsoft: 'Microsoft-type (Microsoft Entra ID directory)',
  oidc: 'Another OpenID Connect provider',
};
const jitChoices = [
  ['', 'Off: only users an administrator added'],
  ['adviser', 'adviser'],
  ['file manager', 'file manager'],
  ['read-only', 'read-only'],
] as const;

/** What the form showed, to show it again after a refusal (never the secret). */
export interface ProviderFormValues {
  type?: string;
  name?: string;
  tenantId?: string;
  issuer?: string;
  clientId?: string;
  enabled?: boolean;
  allowedDomains?: string;
  jitGroup?: string;
  directorySync?: boolean;
  directoryUrl?: string;
  /** One mapping a line: `directory group id = group`. */
  groupMapping?: string;
  syncNames?: boolean;
}

const problemsBox = (problems?: string[]) =>
  problems?.length
    ? html`<div class="summary" role="alert" id="problems" tabindex="-1"><h2>Please check</h2><ul>${problems.map((p) => html`<li class="error">${p}</li>`)}</ul></div>`
    : '';

/** The exact address to register at the provider, ready to copy. */
const redirectBox = (redirectUri: string) =>
  html`<div class="notice"><p><strong>Redirect address</strong> — register it exactly so at the provider (as the application’s redirect URI / reply URL):</p><p><code id="redirect-uri">${redirectUri}</code></p></div>`;

function commonFields(prefix: string, v: ProviderFormValues, editing: boolean): Html {
  return html`<div class="field"><label for="${prefix}-name">Button label</label><input type="text" id="${prefix}-name" name="name" maxlength="100" value="${v.name ?? ''}" aria-describedby="${prefix}-name-hint"><p class="hint" id="${prefix}-name-hint">The sign-in button reads “Sign in with” this. Empty: Google, Microsoft or Single sign-on.</p></div>
<div class="field"><label for="${prefix}-tenant">Directory (tenant) id or domain — Microsoft-type only</label><input type="text" id="${prefix}-tenant" name="tenantId" maxlength="100" value="${v.tenantId ?? ''}" autocomplete="off" spellcheck="false"></div>
<div class="field"><label for="${prefix}-issuer">Issuer URL — required for another provider; optional otherwise</label><input type="url" id="${prefix}-issuer" name="issuer" maxlength="500" value="${v.issuer ?? ''}" autocomplete="off" spellcheck="false"></div>
<div class="field"><label for="${prefix}-client">Client ID</label><input type="text" id="${prefix}-client" name="clientId" maxlength="500" value="${v.clientId ?? ''}" autocomplete="off" spellcheck="false"${editing ? '' : html` required`}></div>
<div class="field"><label for="${prefix}-secret">Client secret${editing ? ' — leave empty to keep the saved one' : ''}</label><input type="password" id="${prefix}-secret" name="clientSecret" maxlength="2000" autocomplete="new-password"${editing ? '' : html` required`} aria-describedby="${prefix}-secret-hint"><p class="hint" id="${prefix}-secret-hint">Stored encrypted. It is never shown again, here or anywhere.</p></div>
<div class="field"><label for="${prefix}-domains">Allowed e-mail domains (one per line; empty: any)</label><textarea id="${prefix}-domains" name="allowedDomains" spellcheck="false">${v.allowedDomains ?? ''}</textarea></div>
<div class="field"><label for="${prefix}-jit">Create unknown users on their first sign-in</label><select id="${prefix}-jit" name="jitGroup" aria-describedby="${prefix}-jit-hint">${jitChoices.map(
    ([value, label]) =>
      html`<option value="${value}"${(v.jitGroup ?? '') === value ? html` selected` : ''}>${value ? `Yes, in the group ${label}` : label}</option>`,
  )}</select><p class="hint" id="${prefix}-jit-hint">Needs allowed domains: only addresses of those domains are created.</p></div>
<div class="choice"><input type="checkbox" id="${prefix}-enabled" name="enabled" value="on"${v.enabled ? html` checked` : ''}> <label for="${prefix}-enabled">Enabled: its button shows on the sign-in page</label></div>`;
}

/** Integrations → OAuth Providers: the organisation's sign-in providers and the form to add one. */
export function providersPage(
  f: StaffPageFrame,
  v: {
    providers: SsoProvider[];
    redirectUri: string;
    notice?: string;
    problems?: string[];
    form?: ProviderFormValues;
    signInAddress: string;
    passwordSignIn: boolean;
  },
): string {
  const form = v.form ?? { type: 'google' };
  return staffLayout({
    title: 'OAuth Providers',
    area: 'integrations',
    user: { ...f.me, csrf: f.csrf },
    body: html`<p><a href="/staff/integrations">Integrations</a></p>
<h1>OAuth Providers</h1>
<p>Staff sign in with their work account at your identity provider. Create an OAuth 2.0 application there, register the redirect address below, and enter its client ID and secret here. Once enabled, its button appears on the sign-in page: for every address with an account here, and always on your organisation’s own sign-in address, <a href="${v.signInAddress}">${v.signInAddress}</a>.</p>
${v.notice ? html`<p class="notice" role="status">${v.notice}</p>` : ''}
${problemsBox(v.problems)}
${redirectBox(v.redirectUri)}
${
  v.providers.length
    ? html`<table><caption class="skip">Sign-in providers</caption><thead><tr><th scope="col">Button</th><th scope="col">Kind</th><th scope="col">Client ID</th><th scope="col">Domains</th><th scope="col">Status</th></tr></thead><tbody>${v.providers.map(
        (p) =>
          html`<tr><td><a href="/staff/integrations/providers/${p._id}">${p.name}</a></td><td>${typeNames[p.type] ?? p.type}</td><td><code>${p.clientId}</code></td><td>${p.allowedDomains.length ? p.allowedDomains.join(', ') : 'any'}</td><td>${p.enabled ? 'enabled' : 'disabled'}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No provider yet.</p>`
}
<h2 id="password">Password sign-in</h2>
<p>${
      v.passwordSignIn
        ? 'On: staff sign in with their password or with an enabled provider.'
        : 'Off: staff sign in through an enabled provider. Administrators keep their password as a way in when single sign-on fails (each such sign-in is recorded in the audit trail).'
    }</p>
<form method="post" action="/staff/integrations/providers/password-sign-in">${csrfField(f.csrf)}<input type="hidden" name="passwordSignIn" value="${v.passwordSignIn ? 'off' : 'on'}"><div class="row"><button type="submit"${v.passwordSignIn ? html` class="danger" data-confirm="Switch password sign-in off? Staff then sign in only through a provider; administrators keep their password."` : ''}>${v.passwordSignIn ? 'Switch password sign-in off' : 'Switch password sign-in on'}</button></div></form>
<h2>Add a provider</h2>
<form method="post" action="/staff/integrations/providers" novalidate>${csrfField(f.csrf)}
<fieldset class="field"><legend>Kind</legend>${Object.entries(typeNames).map(
      ([value, label]) =>
        html`<div class="choice"><input type="radio" id="type-${value}" name="type" value="${value}"${form.type === value ? html` checked` : ''}> <label for="type-${value}">${label}</label></div>`,
    )}</fieldset>
${commonFields('new', form, false)}
<div class="row"><button type="submit" class="primary">Add the provider</button></div>
</form>`,
  });
}

/** Microsoft-type: directory synchronisation's settings (in the provider's form). */
function directoryFields(v: ProviderFormValues): Html {
  return html`<fieldset class="field"><legend>Directory synchronisation</legend>
<div class="choice"><input type="checkbox" id="sync-on" name="directorySync" value="on"${v.directorySync ? html` checked` : ''}> <label for="sync-on">Read the directory on a schedule (DIRECTORY_SYNC_MINUTES, every hour by default): users removed or disabled there are deactivated here</label></div>
<div class="choice"><input type="checkbox" id="sync-names" name="syncNames" value="on"${v.syncNames ? html` checked` : ''}> <label for="sync-names">Names follow the directory</label></div>
<div class="field"><label for="sync-url">Microsoft Graph address (empty: https://graph.microsoft.com/v1.0)</label><input type="url" id="sync-url" name="directoryUrl" maxlength="500" value="${v.directoryUrl ?? ''}" spellcheck="false"></div>
<div class="field"><label for="sync-groups">Group mapping: one a line, directory group id = group here (administrator, file manager, adviser, read-only)</label><textarea id="sync-groups" name="groupMapping" spellcheck="false">${v.groupMapping ?? ''}</textarea></div>
<p class="hint">Only users linked to this provider or of its allowed domains are managed; the last active administrator is never deactivated; a run that would deactivate more than half of them changes nothing.</p></fieldset>`;
}

/** Microsoft-type: the last run of directory synchronisation, and a button to run it now. */
function directorySection(
  f: StaffPageFrame,
  p: SsoProvider,
  synced: AuditEvent[],
  names: Map<string, string>,
): Html {
  const last = p.lastSync;
  return html`<h2 id="directory">Directory synchronisation</h2>
<p>${p.directorySync ? 'On' : 'Off'}. ${
    p.lastSyncAt
      ? last?.error
        ? html`Last run ${utcMinute(p.lastSyncAt)}: nothing changed — ${last.error}`
        : html`Last run ${utcMinute(p.lastSyncAt)}: ${String(last?.users ?? 0)} users in the directory, ${String(last?.deactivated ?? 0)} deactivated, ${String(last?.updated ?? 0)} updated${last?.skipped.length ? html` (not done: ${last.skipped.join('; ')})` : ''}.`
      : 'It has not run yet.'
  }</p>
${p.directorySync ? html`<form method="post" action="/staff/integrations/providers/${p._id}/sync">${csrfField(f.csrf)}<div class="row"><button type="submit">Synchronise now</button></div></form>` : ''}
${
  synced.length
    ? html`<table><caption>Latest changes to users</caption><thead><tr><th scope="col">When</th><th scope="col">User</th><th scope="col">What</th></tr></thead><tbody>${synced.map(
        (e) =>
          html`<tr><td>${utcMinute(e.at)}</td><td><a href="/staff/users/${e.target.id}">${names.get(e.target.id) ?? 'a removed user'}</a></td><td>${actionWords[e.action] ?? e.action}${typeof e.summary.reason === 'string' ? html` (${e.summary.reason})` : ''}${summaryText(e) ? html`: ${summaryText(e)}` : ''}</td></tr>`,
      )}</tbody></table>`
    : ''
}`;
}

/** How a change reads in the history: the fields with before and after. */
function summaryText(e: AuditEvent): string {
  const changed = e.summary.changed as Record<string, { from?: unknown; to?: unknown } | string> | undefined;
  if (!changed) return '';
  return Object.entries(changed)
    .map(([field, c]) =>
      typeof c === 'string'
        ? `${field} ${c}`
        : c.from === null || c.from === undefined
          ? `${field}: ${JSON.stringify(c.to ?? null)}`
          : `${field}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to ?? null)}`,
    )
    .join('; ');
}

const actionWords: Record<string, string> = {
  'user.deactivated': 'Deactivated',
  'user.updated': 'Updated',
  'sso_provider.created': 'Added',
  'sso_provider.updated': 'Changed',
  'sso_provider.deleted': 'Removed',
};

/** One provider: its settings to change, enable or remove, and its history (the audit trail). */
export function providerPage(
  f: StaffPageFrame,
  v: {
    provider: SsoProvider;
    history: AuditEvent[];
    /** The latest changes directory synchronisation made to users. */
    synced?: AuditEvent[];
    /** Display names of the users who made the changes. */
    names: Map<string, string>;
    notice?: string;
    problems?: string[];
    form?: ProviderFormValues;
  },
): string {
  const p = v.provider;
  const form: ProviderFormValues = v.form ?? {
    name: p.name,
    tenantId: p.tenantId ?? '',
    issuer: p.issuer,
    clientId: p.clientId,
    enabled: p.enabled,
    allowedDomains: p.allowedDomains.join('\n'),
    jitGroup: p.jitGroup ?? '',
    directorySync: p.directorySync,
    directoryUrl: p.directoryUrl ?? '',
    groupMapping: Object.entries(p.groupMapping)
      .map(([id, group]) => `${id} = ${group}`)
      .join('\n'),
    syncNames: p.syncNames,
  };
  const who = (e: AuditEvent) => {
    const name = e.actor.userId
      ? (v.names.get(e.actor.userId) ?? 'a removed user')
      : (e.actor.label ?? 'the system');
    return e.actor.type === 'api_key'
      ? `${name} (API key)`
      : e.actor.type === 'oauth_client'
        ? `${name} (an application)`
        : name;
  };
  return staffLayout({
    title: p.name,
    area: 'integrations',
    user: { ...f.me, csrf: f.csrf },
    body: html`<p><a href="/staff/integrations/providers">OAuth Providers</a></p>
<h1>${p.name}</h1>
${v.notice ? html`<p class="notice" role="status">${v.notice}</p>` : ''}
${problemsBox(v.problems)}
<dl class="facts"><dt>Kind</dt><dd>${typeNames[p.type] ?? p.type}</dd><dt>Status</dt><dd>${p.enabled ? 'enabled' : 'disabled'}</dd><dt>Client secret</dt><dd>saved ${utcMinute(p.secretUpdatedAt)} (never shown)</dd></dl>
${redirectBox(p.redirectUri)}
<h2>Settings</h2>
<form method="post" action="/staff/integrations/providers/${p._id}" novalidate>${csrfField(f.csrf)}
${commonFields('edit', form, true)}
${p.type === 'microsoft' ? directoryFields(form) : ''}
<div class="row"><button type="submit" class="primary">Save</button></div>
</form>
${p.type === 'microsoft' ? directorySection(f, p, v.synced ?? [], v.names) : ''}
<h2>Remove</h2>
<form method="post" action="/staff/integrations/providers/${p._id}/delete">${csrfField(f.csrf)}<p>Its button disappears and nobody signs in through it any more; users keep their accounts.</p><div class="row"><button type="submit" class="danger" data-confirm="Remove ${p.name}? Its button disappears and nobody signs in through it any more; users keep their accounts.">Remove ${p.name}</button></div></form>
<h2 id="history">History</h2>
${
  v.history.length
    ? html`<table><caption class="skip">Changes of ${p.name}</caption><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th></tr></thead><tbody>${v.history.map(
        (e) =>
          html`<tr><td>${utcMinute(e.at)}</td><td>${who(e)}</td><td>${joinHtml(
            [
              html`${actionWords[e.action] ?? e.action}`,
              ...(summaryText(e) ? [html`${summaryText(e)}`] : []),
            ],
            html`: `,
          )}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No change recorded.</p>`
}`,
  });
}
