import { type UserNotice, type UserProblem, userWords } from '../../../i18n/desk-users';
import { groups } from '../../../platform/kernel/permissions';
import { type Html, html } from '../../../platform/web/html';
import {
  csrfField,
  framed,
  pageNotices,
  type StaffPageFrame,
  secretBox,
  staffLayout,
  when,
} from '../../../platform/web/staff-layout';
import type { ApiKey, User } from '../../organisations';

function groupBoxes(f: StaffPageFrame, prefix: string, checked: readonly string[], legend: string): Html {
  const w = userWords[f.lang];
  return html`<fieldset class="field"><legend>${legend}</legend>${groups.map(
    (g, i) =>
      html`<div class="choice"><input type="checkbox" id="${prefix}-g${i}" name="groups" value="${g}"${checked.includes(g) ? html` checked` : ''}> <label for="${prefix}-g${i}">${w.groupNames[g] ?? g}</label></div>`,
  )}</fieldset>`;
}

const groupNames = (f: StaffPageFrame, list: readonly string[]) =>
  list.map((g) => userWords[f.lang].groupNames[g] ?? g).join(', ');

export function usersPage(
  f: StaffPageFrame,
  users: User[],
  o: { notice?: UserNotice; error?: string; problem?: UserProblem } = {},
): string {
  const w = userWords[f.lang];
  return staffLayout({
    ...framed(f),
    title: w.title,
    area: 'users',
    body: html`<h1>${w.title}</h1>
${pageNotices(o.notice ? w.notices[o.notice] : undefined, o.problem ? w.problems[o.problem] : o.error)}
<table class="stack"><caption class="skip">${w.caption}</caption>
<thead><tr><th scope="col">${w.name}</th><th scope="col">${w.email}</th><th scope="col">${w.kind}</th><th scope="col">${w.groups}</th><th scope="col">${w.status}</th></tr></thead>
<tbody>${users.map(
      (u) =>
        html`<tr><td><a href="/staff/users/${u._id}">${u.name}</a></td><td data-label="${w.email}">${u.email}</td><td data-label="${w.kind}">${w.kinds[u.kind]}</td><td data-label="${w.groups}">${groupNames(f, u.groups)}</td><td data-label="${w.status}"><span class="status">${w.statuses[u.status] ?? u.status}</span></td></tr>`,
    )}</tbody></table>
<h2 id="add">${w.add}</h2>
<form method="post" action="/staff/users" novalidate>${csrfField(f.csrf)}
<div class="field"><label for="new-name">${w.name}</label><input type="text" id="new-name" name="name" required maxlength="200" autocomplete="off"></div>
<div class="field"><label for="new-email">${w.email}</label><input type="email" id="new-email" name="email" required maxlength="320" autocomplete="off"></div>
<fieldset class="field"><legend>${w.kind}</legend>
<div class="choice"><input type="radio" id="kind-staff" name="kind" value="staff" checked> <label for="kind-staff">${w.staffChoice}</label></div>
<div class="choice"><input type="radio" id="kind-service" name="kind" value="service"> <label for="kind-service">${w.serviceChoice}</label></div></fieldset>
${groupBoxes(f, 'new', ['adviser'], w.groups)}
<div class="choice"><input type="checkbox" id="invite" name="invite" value="yes" checked> <label for="invite">${w.invite}</label></div>
<div class="row"><button type="submit" class="primary">${w.addButton}</button></div>
</form>`,
  });
}

export interface UserPageView {
  user: User;
  keys: ApiKey[];
  /** A key just created: shown this once. */
  created?: { name: string; key: string };
  notice?: UserNotice;
  error?: string;
  /** The form's own refusal, said in the page's words. */
  problem?: UserProblem;
}

export function userPage(f: StaffPageFrame, v: UserPageView): string {
  const w = userWords[f.lang];
  const u = v.user;
  const post = (path: string, label: string, cls = '', extra: Html | string = '', confirm = '') =>
    html`<form method="post" action="/staff/users/${u._id}/${path}">${csrfField(f.csrf)}${extra}<button type="submit"${cls ? html` class="${cls}"` : ''}${confirm ? html` data-confirm="${confirm}"` : ''}>${label}</button></form>`;
  return staffLayout({
    ...framed(f),
    title: u.name,
    area: 'users',
    body: html`<p><a href="/staff/users">${w.back}</a></p>
<h1>${u.name}</h1>
${pageNotices(v.notice ? w.notices[v.notice] : undefined, v.problem ? w.problems[v.problem] : v.error)}
<dl class="facts"><dt>${w.email}</dt><dd>${u.email}</dd><dt>${w.kind}</dt><dd>${w.kinds[u.kind]}</dd><dt>${w.status}</dt><dd><span class="status">${w.statuses[u.status] ?? u.status}</span></dd><dt>${w.created}</dt><dd>${when(f, u.createdAt)}</dd></dl>
<div class="row">${u.status === 'active' ? post('status', w.deactivate, 'danger', html`<input type="hidden" name="status" value="deactivated">`, w.confirmDeactivate(u.name)) : post('status', w.reactivate, '', html`<input type="hidden" name="status" value="active">`)}${
      u.kind === 'staff' && u.status === 'active' ? post('password-link', w.passwordLink) : ''
    }${u.kind === 'staff' && u.status === 'active' ? post('sign-out', w.signOut) : ''}</div>
<h2 id="groups">${w.groups}</h2>
<form method="post" action="/staff/users/${u._id}/groups" novalidate>${csrfField(f.csrf)}${groupBoxes(f, 'edit', u.groups, w.memberOf)}
<div class="row"><button type="submit">${w.saveGroups}</button></div></form>
<h2 id="keys">${w.apiKeys}</h2>
${v.created ? secretBox(f, 'new-key', w.keyTitle(v.created.name), v.created.key) : ''}
${
  v.keys.length
    ? html`<table class="stack"><caption class="skip">${w.keysOf(u.name)}</caption><thead><tr><th scope="col">${w.keyName}</th><th scope="col">${w.startsWith}</th><th scope="col">${w.mode}</th><th scope="col">${w.created}</th><th scope="col">${w.lastUsed}</th><th scope="col">${w.status}</th><th scope="col"><span class="skip">${w.revoke}</span></th></tr></thead><tbody>${v.keys.map(
        (k) =>
          html`<tr><td>${k.name}</td><td data-label="${w.startsWith}"><code>${k.prefix}…</code></td><td data-label="${w.mode}"><span class="status">${w.modes[k.livemode ? 'live' : 'test']}</span></td><td data-label="${w.created}">${when(f, k.createdAt)}</td><td data-label="${w.lastUsed}">${when(f, k.lastUsedAt)}</td><td data-label="${w.status}">${k.revokedAt ? html`${w.revokedOn} ${when(f, k.revokedAt)}` : w.active}</td><td>${
            k.revokedAt
              ? ''
              : html`<form method="post" action="/staff/users/${u._id}/apikeys/${k._id}/revoke">${csrfField(f.csrf)}<button type="submit" class="danger" aria-label="${w.revokeLabel(k.name)}" data-confirm="${w.confirmRevoke(k.name)}">${w.revoke}</button></form>`
          }</td></tr>`,
      )}</tbody></table>`
    : html`<p>${w.noKeys}</p>`
}
<form method="post" action="/staff/users/${u._id}/apikeys" novalidate>${csrfField(f.csrf)}
<div class="field"><label for="key-name">${w.newKeyName}</label><input type="text" id="key-name" name="name" required maxlength="200" autocomplete="off" aria-describedby="key-hint"><p class="hint" id="key-hint">${w.keyHint}</p></div>
<fieldset class="field"><legend>${w.mode}</legend>${(['live', 'test'] as const).map(
      (m) =>
        html`<div class="choice"><input type="radio" id="key-mode-${m}" name="mode" value="${m}"${m === 'live' ? html` checked` : ''} aria-describedby="key-mode-${m}-hint"> <label for="key-mode-${m}">${w.modes[m]}</label> <span class="hint" id="key-mode-${m}-hint">— ${w.modeHints[m]}</span></div>`,
    )}</fieldset>
<div class="row"><button type="submit" class="primary">${w.createKey}</button></div></form>`,
  });
}
