import { languageName, languages } from '../../../i18n/languages';
import { type Html, html } from '../../../platform/web/html';
import { type StaffPageFrame, staffLayout } from '../../../platform/web/staff-layout';
import { contactKeys } from '../../customers';

export interface OptionsValues {
  email: boolean;
  sms: boolean;
  reminder1Days?: number;
  reminder2Days?: number;
  language?: string;
  message?: string;
  expiresOn?: string;
  signatureLevel?: 'simple' | 'qualified';
}

export const defaults: OptionsValues = { email: true, sms: false, reminder1Days: 3, reminder2Days: 7 };

export function steps(names: string[], current: number): Html {
  return html`<ol class="steps" aria-label="Steps">${names.map(
    (n, i) =>
      html`<li${i === current ? html` aria-current="step"` : ''}>${i < current ? html`<span class="skip">Done: </span>` : ''}${n}</li>`,
  )}</ol>`;
}

const wizardCss = `
.steps{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;list-style:none;padding:0;margin:.5rem 0 1rem;counter-reset:s}
.steps li{counter-increment:s;color:#44474f}
.steps li::before{content:counter(s) ". "}
.steps li[aria-current=step]{font-weight:700;color:#1a1a1a}
.cols{display:grid;gap:1.5rem}
@media (min-width:60rem){.cols{grid-template-columns:1fr 1fr;align-items:start}}
.card{border:1px solid #d0d4da;border-radius:8px;padding:1rem}
.card h2{margin-top:0}
.preview{display:block;max-width:100%;height:auto;border:1px solid #d0d4da;background:#fff}
.inline{display:flex;flex-wrap:wrap;gap:1rem}
.inline .field{flex:1 1 10rem}
`;

export function frame(
  f: StaffPageFrame,
  title: string,
  body: Html,
  more: { css?: string; script?: { nonce: string; code: Html } } = {},
): string {
  return staffLayout({
    title,
    area: 'actions',
    user: { ...f.me, csrf: f.csrf },
    body,
    css: wizardCss + (more.css ?? ''),
    ...(more.script ? { script: more.script } : {}),
  });
}

export const errors = (problems: string[]): Html =>
  problems.length
    ? html`<div class="summary" role="alert" tabindex="-1" id="problems"><h2>Please check</h2><ul>${problems.map(
        (p) => html`<li class="error">${p}</li>`,
      )}</ul></div>`
    : html``;

/** The options every wizard asks: channels, reminders, language, message, expiry. */
export function optionsFields(
  v: OptionsValues,
  o: { phone: boolean; languages: string[]; signing: boolean; qualified: boolean },
): Html {
  const chosen = v.language ?? o.languages[0] ?? 'nl';
  return html`<fieldset><legend>Send the invitation by</legend>
<div class="choice"><input type="checkbox" id="by-email" name="email" value="yes"${v.email ? html` checked` : ''}><label for="by-email">E-mail</label></div>
<div class="choice"><input type="checkbox" id="by-sms" name="sms" value="yes"${v.sms ? html` checked` : ''}${o.phone ? '' : html` aria-describedby="sms-hint"`}><label for="by-sms">SMS</label></div>
${o.phone ? '' : html`<p class="hint" id="sms-hint">SMS needs a mobile number on the contact.</p>`}
</fieldset>
<div class="inline">
<div class="field"><label for="r1">First reminder after (days)</label><input type="number" id="r1" name="reminder1Days" min="1" max="365" inputmode="numeric" value="${v.reminder1Days ?? ''}"></div>
<div class="field"><label for="r2">Second reminder after (days)</label><input type="number" id="r2" name="reminder2Days" min="1" max="365" inputmode="numeric" value="${v.reminder2Days ?? ''}"></div>
<div class="field"><label for="expires">Link works until (optional)</label><input type="date" id="expires" name="expiresOn" value="${v.expiresOn ?? ''}"></div>
</div>
<div class="field"><label for="language">Language</label><select id="language" name="language">${o.languages.map(
    (l) => html`<option value="${l}"${l === chosen ? html` selected` : ''}>${languageName(l)}</option>`,
  )}</select></div>
<div class="field"><label for="message">Personal message in the invitation (optional)</label><textarea id="message" name="message" maxlength="2000">${v.message ?? ''}</textarea></div>
${
  o.signing
    ? html`<fieldset><legend>Signature</legend>
<div class="choice"><input type="radio" id="level-simple" name="signatureLevel" value="simple"${v.signatureLevel !== 'qualified' ? html` checked` : ''}><label for="level-simple">Simple: a one-time code, then a drawn or typed signature; the PDF is sealed</label></div>
${o.qualified ? html`<div class="choice"><input type="radio" id="level-qualified" name="signatureLevel" value="qualified"${v.signatureLevel === 'qualified' ? html` checked` : ''}><label for="level-qualified">Qualified, through the configured trust service</label></div>` : ''}
</fieldset>`
    : ''
}`;
}

export interface QuickSignView {
  action: string;
  contact: {
    name: string;
    email: string;
    phone?: string;
    guid?: string;
    matched: 'thirdpartyId' | 'email' | null;
    changes: DataChange[];
  };
  document: {
    title: string;
    type: string;
    fileName: string;
    size: number;
    preview: string | null;
    pages: number;
  };
  values?: OptionsValues;
  problems?: string[];
  qualified: boolean;
}

export function quickSignWizard(f: StaffPageFrame, v: QuickSignView): string {
  const c = v.contact;
  const d = v.document;
  const match =
    c.matched === 'thirdpartyId'
      ? 'An existing contact (found by your reference).'
      : c.matched === 'email'
        ? 'An existing contact (found by e-mail).'
        : 'A new contact: made when you send.';
  return frame(
    f,
    'Send a document to sign',
    html`<h1>Send a document to sign</h1>
${steps(['Contact and document', 'Signing options', 'Sent'], 1)}
${errors(v.problems ?? [])}
<div class="cols">
<section class="card" aria-labelledby="who"><h2 id="who">Signer</h2>
<dl class="facts"><dt>Name</dt><dd>${c.name}</dd><dt>E-mail</dt><dd>${c.email}</dd>${c.phone ? html`<dt>Mobile</dt><dd>${c.phone}</dd>` : ''}${c.guid ? html`<dt>Your reference</dt><dd>${c.guid}</dd>` : ''}</dl>
<p class="hint">${match}</p>${changeNote(c.changes, 'changes')}</section>
<section class="card" aria-labelledby="doc"><h2 id="doc">Document</h2>
<dl class="facts"><dt>Title</dt><dd>${d.title}</dd><dt>Kind</dt><dd>${d.type}</dd><dt>File</dt><dd>${d.fileName} (${Math.ceil(d.size / 1024)} KB, ${d.pages} ${d.pages === 1 ? 'page' : 'pages'})</dd></dl>
${d.preview ? html`<img class="preview" src="${d.preview}" alt="First page of ${d.title}" width="550">` : html`<p class="hint">No preview can be drawn on this server.</p>`}
</section>
</div>
<h2>Signing options</h2>
<form method="post" action="${v.action}" novalidate>
<input type="hidden" name="_csrf" value="${f.csrf}">
${optionsFields(v.values ?? defaults, { phone: Boolean(c.phone), languages: [...languages], signing: true, qualified: v.qualified })}
<div class="row"><button type="submit" class="primary">Send for signing</button></div>
</form>`,
  );
}

/** A stored field of a found contact that sending will replace with the CRM's value. */
export interface DataChange {
  field: string;
  from: string | null;
  to: string;
}

const fieldNames: Record<string, string> = {
  [contactKeys.email]: 'E-mail',
  [contactKeys.firstName]: 'First name',
  [contactKeys.lastName]: 'Last name',
  [contactKeys.phone]: 'Mobile',
};

function changeNote(changes: DataChange[], id: string): Html {
  if (changes.length === 0) return html``;
  return html`<div class="hint" id="${id}"><p>Sending updates the stored contact from your CRM:</p><ul>${changes.map(
    (c) => html`<li>${fieldNames[c.field] ?? c.field}: ${c.from ?? '(none)'} → ${c.to}</li>`,
  )}</ul></div>`;
}

export interface PersonView {
  name: string;
  changes?: DataChange[];
  email?: string;
  thirdpartyId?: string;
  matched: 'thirdpartyId' | 'email' | null;
  /** Cannot be used: no contact found and no e-mail to make one. */
  problem?: string;
}

export interface ActionWizardView {
  action: string;
  /** The contacts (setup: people by index; new: contact ids) with their checkbox values. */
  people: (PersonView & { value: string; checked: boolean })[];
  /** The field the people are posted in. */
  peopleField: 'include' | 'contact';
  templates: { id: string; name: string; languages: string[] }[];
  values?: OptionsValues & {
    type?: 'qlist' | 'multisigning';
    together?: boolean;
    questionListIds?: string[];
    signingOrder?: string;
  };
  problems?: string[];
  qualified: boolean;
  /** The steps (the contact step is done when the contacts came with the link). */
  fromSetup: boolean;
}

export function actionWizard(f: StaffPageFrame, v: ActionWizardView): string {
  const values = { ...defaults, type: 'qlist' as const, together: false, ...(v.values ?? {}) };
  const picked = new Set(values.questionListIds ?? []);
  return frame(
    f,
    'Send an action',
    html`<h1>Send an action</h1>
${steps(['Contacts', 'Templates and notifications', 'Sent'], 1)}
${errors(v.problems ?? [])}
<form method="post" action="${v.action}" novalidate>
<input type="hidden" name="_csrf" value="${f.csrf}">
<fieldset><legend>Contacts${v.fromSetup ? ' (from your CRM)' : ''}</legend>
${v.people.map(
  (p, i) =>
    html`<div class="choice"><input type="checkbox" id="p-${i}" name="${v.peopleField}" value="${p.value}"${p.checked && !p.problem ? html` checked` : ''}${p.problem ? html` disabled aria-describedby="p-${i}-problem"` : ''}><label for="p-${i}">${p.name}${p.email ? html` — ${p.email}` : ''}${p.thirdpartyId ? html` <span class="tag">(ref. ${p.thirdpartyId})</span>` : ''} <span class="tag">${p.matched ? 'existing contact' : 'new contact'}</span></label></div>${p.problem ? html`<p class="error" id="p-${i}-problem">${p.problem}</p>` : ''}${changeNote(p.changes ?? [], `p-${i}-changes`)}`,
)}
</fieldset>
<fieldset><legend>Questionnaire templates</legend>
${v.templates.length ? v.templates.map((t, i) => html`<div class="choice"><input type="checkbox" id="t-${i}" name="questionListIds" value="${t.id}"${picked.has(t.id) ? html` checked` : ''}><label for="t-${i}">${t.name} <span class="tag">(${t.languages.join(', ')})</span></label></div>`) : html`<p class="error">The organisation has no active template yet: add one first.</p>`}
</fieldset>
<fieldset><legend>Kind of action</legend>
<div class="choice"><input type="radio" id="type-qlist" name="type" value="qlist"${values.type === 'qlist' ? html` checked` : ''}><label for="type-qlist">Questionnaire</label></div>
<div class="choice"><input type="radio" id="type-multi" name="type" value="multisigning"${values.type === 'multisigning' ? html` checked` : ''}><label for="type-multi">Questionnaire, then signing its report</label></div>
<div class="choice"><input type="checkbox" id="together" name="together" value="yes"${values.together ? html` checked` : ''}><label for="together">With several contacts: one document they all sign (otherwise one action each)</label></div>
<div class="choice"><input type="checkbox" id="sequential" name="signingOrder" value="sequential"${values.signingOrder === 'sequential' ? html` checked` : ''}><label for="sequential">Sign one after the other, in the order listed</label></div>
</fieldset>
${optionsFields(values, { phone: true, languages: [...languages], signing: true, qualified: v.qualified })}
<div class="row"><button type="submit" class="primary">Send</button></div>
</form>`,
  );
}

export interface ContactPick {
  id: string;
  name: string;
  email: string;
  checked?: boolean;
}

/** `/sessionrequests/new`: the contact step — search, tick, next. */
export function contactStep(
  f: StaffPageFrame,
  v: { q: string; found: ContactPick[]; total: number },
): string {
  return frame(
    f,
    'Send an action: contacts',
    html`<h1>Send an action</h1>
${steps(['Contacts', 'Templates and notifications', 'Sent'], 0)}
<form method="get" action="/sessionrequests/new" role="search">
<div class="field"><label for="q">Find contacts by name, e-mail or reference</label><input type="search" id="q" name="q" value="${v.q}"></div>
<div class="row"><button type="submit">Search</button><a href="/staff/contacts/new?from=send">Not there? Add a new contact</a></div></form>
<form method="get" action="/sessionrequests/new">
<fieldset><legend>${v.q ? `Contacts matching “${v.q}” (${v.total})` : `Contacts (${v.total})`}</legend>
${v.found.length ? v.found.map((c, i) => html`<div class="choice"><input type="checkbox" id="c-${i}" name="contact" value="${c.id}"${c.checked ? html` checked` : ''}><label for="c-${i}">${c.name} — ${c.email}</label></div>`) : html`<p>No contact found.</p>`}
</fieldset>
<div class="row"><button type="submit" class="primary" name="step" value="options">Next: templates and notifications</button>
<button type="submit" name="step" value="document">Next: a document to sign</button></div></form>`,
  );
}

export function setupProblemPage(title: string, text: string, signedIn?: StaffPageFrame): string {
  const body = html`<h1>${title}</h1><p>${text}</p><p>Go back to your CRM and open the link again: it makes a new one. Or <a href="/sessionrequests/new">start a new action here</a>.</p>`;
  return signedIn ? frame(signedIn, title, body) : staffLayout({ title, body, narrow: true });
}

export function sentPage(f: StaffPageFrame, actions: { id: string; label: string; url: string }[]): string {
  return frame(
    f,
    'Sent',
    html`<h1>Sent</h1>
${steps(['Contacts', 'Options', 'Sent'], 2)}
<p class="notice" role="status">${actions.length === 1 ? 'The action was made.' : `${actions.length} actions were made.`}</p>
<ul>${actions.map((a) => html`<li><a href="/staff/actions/${a.id}">${a.label}</a> <span class="tag">${a.url}</span></li>`)}</ul>
<p><a href="/sessionrequests/new">Send another</a></p>`,
  );
}
