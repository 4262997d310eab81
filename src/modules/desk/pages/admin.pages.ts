import { utcMinute } from '../../../i18n/dates';
import { groups } from '../../../platform/kernel/permissions';
import { type Html, html } from '../../../platform/web/html';
import {
  csrfField,
  pageNotices,
  type StaffPageFrame,
  secretBox,
  staffLayout,
} from '../../../platform/web/staff-layout';
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
${v.created ? secretBox(f, 'new-key', `The key “${v.created.name}”`, v.created.key) : ''}
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
