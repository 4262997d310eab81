import { utcMinute } from '../../../i18n/dates';
import { groups } from '../../../platform/kernel/permissions';
import { type Html, html, joinHtml } from '../../../platform/web/html';
import { csrfField, pageNotices, type StaffPageFrame, staffLayout } from '../../../platform/web/staff-layout';
import type { ClientToken, OAuthClient } from '../../oauth';
import type { ApiKey, User } from '../../organisations';

function groupBoxes(prefix: string, checked: readonly string[], legend = 'Groups'): Html {
  return html`<fieldset class="field"><legend>${legend}</legend>${groups.map(
    (g, i) =>
      html`<div class="choice"><input type="checkbox" id="${prefix}-g${i}" name="groups" value="${g}"${checked.includes(g) ? html` checked` : ''}> <label for="${prefix}-g${i}">${g}</label></div>`,
  )}</fieldset>`;
}

export function usersPage(
  f: StaffPageFrame,
  users: User[],
  o: { notice?: string; error?: string } = {},
): string {
  return staffLayout({
    title: 'Users',
    area: 'users',
    user: { ...f.me, csrf: f.csrf },
    body: html`<h1>Users</h1>
${pageNotices(o.notice, o.error)}
<table><caption class="skip">The organisation’s users</caption>
<thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Kind</th><th scope="col">Groups</th><th scope="col">Status</th></tr></thead>
<tbody>${users.map(
      (u) =>
        html`<tr><td><a href="/staff/users/${u._id}">${u.name}</a></td><td>${u.email}</td><td>${u.kind}</td><td>${u.groups.join(', ')}</td><td><span class="status">${u.status}</span></td></tr>`,
    )}</tbody></table>
<h2 id="add">Add a user</h2>
<form method="post" action="/staff/users" novalidate>${csrfField(f.csrf)}
<div class="field"><label for="new-name">Name</label><input type="text" id="new-name" name="name" required maxlength="200" autocomplete="off"></div>
<div class="field"><label for="new-email">E-mail address</label><input type="email" id="new-email" name="email" required maxlength="320" autocomplete="off"></div>
<fieldset class="field"><legend>Kind</legend>
<div class="choice"><input type="radio" id="kind-staff" name="kind" value="staff" checked> <label for="kind-staff">Staff: signs in to these pages</label></div>
<div class="choice"><input type="radio" id="kind-service" name="kind" value="service"> <label for="kind-service">Service: software calling the API with a key</label></div></fieldset>
${groupBoxes('new', ['adviser'])}
<div class="choice"><input type="checkbox" id="invite" name="invite" value="yes" checked> <label for="invite">E-mail a staff user a link to choose their password</label></div>
<div class="row"><button type="submit" class="primary">Add the user</button></div>
</form>`,
  });
}

export interface UserPageView {
  user: User;
  keys: ApiKey[];
  /** A key just created: shown this once. */
  created?: { name: string; key: string };
  notice?: string;
  error?: string;
}

export function userPage(f: StaffPageFrame, v: UserPageView): string {
  const u = v.user;
  const post = (path: string, label: string, cls = '', extra: Html | string = '', confirm = '') =>
    html`<form method="post" action="/staff/users/${u._id}/${path}">${csrfField(f.csrf)}${extra}<button type="submit"${cls ? html` class="${cls}"` : ''}${confirm ? html` data-confirm="${confirm}"` : ''}>${label}</button></form>`;
  return staffLayout({
    title: u.name,
    area: 'users',
    user: { ...f.me, csrf: f.csrf },
    body: html`<p><a href="/staff/users">← Users</a></p>
<h1>${u.name}</h1>
${pageNotices(v.notice, v.error)}
<dl class="facts"><dt>E-mail</dt><dd>${u.email}</dd><dt>Kind</dt><dd>${u.kind}</dd><dt>Status</dt><dd><span class="status">${u.status}</span></dd><dt>Created</dt><dd>${utcMinute(u.createdAt)}</dd></dl>
<div class="row">${u.status === 'active' ? post('status', 'Deactivate', 'danger', html`<input type="hidden" name="status" value="deactivated">`, `Deactivate ${u.name}? They are signed out everywhere at once, and their API keys and tokens stop working until they are reactivated.`) : post('status', 'Reactivate', '', html`<input type="hidden" name="status" value="active">`)}${
      u.kind === 'staff' && u.status === 'active' ? post('password-link', 'E-mail a password link') : ''
    }${u.kind === 'staff' && u.status === 'active' ? post('sign-out', 'Sign out everywhere') : ''}</div>
<h2 id="groups">Groups</h2>
<form method="post" action="/staff/users/${u._id}/groups" novalidate>${csrfField(f.csrf)}${groupBoxes('edit', u.groups, 'Member of')}
<div class="row"><button type="submit">Save the groups</button></div></form>
<h2 id="keys">API keys</h2>
${
  v.created
    ? html`<div class="notice" role="status"><p><strong>The key “${v.created.name}”</strong> — copy it now: it is shown only this once.</p><p class="secret" id="new-key">${v.created.key}</p></div>`
    : ''
}
${
  v.keys.length
    ? html`<table><caption class="skip">API keys of ${u.name}</caption><thead><tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="skip">Action</span></th></tr></thead><tbody>${v.keys.map(
        (k) =>
          html`<tr><td>${k.name}</td><td><code>${k.prefix}…</code></td><td>${utcMinute(k.createdAt)}</td><td>${utcMinute(k.lastUsedAt)}</td><td>${k.revokedAt ? `revoked ${utcMinute(k.revokedAt)}` : 'active'}</td><td>${
            k.revokedAt
              ? ''
              : html`<form method="post" action="/staff/users/${u._id}/apikeys/${k._id}/revoke">${csrfField(f.csrf)}<button type="submit" class="danger" aria-label="Revoke the key ${k.name}" data-confirm="Revoke the key “${k.name}”? Every call made with it is refused from now on. This cannot be undone.">Revoke</button></form>`
          }</td></tr>`,
      )}</tbody></table>`
    : html`<p>No API keys yet.</p>`
}
<form method="post" action="/staff/users/${u._id}/apikeys" novalidate>${csrfField(f.csrf)}
<div class="field"><label for="key-name">Name of a new key</label><input type="text" id="key-name" name="name" required maxlength="200" autocomplete="off"><p class="hint">Say where it will be used, e.g. “CRM production”.</p></div>
<div class="row"><button type="submit" class="primary">Create an API key</button></div></form>`,
  });
}

export interface IntegrationsView {
  clients: OAuthClient[];
  /** A secret just made (registration or rotation): shown this once. */
  secret?: { name: string; clientId: string; clientSecret: string };
  notice?: string;
  problems?: string[];
}

const grantNames: Record<string, string> = {
  client_credentials: 'Client credentials (a server acting as its service user)',
  authorization_code: 'Authorization code with PKCE (acting for a signed-in adviser)',
  refresh_token: 'Refresh tokens',
};

export function integrationsPage(f: StaffPageFrame, v: IntegrationsView = { clients: [] }): string {
  const post = (path: string, label: string, cls = '', confirm = '') =>
    html`<form method="post" action="/staff/integrations/clients/${path}">${csrfField(f.csrf)}<button type="submit"${cls ? html` class="${cls}"` : ''}${confirm ? html` data-confirm="${confirm}"` : ''}>${label}</button></form>`;
  return staffLayout({
    title: 'Integrations',
    area: 'integrations',
    user: { ...f.me, csrf: f.csrf },
    body: html`<h1>Integrations</h1>
${pageNotices(v.notice)}
${v.problems?.length ? html`<div class="summary" role="alert"><h2>Please check</h2><ul>${v.problems.map((p) => html`<li class="error">${p}</li>`)}</ul></div>` : ''}
<h2 id="clients">OAuth client applications</h2>
<p>Partner applications call the API with OAuth tokens (<code>POST /api/v1/auth/oauth/token</code>). Software of your own can also use an API key of a service user under <a href="/staff/users">Users</a>.</p>
${
  v.secret
    ? html`<div class="notice" role="status"><p><strong>The secret of “${v.secret.name}”</strong> (client id <code>${v.secret.clientId}</code>) — copy it now: it is shown only this once.</p><p class="secret" id="new-secret">${v.secret.clientSecret}</p></div>`
    : ''
}
${
  v.clients.length
    ? html`<table><caption class="skip">OAuth clients</caption><thead><tr><th scope="col">Name</th><th scope="col">Client id</th><th scope="col">Kind</th><th scope="col">Scopes</th><th scope="col">Status</th><th scope="col"><span class="skip">Actions</span></th></tr></thead><tbody>${v.clients.map(
        (c) =>
          html`<tr><td><a href="/staff/integrations/clients/${c._id}">${c.name}</a></td><td><code>${c.clientId}</code></td><td>${c.type}</td><td>${c.scopes.join(' ')}</td><td>${c.disabledAt ? `disabled ${utcMinute(c.disabledAt)}` : 'active'}</td><td><div class="row">${
            c.type === 'confidential' && !c.disabledAt ? post(`${c._id}/rotate`, 'New secret') : ''
          }${c.disabledAt ? post(`${c._id}/enable`, 'Enable') : post(`${c._id}/disable`, 'Disable', 'danger', `Disable “${c.name}”? Its tokens stop working, and it gets no new ones until it is enabled again.`)}</div></td></tr>`,
      )}</tbody></table>`
    : html`<p>No client yet.</p>`
}
<h3>Register a client</h3>
<form method="post" action="/staff/integrations/clients" novalidate>${csrfField(f.csrf)}
<div class="field"><label for="client-name">Name</label><input type="text" id="client-name" name="name" required maxlength="200" autocomplete="off"></div>
<fieldset class="field"><legend>Kind</legend>
<div class="choice"><input type="radio" id="type-confidential" name="type" value="confidential" checked> <label for="type-confidential">Confidential: a server that keeps a secret</label></div>
<div class="choice"><input type="radio" id="type-public" name="type" value="public"> <label for="type-public">Public: a mobile or browser app (no secret, PKCE)</label></div></fieldset>
<fieldset class="field"><legend>Grants</legend>${Object.entries(grantNames).map(
      ([g, label], i) =>
        html`<div class="choice"><input type="checkbox" id="grant-${i}" name="grants" value="${g}"${g === 'client_credentials' ? html` checked` : ''}> <label for="grant-${i}">${label}</label></div>`,
    )}</fieldset>
<fieldset class="field"><legend>Scopes</legend>${['read', 'create', 'update', 'delete', 'all'].map(
      (sc, i) =>
        html`<div class="choice"><input type="checkbox" id="scope-${i}" name="scopes" value="${sc}"${sc === 'read' ? html` checked` : ''}> <label for="scope-${i}">${sc}</label></div>`,
    )}</fieldset>
<div class="field"><label for="redirects">Redirect URIs (authorization code; one per line, exact)</label><textarea id="redirects" name="redirectUris"></textarea></div>
<div class="row"><button type="submit" class="primary">Register the client</button></div>
</form>
<h2 id="providers">OAuth Providers</h2><p>Staff sign in with their Google-type or Microsoft-type work account, or another OpenID Connect provider: <a href="/staff/integrations/providers">set up your organisation’s sign-in providers</a>.</p>`,
  });
}

export interface ClientPageView {
  client: OAuthClient;
  tokens: ClientToken[];
  total: number;
  notice?: string;
}

const kindNames: Record<string, string> = { access: 'Access token', refresh: 'Refresh token' };

/** One OAuth client: what it may do, and its live tokens with who they act for and when last used. */
export function clientPage(f: StaffPageFrame, v: ClientPageView): string {
  const c = v.client;
  const base = `/staff/integrations/clients/${c._id}`;
  return staffLayout({
    title: c.name,
    area: 'integrations',
    user: { ...f.me, csrf: f.csrf },
    body: html`<p><a href="/staff/integrations#clients">Integrations</a></p>
<h1>${c.name}</h1>
${pageNotices(v.notice)}
<dl class="facts"><dt>Client id</dt><dd><code>${c.clientId}</code></dd><dt>Kind</dt><dd>${c.type}</dd>
<dt>Grants</dt><dd>${c.grants.map((g) => grantNames[g] ?? g).join('; ')}</dd><dt>Scopes</dt><dd>${c.scopes.join(' ')}</dd>
<dt>Redirect URIs</dt><dd>${
      c.redirectUris.length
        ? joinHtml(
            c.redirectUris.map((u) => html`<code>${u}</code>`),
            html`<br>`,
          )
        : '—'
    }</dd>
<dt>Status</dt><dd>${c.disabledAt ? `disabled ${utcMinute(c.disabledAt)}` : 'active'}</dd></dl>
<h2 id="tokens">Live tokens (${v.total})</h2>
${
  v.tokens.length
    ? html`<table><caption class="skip">Live tokens of ${c.name}</caption><thead><tr><th scope="col">Kind</th><th scope="col">Acts for</th><th scope="col">Scopes</th><th scope="col">Issued</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"><span class="skip">Actions</span></th></tr></thead><tbody>${v.tokens.map(
        (t) =>
          html`<tr><td>${kindNames[t.kind] ?? t.kind}</td><td>${t.userName}</td><td>${t.scopes.join(' ')}</td><td>${utcMinute(t.createdAt)}</td><td>${utcMinute(t.expiresAt)}</td><td>${utcMinute(t.lastUsedAt)}</td><td><form method="post" action="${base}/tokens/${t._id}/revoke">${csrfField(f.csrf)}<button type="submit" class="danger" aria-label="Revoke the ${t.kind} token of ${t.userName} issued ${utcMinute(t.createdAt)}" data-confirm="Revoke this token of ${t.userName}? The application using it is refused from now on, until they grant access again.">Revoke</button></form></td></tr>`,
      )}</tbody></table>
<form method="post" action="${base}/revoke-tokens">${csrfField(f.csrf)}<div class="row"><button type="submit" class="danger" data-confirm="Revoke every token of this client? Every person using it must grant access again.">Revoke all its tokens</button></div></form>`
    : html`<p>No live token.</p>`
}`,
  });
}
