import type { Language } from '../../../i18n/languages';
import { type LinkProblem, type PasswordProblem, passwordWords } from '../../../i18n/staff-password';
import {
  type SignInNotice,
  type SignInProblem,
  type SignInWords,
  type SsoRefused,
  signInWords,
} from '../../../i18n/staff-signin';
import { html } from '../../../platform/web/html';
import { staffErrorPage, staffLayout } from '../../../platform/web/staff-layout';
import { PASSWORD_MAX, PASSWORD_MIN } from '../passwords';

/** What the sign-in form says above itself: a refusal by its name, or how long to wait. */
export type SignInError = { problem: SignInProblem } | { problem: 'limited'; seconds: number };

export interface SignInView {
  csrf: string;
  email?: string;
  next?: string;
  error?: SignInError;
  notice?: SignInNotice;
  /** The password fits accounts in several organisations: the user picks one (and types it again). */
  organisations?: { id: string; name: string }[];
  /** An organisation's own sign-in address: its name, and the buttons of its sign-in providers. */
  organisation?: { id: string; name: string; buttons: SsoButton[]; passwordSignIn: boolean };
}

/** A single sign-on button: a link that starts the sign-in at the provider (named on the button). */
export interface SsoButton {
  href: string;
  provider: string;
}

const ssoButtons = (w: SignInWords, buttons: SsoButton[]) =>
  html`<ul class="sso" role="list">${buttons.map(
    (b) => html`<li><a class="button" href="${b.href}">${w.signInWith(b.provider)}</a></li>`,
  )}</ul>`;

const errorText = (w: SignInWords, e: SignInError) =>
  e.problem === 'limited' ? w.limited(e.seconds) : w.problems[e.problem];

export function signInPage(lang: Language, v: SignInView): string {
  const w = signInWords[lang];
  const restricted = v.organisation !== undefined && !v.organisation.passwordSignIn;
  const errorId = v.error ? 'signin-error' : undefined;
  const title = v.organisation ? w.titleAt(v.organisation.name) : w.title;
  return staffLayout({
    lang,
    title,
    narrow: true,
    body: html`<h1>${title}</h1>
${v.notice ? html`<p class="notice" role="status">${w.notices[v.notice]}</p>` : ''}
${v.error ? html`<div class="summary" role="alert" id="signin-error"><p class="error">${errorText(w, v.error)}</p></div>` : ''}
${
  v.organisation && v.organisation.buttons.length > 0
    ? html`<section aria-labelledby="sso-heading"><h2 id="sso-heading">${w.workAccount}</h2>${ssoButtons(w, v.organisation.buttons)}</section>${v.organisation.passwordSignIn ? html`<h2>${w.withPassword}</h2>` : ''}`
    : ''
}
${restricted ? html`<details><summary>${w.adminsSummary}</summary><p class="hint">${w.adminsHint}</p>` : ''}
<form method="post" action="/signin" novalidate>
<input type="hidden" name="_csrf" value="${v.csrf}">
${v.next ? html`<input type="hidden" name="next" value="${v.next}">` : ''}
${v.organisation ? html`<input type="hidden" name="organisationId" value="${v.organisation.id}">` : ''}
<div class="field"><label for="email">${w.email}</label>
<input type="email" id="email" name="email" autocomplete="username" required value="${v.email ?? ''}"${errorId ? html` aria-describedby="${errorId}"` : ''}${v.email || v.organisation?.buttons.length ? '' : html` autofocus`}></div>
${
  v.organisations
    ? html`<fieldset class="field"><legend>${w.organisation}</legend><p class="hint">${w.organisationHint}</p>${v.organisations.map(
        (o, i) =>
          html`<div class="choice"><input type="radio" id="org-${i}" name="organisationId" value="${o.id}"${i === 0 ? html` checked` : ''}> <label for="org-${i}">${o.name}</label></div>`,
      )}</fieldset>`
    : ''
}
<div class="field"><label for="password">${w.password}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${errorId ? html` aria-describedby="${errorId}"` : ''}${v.email ? html` autofocus` : ''}></div>
<div class="row"><button type="submit" class="primary">${w.submit}</button> <a href="/password/forgot">${w.forgot}</a></div>
${
  v.organisation
    ? ''
    : html`<p class="hint" id="sso-hint">${w.ssoHint}</p>
<div class="row"><button type="submit" formaction="/signin/sso" formnovalidate aria-describedby="sso-hint">${w.ssoButton}</button></div>`
}
</form>
${restricted ? html`</details>` : ''}`,
  });
}

/** The single sign-on buttons for an e-mail address, by organisation (the e-mail-first step). */
export function ssoChoicePage(
  lang: Language,
  v: { email: string; choices: { organisation: string; buttons: SsoButton[] }[] },
): string {
  const w = signInWords[lang];
  const several = v.choices.length > 1;
  return staffLayout({
    lang,
    title: w.choice.title,
    narrow: true,
    body: html`<h1>${w.choice.title}</h1>
<p>${several ? w.choice.chooseFor(v.email) : w.choice.forEmail(v.email)}</p>
${v.choices.map((c) =>
  several
    ? html`<section><h2>${c.organisation}</h2>${ssoButtons(w, c.buttons)}</section>`
    : html`<p class="hint">${c.organisation}</p>${ssoButtons(w, c.buttons)}`,
)}
<p><a href="/signin">${w.choice.withPassword}</a></p>`,
  });
}

/** Why single sign-on refused, in words: the refusal's sentence with the values it names. */
function ssoRefusalText(w: SignInWords['sso']['refusals'], r: SsoRefused): string {
  switch (r.reason) {
    case 'disabled':
      return r.provider === undefined ? w.unknownProvider : w.disabled(r.provider);
    case 'unverified':
    case 'linked-elsewhere':
      return w[r.reason](r.provider);
    case 'domain':
      return w.domain(r.domain, r.provider);
    case 'no-account':
      return w['no-account'](r.email);
    default:
      return w[r.reason];
  }
}

/**
 * Single sign-on did not sign the browser in: why, in words, and the way back. `button-expired`: the
 * sign-in button's link carried no valid CSRF token.
 */
export function ssoProblemPage(lang: Language, problem: SsoRefused | { reason: 'button-expired' }): string {
  const w = signInWords[lang].sso;
  const text = problem.reason === 'button-expired' ? w.buttonExpired : ssoRefusalText(w.refusals, problem);
  return staffLayout({
    lang,
    title: w.title,
    narrow: true,
    body: html`<h1>${w.title}</h1>
<div class="summary" role="alert"><p>${text}</p></div>
<p><a href="/signin">${w.back}</a></p>`,
  });
}

/** An organisation's sign-in address for an organisation that does not exist. */
export const noOrganisationPage = (lang: Language): string =>
  staffErrorPage(404, signInWords[lang].noOrganisation, { lang });

export function forgotPasswordPage(
  lang: Language,
  v: { csrf: string; email?: string; problem?: 'email'; sentTo?: string },
): string {
  const w = passwordWords[lang].forgot;
  return staffLayout({
    lang,
    title: w.title,
    narrow: true,
    body:
      v.sentTo !== undefined
        ? html`<h1>${w.sentTitle}</h1><p class="notice" role="status">${w.sent(v.sentTo)}</p><p><a href="/signin">${w.back}</a></p>`
        : html`<h1>${w.title}</h1>
<p>${w.lead}</p>
${v.problem ? html`<div class="summary" role="alert"><p class="error" id="email-error">${w.noEmail}</p></div>` : ''}
<form method="post" action="/password/forgot" novalidate>
<input type="hidden" name="_csrf" value="${v.csrf}">
<div class="field"><label for="email">${w.email}</label>
<input type="email" id="email" name="email" autocomplete="username" required value="${v.email ?? ''}"${v.problem ? html` aria-invalid="true" aria-describedby="email-error"` : ''}></div>
<div class="row"><button type="submit" class="primary">${w.send}</button> <a href="/signin">${w.back}</a></div>
</form>`,
  });
}

const passwordProblemText = (w: (typeof passwordWords)[Language]['choose'], p: PasswordProblem) =>
  p === 'not-same'
    ? w.notSame
    : p === 'short'
      ? w.short(PASSWORD_MIN)
      : p === 'long'
        ? w.long(PASSWORD_MAX)
        : w[p];

export function setPasswordPage(
  lang: Language,
  v: { csrf: string; token: string; name: string; email: string; problem?: PasswordProblem },
): string {
  const w = passwordWords[lang].choose;
  return staffLayout({
    lang,
    title: w.title,
    narrow: true,
    body: html`<h1>${w.title}</h1>
<p>${w.forWhom(v.name, v.email)}</p>
${v.problem ? html`<div class="summary" role="alert"><p class="error" id="password-error">${passwordProblemText(w, v.problem)}</p></div>` : ''}
<form method="post" action="/password/${v.token}" novalidate>
<input type="hidden" name="_csrf" value="${v.csrf}">
<input type="text" name="username" value="${v.email}" autocomplete="username" hidden>
<div class="field"><label for="password">${w.password}</label>
<input type="password" id="password" name="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}" aria-describedby="password-hint${v.problem ? ' password-error' : ''}"${v.problem ? html` aria-invalid="true"` : ''}>
<p class="hint" id="password-hint">${w.hint(PASSWORD_MIN)}</p></div>
<div class="field"><label for="confirm">${w.confirm}</label>
<input type="password" id="confirm" name="confirm" autocomplete="new-password" required></div>
<div class="row"><button type="submit" class="primary">${w.save}</button></div>
</form>`,
  });
}

export function linkProblemPage(lang: Language, state: LinkProblem): { status: number; html: string } {
  const w = passwordWords[lang].link;
  const text = w[state];
  return {
    status: state === 'unknown' ? 404 : 410,
    html: staffLayout({
      lang,
      title: text.title,
      narrow: true,
      body: html`<h1>${text.title}</h1><p>${text.text}</p><p><a href="/password/forgot">${w.askNew}</a> · <a href="/signin">${w.signIn}</a></p>`,
    }),
  };
}
