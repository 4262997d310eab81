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
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem}
dl.facts dt{font-weight:600}dl.facts dd{margin:0}
fieldset{border:0;padding:0;margin:1rem 0}
legend{font-weight:600;margin-bottom:.3rem}
.choice{display:flex;align-items:center;gap:.5rem;padding:.3rem 0}
.sso{list-style:none;padding:0;margin:1rem 0;display:grid;gap:.75rem}.sso .button{display:block;text-align:center}
.choice input{width:1.25rem;height:1.25rem;margin:0;flex:none}
.choice label{font-weight:400}
.secret{font-family:ui-monospace,monospace;font-size:1.05rem;word-break:break-all;background:#fff8e1;border:2px solid #b06000;border-radius:6px;padding:.75rem}
@media (min-width:48rem){main{margin:1.5rem auto;border-radius:8px;padding:1.5rem 2rem;min-height:auto}}
`;

/** The hidden field that carries a staff form's CSRF token. */
export const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

export type StaffArea = 'actions' | 'contacts' | 'users' | 'integrations' | 'audit';

export interface StaffUser {
  name: string;
  administrator: boolean;
}

/** What every signed-in staff page is drawn with: who is signed in, and the page's CSRF token. */
export interface StaffPageFrame {
  me: StaffUser;
  csrf: string;
}

/** A staff page's outcome line: a notice (announced politely) and an error (announced at once). */
export const pageNotices = (notice?: string, error?: string): Html =>
  html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}${
    error ? html`<div class="summary" role="alert"><p class="error">${error}</p></div>` : ''
  }`;

export interface StaffFrame {
  title: string;
  body: Html;
  /** Signed in: the navigation, the user's name and the sign-out form (with the page's CSRF token). */
  user?: StaffUser & { csrf: string };
  area?: StaffArea;
  narrow?: boolean;
  /** Rules of this page only. */
  css?: string;
  script?: { nonce: string; code: Html };
}

export function staffLayout(f: StaffFrame): string {
  const link = (area: StaffArea, href: string, label: string) =>
    html`<li><a href="${href}"${f.area === area ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const bar = f.user
    ? html`<header class="bar"><div class="in"><a class="brand" href="/staff">ActionDesk</a>
<nav aria-label="Main"><ul>${link('actions', '/staff/actions', 'Actions')}${link('contacts', '/staff/contacts', 'Contacts')}${
        f.user.administrator
          ? html`${link('users', '/staff/users', 'Users')}${link('integrations', '/staff/integrations', 'Integrations')}${link('audit', '/staff/audit', 'Audit trail')}`
          : ''
      }</ul></nav>
<div class="me"><span>${f.user.name}</span><form method="post" action="/signout"><input type="hidden" name="_csrf" value="${f.user.csrf}"><button type="submit">Sign out</button></form></div></div></header>`
    : html`<header class="bar"><div class="in"><span class="brand">ActionDesk</span></div></header>`;
  return htmlDocument({
    lang: 'en',
    title: `${f.title} · ActionDesk`,
    css: staffCss + (f.css ?? ''),
    body: html`<a class="skip" href="#main">Skip to content</a>
${bar}
<main id="main"${f.narrow ? html` class="narrow"` : ''}>
${f.body}
</main>`,
    script: f.script,
  });
}

const errorTitles: Record<number, string> = {
  400: 'Something in the form is not right',
  403: 'Not allowed',
  404: 'Not found',
  410: 'No longer available',
  413: 'Too large',
  429: 'Too many attempts',
};

/** The page for an error on a staff page. */
export function staffErrorPage(status: number, message: string): string {
  const title = errorTitles[status] ?? 'Something went wrong';
  return staffLayout({
    title,
    narrow: true,
    body: html`<h1>${title}</h1><p>${message}</p><p><a href="/staff">Back to ActionDesk</a></p>`,
  });
}
