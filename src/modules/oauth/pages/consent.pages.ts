import { html } from '../../../platform/web/html';
import { staffLayout } from '../../../platform/web/staff-layout';

/** What each OAuth scope lets a partner application do, in the adviser's words. */
const SCOPE_WORDS: Record<string, string> = {
  read: 'See your contacts, portfolios, templates, actions, answers, documents and files',
  create: 'Add contacts, templates and files, and send actions to contacts by e-mail or SMS',
  update: 'Change contacts, templates and actions, and withdraw or reopen actions',
  delete: 'Delete contacts, templates, actions and files',
  all: 'Everything your account may do, administration included',
};

export interface ConsentView {
  csrf: string;
  me: { name: string; email: string };
  client: string;
  scopes: string[];
  /** Where the adviser returns afterwards (its host is shown). */
  redirectUri: string;
  /** The id under which the server keeps the request this page shows: all the form posts of it. */
  requestId: string;
}

/** The consent page of the authorization endpoint: who asks, for what, and where the answer goes. */
export function consentPage(v: ConsentView): string {
  const host = new URL(v.redirectUri).host;
  return staffLayout({
    title: `Allow ${v.client}?`,
    narrow: true,
    body: html`<h1>Allow ${v.client} to use ActionDesk for you?</h1>
<p>You are signed in as <strong>${v.me.name}</strong> (${v.me.email}).</p>
<h2 id="can">${v.client} will be able to</h2>
<ul aria-labelledby="can">${v.scopes.map((s) => html`<li>${SCOPE_WORDS[s] ?? s}</li>`)}</ul>
<p class="hint">Never more than your own account may do. An administrator can revoke its access at any time under Integrations.</p>
<form method="post" action="/api/v1/auth/oauth/authorize">
<input type="hidden" name="_csrf" value="${v.csrf}">
<input type="hidden" name="request_id" value="${v.requestId}">
<p>Either way you go back to <strong>${host}</strong>.</p>
<div class="row"><button type="submit" class="primary" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form>`,
  });
}
