import { html } from '../../../platform/web/html';
import { staffLayout } from '../../../platform/web/staff-layout';

export interface SignInView {
  csrf: string;
  email?: string;
  next?: string;
  error?: string;
  notice?: string;
  /** The password fits accounts in several organisations: the user picks one (and types it again). */
  organisations?: { id: string; name: string }[];
  /** An organisation's own sign-in address: its name, and the buttons of its sign-in providers. */
  organisation?: { id: string; name: string; buttons: SsoButton[]; passwordSignIn: boolean };
}

/** A single sign-on button: a link that starts the sign-in at the provider. */
export interface SsoButton {
  href: string;
  label: string;
}

const ssoButtons = (buttons: SsoButton[]) =>
  html`<ul class="sso" role="list">${buttons.map(
    (b) => html`<li><a class="button" href="${b.href}">${b.label}</a></li>`,
  )}</ul>`;

export function signInPage(v: SignInView): string {
  const restricted = v.organisation !== undefined && !v.organisation.passwordSignIn;
  const errorId = v.error ? 'signin-error' : undefined;
  return staffLayout({
    title: v.organisation ? `Sign in to ${v.organisation.name}` : 'Sign in',
    narrow: true,
    body: html`<h1>${v.organisation ? html`Sign in to ${v.organisation.name}` : 'Sign in'}</h1>
${v.notice ? html`<p class="notice" role="status">${v.notice}</p>` : ''}
${v.error ? html`<div class="summary" role="alert" id="signin-error"><p class="error">${v.error}</p></div>` : ''}
${
  v.organisation && v.organisation.buttons.length > 0
    ? html`<section aria-labelledby="sso-heading"><h2 id="sso-heading">With your work account</h2>${ssoButtons(v.organisation.buttons)}</section>${v.organisation.passwordSignIn ? html`<h2>With your password</h2>` : ''}`
    : ''
}
${restricted ? html`<details><summary>Administrators: sign in with your password</summary><p class="hint">Password sign-in is off for this organisation; administrators keep it as a way in when single sign-on fails.</p>` : ''}
<form method="post" action="/signin" novalidate>
<input type="hidden" name="_csrf" value="${v.csrf}">
${v.next ? html`<input type="hidden" name="next" value="${v.next}">` : ''}
${v.organisation ? html`<input type="hidden" name="organisationId" value="${v.organisation.id}">` : ''}
<div class="field"><label for="email">E-mail address</label>
<input type="email" id="email" name="email" autocomplete="username" required value="${v.email ?? ''}"${errorId ? html` aria-describedby="${errorId}"` : ''}${v.email || v.organisation?.buttons.length ? '' : html` autofocus`}></div>
${
  v.organisations
    ? html`<fieldset class="field"><legend>Organisation</legend><p class="hint">Your e-mail address has an account in more than one organisation. Choose one and type your password again.</p>${v.organisations.map(
        (o, i) =>
          html`<div class="choice"><input type="radio" id="org-${i}" name="organisationId" value="${o.id}"${i === 0 ? html` checked` : ''}> <label for="org-${i}">${o.name}</label></div>`,
      )}</fieldset>`
    : ''
}
<div class="field"><label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${errorId ? html` aria-describedby="${errorId}"` : ''}${v.email ? html` autofocus` : ''}></div>
<div class="row"><button type="submit" class="primary">Sign in</button> <a href="/password/forgot">Forgot your password?</a></div>
${
  v.organisation
    ? ''
    : html`<p class="hint" id="sso-hint">Does your organisation sign in with Google, Microsoft or another provider? Give your e-mail address above, then:</p>
<div class="row"><button type="submit" formaction="/signin/sso" formnovalidate aria-describedby="sso-hint">Continue with single sign-on</button></div>`
}
</form>
${restricted ? html`</details>` : ''}`,
  });
}

/** The single sign-on buttons for an e-mail address, by organisation (the e-mail-first step). */
export function ssoChoicePage(v: {
  email: string;
  choices: { organisation: string; buttons: SsoButton[] }[];
}): string {
  const several = v.choices.length > 1;
  return staffLayout({
    title: 'Sign in with your work account',
    narrow: true,
    body: html`<h1>Sign in with your work account</h1>
<p>For ${v.email}${several ? ': choose your organisation.' : '.'}</p>
${v.choices.map((c) =>
  several
    ? html`<section><h2>${c.organisation}</h2>${ssoButtons(c.buttons)}</section>`
    : html`<p class="hint">${c.organisation}</p>${ssoButtons(c.buttons)}`,
)}
<p><a href="/signin">Sign in with a password instead</a></p>`,
  });
}

/** Single sign-on did not sign the browser in: why, in words, and the way back. */
export function ssoProblemPage(message: string): string {
  return staffLayout({
    title: 'You are not signed in',
    narrow: true,
    body: html`<h1>You are not signed in</h1>
<div class="summary" role="alert"><p>${message}</p></div>
<p><a href="/signin">Back to sign in</a></p>`,
  });
}

export function forgotPasswordPage(v: {
  csrf: string;
  sent?: boolean;
  email?: string;
  error?: string;
}): string {
  return staffLayout({
    title: 'Forgot your password',
    narrow: true,
    body: v.sent
      ? html`<h1>Check your e-mail</h1><p class="notice" role="status">If ${v.email ?? 'that address'} belongs to an ActionDesk account, a link to set a new password is on its way. It works once, for a limited time.</p><p><a href="/signin">Back to sign in</a></p>`
      : html`<h1>Forgot your password</h1>
<p>Give the e-mail address of your account: we send you a link to choose a new password.</p>
${v.error ? html`<div class="summary" role="alert"><p class="error" id="email-error">${v.error}</p></div>` : ''}
<form method="post" action="/password/forgot" novalidate>
<input type="hidden" name="_csrf" value="${v.csrf}">
<div class="field"><label for="email">E-mail address</label>
<input type="email" id="email" name="email" autocomplete="username" required value="${v.email ?? ''}"${v.error ? html` aria-invalid="true" aria-describedby="email-error"` : ''}></div>
<div class="row"><button type="submit" class="primary">Send the link</button> <a href="/signin">Back to sign in</a></div>
</form>`,
  });
}

export function setPasswordPage(v: {
  csrf: string;
  token: string;
  name: string;
  email: string;
  error?: string;
}): string {
  return staffLayout({
    title: 'Choose your password',
    narrow: true,
    body: html`<h1>Choose your password</h1>
<p>For ${v.name} (${v.email}).</p>
${v.error ? html`<div class="summary" role="alert"><p class="error" id="password-error">${v.error}</p></div>` : ''}
<form method="post" action="/password/${v.token}" novalidate>
<input type="hidden" name="_csrf" value="${v.csrf}">
<input type="text" name="username" value="${v.email}" autocomplete="username" hidden>
<div class="field"><label for="password">New password</label>
<input type="password" id="password" name="password" autocomplete="new-password" required minlength="12" aria-describedby="password-hint${v.error ? ' password-error' : ''}"${v.error ? html` aria-invalid="true"` : ''}>
<p class="hint" id="password-hint">At least 12 characters. A few words you will remember make a good one.</p></div>
<div class="field"><label for="confirm">The same password again</label>
<input type="password" id="confirm" name="confirm" autocomplete="new-password" required></div>
<div class="row"><button type="submit" class="primary">Save and sign in</button></div>
</form>`,
  });
}

export function linkProblemPage(state: 'unknown' | 'used' | 'expired'): { status: number; html: string } {
  const text = {
    unknown: ['This link is not valid', 'Check that you opened the whole link from the e-mail.'],
    used: ['This link has already been used', 'Each link works once. Sign in, or ask for a new link.'],
    expired: ['This link has expired', 'Ask for a new link: it works for a limited time.'],
  }[state];
  return {
    status: state === 'unknown' ? 404 : 410,
    html: staffLayout({
      title: text[0]!,
      narrow: true,
      body: html`<h1>${text[0]}</h1><p>${text[1]}</p><p><a href="/password/forgot">Ask for a new link</a> · <a href="/signin">Sign in</a></p>`,
    }),
  };
}
