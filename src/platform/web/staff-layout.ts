import { staffDateTime } from '../../i18n/dates';
import type { Language } from '../../i18n/languages';
import { staffLanguage, staffWords } from '../../i18n/staff';
import { htmlDocument } from './document-layout';
import { type Html, html } from './html';

/** Staff pages: a wider page with a navigation bar; laid out for a laptop and a tablet. */
const staffCss = `
label{font-weight:600}
.bar{background:#12355b;color:#fff}
.bar .in{max-width:72rem;margin:0 auto;padding:.5rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1.25rem}
.bar a{color:#fff}
.bar .brand{font-weight:700;font-size:1.15rem;text-decoration:none;margin-right:.5rem}
.bar nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0}
.bar nav a{display:inline-block;padding:.4rem .2rem;text-decoration:none;border-bottom:3px solid transparent}
.bar nav a[aria-current=page]{border-bottom-color:#fff;font-weight:700}
.bar .me{margin-left:auto;display:flex;align-items:center;gap:.75rem}
.bar .me button{border-color:#fff;color:#fff;background:transparent;min-height:2.25rem;padding:.3rem .8rem}
main{max-width:72rem;margin:0 auto;padding:1rem;background:#fff;min-height:calc(100vh - 3.5rem)}
main.narrow{max-width:28rem}
.field{margin:1rem 0}
.field label{display:block;margin-bottom:.3rem}
.hint{color:#44474f;font-size:.95rem;margin:.2rem 0 0}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #d0d4da;vertical-align:top}
th{font-size:.95rem;color:#44474f}
.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;margin:1rem 0}
.filters .field{margin:0;min-width:12rem}
.row{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:1rem 0}
.status{display:inline-block;padding:.1rem .5rem;border-radius:1rem;background:#e8eaed;font-size:.9rem}
.pager{display:flex;gap:1rem;margin:1rem 0}
.plain{list-style:none;padding:0;margin:0}.messages>li{border-bottom:1px solid #d0d4da;padding:.5rem 0 1rem}
pre.message{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f7f9;padding:.75rem;border-radius:6px;font-size:.95rem}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.35rem 1rem}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
fieldset{border:0;padding:0;margin:1rem 0}
legend{font-weight:600;margin-bottom:.3rem}
.choice{display:flex;align-items:center;gap:.5rem;padding:.3rem 0}
.sso{list-style:none;padding:0;margin:1rem 0;display:grid;gap:.75rem}.sso .button{display:block;text-align:center}
.choice input{width:1.25rem;height:1.25rem;margin:0;flex:none}
.choice label{font-weight:400}
.secret{font-family:ui-monospace,monospace;font-size:1.05rem;word-break:break-all;background:#fff8e1;border:2px solid #b06000;border-radius:6px;padding:.75rem}
@media (max-width:40rem){table.stack thead{position:absolute;left:-9999px}table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}table.stack tr{border-bottom:1px solid #d0d4da;padding:.5rem 0}table.stack td{border:0;padding:.15rem 0}table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}
@media (min-width:48rem){main{margin:1.5rem auto;border-radius:8px;padding:1.5rem 2rem;min-height:auto}}
`;

/** The hidden field that carries a staff form's CSRF token. */
export const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

export type StaffArea = 'home' | 'actions' | 'contacts' | 'users' | 'integrations' | 'audit' | 'settings';

export interface StaffUser {
  name: string;
  administrator: boolean;
}

/**
 * What every signed-in staff page is drawn with: who is signed in, the page's CSRF token, the user's
 * language and the organisation's time zone (every time on the page is shown in it, named).
 */
export interface StaffPageFrame {
  me: StaffUser;
  csrf: string;
  lang: Language;
  zone: string;
}

/** A moment on a staff page: in the organisation's zone, named; the exact instant for machines. */
export function when(f: Pick<StaffPageFrame, 'lang' | 'zone'>, at: Date | string | null | undefined): Html {
  if (!at) return html`${staffWords[f.lang].none}`;
  const d = at instanceof Date ? at : new Date(at);
  return html`<time datetime="${d.toISOString()}" title="${f.zone}">${staffDateTime(d, f.lang, f.zone)}</time>`;
}

/** A staff page's outcome line: a notice (announced politely) and an error (announced at once). */
export const pageNotices = (notice?: string, error?: string): Html =>
  html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}${
    error ? html`<div class="summary" role="alert"><p class="error">${error}</p></div>` : ''
  }`;

/** The problems of a refused form, all at once, announced. */
export const problemList = (
  f: Pick<StaffPageFrame, 'lang'>,
  problems: readonly string[] | undefined,
): Html =>
  problems?.length
    ? html`<div class="summary" role="alert"><h2>${staffWords[f.lang].problems}</h2><ul>${problems.map((p) => html`<li class="error">${p}</li>`)}</ul></div>`
    : html``;

/**
 * A secret shown this once (an API key, an OAuth client's or a webhook's secret): what it is, the
 * warning, the value, and a copy button (shown by the page's script; without script the value is
 * there to select).
 */
export function secretBox(
  f: Pick<StaffPageFrame, 'lang'>,
  id: string,
  title: Html | string,
  value: string,
): Html {
  const w = staffWords[f.lang];
  return html`<div class="notice" role="status"><p><strong>${title}</strong> — ${w.copyNow}</p><p class="secret" id="${id}">${value}</p><p class="row"><button type="button" data-copy="${id}" data-copied="${w.copied}" hidden>${w.copy}</button><span class="copied" aria-live="polite"></span></p></div>`;
}

export interface StaffFrame {
  title: string;
  body: Html;
  /** Signed in: the navigation, the user's name and the sign-out form (with the page's CSRF token). */
  user?: StaffUser & { csrf: string };
  /** The page's language (English when not given: pages before sign-in). */
  lang?: Language;
  area?: StaffArea;
  narrow?: boolean;
  /** Rules of this page only. */
  css?: string;
  script?: { nonce: string; code: Html };
}

/** A signed-in page's frame fields from the page frame: the user, their language. */
export const framed = (f: StaffPageFrame) => ({ user: { ...f.me, csrf: f.csrf }, lang: f.lang });

export function staffLayout(f: StaffFrame): string {
  const lang = f.lang ?? 'en';
  const w = staffWords[lang];
  const link = (area: StaffArea, href: string, label: string) =>
    html`<li><a href="${href}"${f.area === area ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const bar = f.user
    ? html`<header class="bar"><div class="in"><a class="brand" href="/staff">ActionDesk</a>
<nav aria-label="${w.mainNav}"><ul>${link('home', '/staff', w.nav.home)}${link('actions', '/staff/actions', w.nav.actions)}${link('contacts', '/staff/contacts', w.nav.contacts)}${
        f.user.administrator
          ? html`${link('users', '/staff/users', w.nav.users)}${link('integrations', '/staff/integrations', w.nav.integrations)}${link('audit', '/staff/audit', w.nav.audit)}`
          : ''
      }</ul></nav>
<div class="me"><a href="/staff/settings"${f.area === 'settings' ? html` aria-current="page"` : ''} title="${w.settings}">${f.user.name}</a><form method="post" action="/signout"><input type="hidden" name="_csrf" value="${f.user.csrf}"><button type="submit">${w.signOut}</button></form></div></div></header>`
    : html`<header class="bar"><div class="in"><span class="brand">ActionDesk</span></div></header>`;
  return htmlDocument({
    lang,
    title: `${f.title} · ActionDesk`,
    css: staffCss + (f.css ?? ''),
    body: html`<a class="skip" href="#main">${w.skip}</a>
${bar}
<main id="main"${f.narrow ? html` class="narrow"` : ''}>
${f.body}
</main>`,
    script: f.script,
  });
}

/**
 * The page for an error on a staff page. A page that knows its language says its own words in it
 * (`lang`); else the browser's language is taken (the error met outside the page's answer, before the
 * user's chosen language is known): in English the refusal's own words, in Dutch and French what the
 * status means. An expired form (a stale CSRF token) says so.
 */
export function staffErrorPage(
  status: number,
  message: string,
  about?: { languages?: readonly string[]; lang?: Language; expired?: boolean },
): string {
  const lang = about?.lang ?? staffLanguage(null, about?.languages ?? []);
  const w = staffWords[lang];
  const title = w.errors[status] ?? w.errors.other;
  const text = about?.expired
    ? w.errorTexts.expired
    : (about?.lang || lang === 'en') && status < 500
      ? message
      : (w.errorTexts[status] ?? w.errorTexts.other);
  return staffLayout({
    title,
    lang,
    narrow: true,
    body: html`<h1>${title}</h1><p>${text}</p><p><a href="/staff">${w.back}</a></p>`,
  });
}
