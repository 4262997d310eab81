import { staffDateTime } from '../../../i18n/dates';
import { type ClientNotice, integrationWords } from '../../../i18n/desk-integrations';
import { testInboxWords } from '../../../i18n/desk-test-inbox';
import { type WebhookNotice, webhookWords } from '../../../i18n/desk-webhooks';
import { html, joinHtml } from '../../../platform/web/html';
import {
  csrfField,
  framed,
  pageNotices,
  problemList,
  type StaffPageFrame,
  secretBox,
  staffLayout,
  when,
} from '../../../platform/web/staff-layout';
import type { ClientToken, OAuthClient } from '../../oauth';
import {
  type WebhookFormValues,
  type WebhookProblem,
  type WebhookRow,
  webhookProblems,
  webhooksSection,
} from './webhooks.pages';

export interface IntegrationsView {
  clients: OAuthClient[];
  webhooks: WebhookRow[];
  /** A client's secret just made (registration or rotation): shown this once. */
  secret?: { name: string; clientId: string; clientSecret: string };
  notice?: ClientNotice;
  /** A webhook's notice (a webhook was deleted). */
  webhookNotice?: WebhookNotice;
  problems?: readonly (string | WebhookProblem)[];
  /** What the add-a-webhook form was sent with, when refused. */
  webhookForm?: WebhookFormValues;
}

/** Integrations (administrators): OAuth clients, webhooks, the way to the sign-in providers. */
export function integrationsPage(f: StaffPageFrame, v: IntegrationsView): string {
  const w = integrationWords[f.lang];
  const c = w.clients;
  const t = testInboxWords[f.lang];
  const post = (path: string, label: string, cls = '', confirm = '') =>
    html`<form method="post" action="/staff/integrations/clients/${path}">${csrfField(f.csrf)}<button type="submit"${cls ? html` class="${cls}"` : ''}${confirm ? html` data-confirm="${confirm}"` : ''}>${label}</button></form>`;
  return staffLayout({
    ...framed(f),
    title: w.title,
    area: 'integrations',
    body: html`<h1>${w.title}</h1>
${pageNotices(v.webhookNotice ? webhookWords[f.lang].list.notices[v.webhookNotice] : v.notice ? c.notices[v.notice] : undefined)}
${problemList(f, webhookProblems(f, v.problems))}
<h2 id="clients">${c.heading}</h2>
<p>${c.intro} <a href="/staff/users">${c.usersLink}</a>.</p>
${v.secret ? secretBox(f, 'new-secret', html`${c.secretOf(v.secret.name)} (${c.clientId} <code>${v.secret.clientId}</code>)`, v.secret.clientSecret) : ''}
${
  v.clients.length
    ? html`<table class="stack"><caption class="skip">${c.caption}</caption><thead><tr><th scope="col">${c.name}</th><th scope="col">${c.clientId}</th><th scope="col">${c.kind}</th><th scope="col">${c.scopes}</th><th scope="col">${c.status}</th><th scope="col"><span class="skip">${w.actions}</span></th></tr></thead><tbody>${v.clients.map(
        (k) =>
          html`<tr><td><a href="/staff/integrations/clients/${k._id}">${k.name}</a></td><td data-label="${c.clientId}"><code>${k.clientId}</code></td><td data-label="${c.kind}">${c.kinds[k.type] ?? k.type}</td><td data-label="${c.scopes}">${k.scopes.join(' ')}</td><td data-label="${c.status}">${k.disabledAt ? html`${w.disabledAt} ${when(f, k.disabledAt)}` : w.active}</td><td><div class="row">${
            k.type === 'confidential' && !k.disabledAt ? post(`${k._id}/rotate`, c.newSecret) : ''
          }${k.disabledAt ? post(`${k._id}/enable`, c.enable) : post(`${k._id}/disable`, c.disable, 'danger', c.confirmDisable(k.name))}</div></td></tr>`,
      )}</tbody></table>`
    : html`<p>${c.none}</p>`
}
<h3>${c.register}</h3>
<form method="post" action="/staff/integrations/clients" novalidate>${csrfField(f.csrf)}
<div class="field"><label for="client-name">${c.name}</label><input type="text" id="client-name" name="name" required maxlength="200" autocomplete="off"></div>
<fieldset class="field"><legend>${c.kind}</legend>
<div class="choice"><input type="radio" id="type-confidential" name="type" value="confidential" checked> <label for="type-confidential">${c.confidential}</label></div>
<div class="choice"><input type="radio" id="type-public" name="type" value="public"> <label for="type-public">${c.public}</label></div></fieldset>
<fieldset class="field"><legend>${c.grants}</legend>${Object.entries(c.grantNames).map(
      ([g, label], i) =>
        html`<div class="choice"><input type="checkbox" id="grant-${i}" name="grants" value="${g}"${g === 'client_credentials' ? html` checked` : ''}> <label for="grant-${i}">${label}</label></div>`,
    )}</fieldset>
<fieldset class="field"><legend>${c.scopes}</legend>${['read', 'create', 'update', 'delete', 'all'].map(
      (sc, i) =>
        html`<div class="choice"><input type="checkbox" id="scope-${i}" name="scopes" value="${sc}"${sc === 'read' ? html` checked` : ''}> <label for="scope-${i}"><code>${sc}</code></label></div>`,
    )}</fieldset>
<div class="field"><label for="redirects">${c.redirects}</label><textarea id="redirects" name="redirectUris"></textarea></div>
<div class="row"><button type="submit" class="primary">${c.registerButton}</button></div>
</form>
${webhooksSection(f, v.webhooks, v.webhookForm)}
<h2 id="providers">${c.providersHeading}</h2><p>${c.providersText} <a href="/staff/integrations/providers">${c.providersLink}</a>.</p>
<h2 id="test-inbox">${t.title}</h2><p>${t.inboxText} <a href="/staff/integrations/test-inbox">${t.inboxLink}</a>.</p>`,
  });
}

export interface ClientPageView {
  client: OAuthClient;
  tokens: ClientToken[];
  total: number;
  notice?: ClientNotice;
}

/** One OAuth client: what it may do, and its live tokens with who they act for and when last used. */
export function clientPage(f: StaffPageFrame, v: ClientPageView): string {
  const w = integrationWords[f.lang];
  const c = w.clients;
  const k = v.client;
  const base = `/staff/integrations/clients/${k._id}`;
  return staffLayout({
    ...framed(f),
    title: k.name,
    area: 'integrations',
    body: html`<p><a href="/staff/integrations#clients">${c.back}</a></p>
<h1>${k.name}</h1>
${pageNotices(v.notice ? c.notices[v.notice] : undefined)}
<dl class="facts"><dt>${c.clientId}</dt><dd><code>${k.clientId}</code></dd><dt>${c.kind}</dt><dd>${c.kinds[k.type] ?? k.type}</dd>
<dt>${c.grants}</dt><dd>${k.grants.map((g) => c.grantNames[g] ?? g).join('; ')}</dd><dt>${c.scopes}</dt><dd>${k.scopes.join(' ')}</dd>
<dt>${c.redirectUris}</dt><dd>${
      k.redirectUris.length
        ? joinHtml(
            k.redirectUris.map((u) => html`<code>${u}</code>`),
            html`<br>`,
          )
        : '—'
    }</dd>
<dt>${c.status}</dt><dd>${k.disabledAt ? html`${w.disabledAt} ${when(f, k.disabledAt)}` : w.active}</dd></dl>
<h2 id="tokens">${c.tokens(v.total)}</h2>
${
  v.tokens.length
    ? html`<table class="stack"><caption class="skip">${c.tokens(v.total)}</caption><thead><tr><th scope="col">${c.kind}</th><th scope="col">${c.actsFor}</th><th scope="col">${c.scopes}</th><th scope="col">${c.issued}</th><th scope="col">${c.expires}</th><th scope="col">${c.lastUsed}</th><th scope="col"><span class="skip">${w.actions}</span></th></tr></thead><tbody>${v.tokens.map(
        (t) =>
          html`<tr><td>${c.tokenKinds[t.kind] ?? t.kind}</td><td data-label="${c.actsFor}">${t.userName}</td><td data-label="${c.scopes}">${t.scopes.join(' ')}</td><td data-label="${c.issued}">${when(f, t.createdAt)}</td><td data-label="${c.expires}">${when(f, t.expiresAt)}</td><td data-label="${c.lastUsed}">${when(f, t.lastUsedAt)}</td><td><form method="post" action="${base}/tokens/${t._id}/revoke">${csrfField(f.csrf)}<button type="submit" class="danger" aria-label="${c.revokeLabel((c.tokenKinds[t.kind] ?? t.kind).toLowerCase(), t.userName, staffDateTime(new Date(t.createdAt), f.lang, f.zone))}" data-confirm="${c.confirmRevoke(t.userName)}">${c.revoke}</button></form></td></tr>`,
      )}</tbody></table>
<form method="post" action="${base}/revoke-tokens">${csrfField(f.csrf)}<div class="row"><button type="submit" class="danger" data-confirm="${c.confirmRevokeAll}">${c.revokeAll}</button></div></form>`
    : html`<p>${c.noTokens}</p>`
}`,
  });
}
