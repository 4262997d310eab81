import { sendWords } from '../../../i18n/desk-send';
import { type SendProblem, sendProblemWords } from '../../../i18n/desk-send-problems';
import { type Language, languageName, languages } from '../../../i18n/languages';
import { staffWords } from '../../../i18n/staff';
import { type Html, html } from '../../../platform/web/html';
import {
  csrfField,
  framed,
  problemList,
  type StaffPageFrame,
  staffLayout,
  when,
} from '../../../platform/web/staff-layout';
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

/** The steps of a send, the current one marked (those before it said done to a screen reader). */
export function steps(
  f: Pick<StaffPageFrame, 'lang'>,
  names: (keyof (typeof sendWords)['en']['steps'])[],
  current: number,
): Html {
  const w = sendWords[f.lang];
  return html`<ol class="steps" aria-label="${w.stepsLabel}">${names.map(
    (n, i) =>
      html`<li${i === current ? html` aria-current="step"` : ''}>${i < current ? html`<span class="skip">${w.done}</span>` : ''}${w.steps[n]}</li>`,
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
    ...framed(f),
    title,
    area: 'actions',
    body,
    css: wizardCss + (more.css ?? ''),
    ...(more.script ? { script: more.script } : {}),
  });
}

/** A refused send's problems in the page's words; a signer is named from the people on the page. */
export function sayProblem(
  lang: Language,
  p: SendProblem,
  nameOf: (contactId: string) => string | undefined = () => undefined,
): string {
  const w = sendProblemWords[lang];
  if (typeof p === 'string') return w.problems[p];
  if ('says' in p) {
    if (p.says === 'unmatched') return w.signerProblems.unmatched(p.signer ?? '');
    return w.signerProblems[p.says](nameOf(p.signer ?? '') ?? w.aSigner);
  }
  if ('tooLarge' in p) return w.tooLarge(megabytes(p.tooLarge));
  return p.field ? w.said(w.fields[p.field], p.text) : p.text;
}

/** The problems of a refused send, all at once, announced. */
export const errors = (
  f: Pick<StaffPageFrame, 'lang'>,
  problems: readonly SendProblem[] | undefined,
  nameOf?: (contactId: string) => string | undefined,
): Html =>
  problemList(
    f,
    problems?.map((p) => sayProblem(f.lang, p, nameOf)),
  );

/** A size as people read it: KB under a megabyte, else MB with one decimal. */
export const megabytes = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The options every send asks: channels, reminders, language, message, expiry (and the signature). */
export function optionsFields(
  f: Pick<StaffPageFrame, 'lang'>,
  v: OptionsValues,
  o: { phone: boolean; languages: string[]; signing: boolean; qualified: boolean },
): Html {
  const w = sendWords[f.lang];
  const chosen = v.language ?? o.languages[0] ?? 'nl';
  return html`<fieldset><legend>${w.sendBy}</legend>
<div class="choice"><input type="checkbox" id="by-email" name="email" value="yes"${v.email ? html` checked` : ''}><label for="by-email">${w.email}</label></div>
<div class="choice"><input type="checkbox" id="by-sms" name="sms" value="yes"${v.sms ? html` checked` : ''}${o.phone ? '' : html` aria-describedby="sms-hint"`}><label for="by-sms">${w.sms}</label></div>
${o.phone ? '' : html`<p class="hint" id="sms-hint">${w.smsHint}</p>`}
</fieldset>
<div class="inline">
<div class="field"><label for="r1">${w.reminder1}</label><input type="number" id="r1" name="reminder1Days" min="1" max="365" inputmode="numeric" value="${v.reminder1Days ?? ''}"></div>
<div class="field"><label for="r2">${w.reminder2}</label><input type="number" id="r2" name="reminder2Days" min="1" max="365" inputmode="numeric" value="${v.reminder2Days ?? ''}"></div>
<div class="field"><label for="expires">${w.expires}</label><input type="date" id="expires" name="expiresOn" value="${v.expiresOn ?? ''}"></div>
</div>
<div class="field"><label for="language">${w.language}</label><select id="language" name="language">${o.languages.map(
    (l) => html`<option value="${l}"${l === chosen ? html` selected` : ''}>${languageName(l)}</option>`,
  )}</select></div>
<div class="field"><label for="message">${w.message}</label><textarea id="message" name="message" maxlength="2000">${v.message ?? ''}</textarea></div>
${
  o.signing
    ? html`<fieldset><legend>${w.signature}</legend>
<div class="choice"><input type="radio" id="level-simple" name="signatureLevel" value="simple"${v.signatureLevel !== 'qualified' ? html` checked` : ''}><label for="level-simple">${w.simple}</label></div>
${o.qualified ? html`<div class="choice"><input type="radio" id="level-qualified" name="signatureLevel" value="qualified"${v.signatureLevel === 'qualified' ? html` checked` : ''}><label for="level-qualified">${w.qualified}</label></div>` : ''}
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
  problems?: SendProblem[];
  qualified: boolean;
}

export function quickSignWizard(f: StaffPageFrame, v: QuickSignView): string {
  const w = sendWords[f.lang];
  const c = v.contact;
  const d = v.document;
  return frame(
    f,
    w.quickTitle,
    html`<h1>${w.quickTitle}</h1>
${steps(f, ['contactAndDocument', 'signingOptions', 'sent'], 1)}
${errors(f, v.problems, () => c.name)}
<div class="cols">
<section class="card" aria-labelledby="who"><h2 id="who">${w.signer}</h2>
<dl class="facts"><dt>${w.name}</dt><dd>${c.name}</dd><dt>${w.emailAddress}</dt><dd>${c.email}</dd>${c.phone ? html`<dt>${w.mobile}</dt><dd>${c.phone}</dd>` : ''}${c.guid ? html`<dt>${w.yourRef}</dt><dd>${c.guid}</dd>` : ''}</dl>
<p class="hint">${w.matched[c.matched ?? 'new']}</p>${changeNote(f, c.changes, 'changes')}</section>
<section class="card" aria-labelledby="doc"><h2 id="doc">${w.document}</h2>
<dl class="facts"><dt>${w.docTitle}</dt><dd>${d.title}</dd><dt>${w.docKind}</dt><dd>${d.type}</dd><dt>${w.file}</dt><dd>${d.fileName} (${w.size(megabytes(d.size), d.pages)})</dd></dl>
${d.preview ? html`<img class="preview" src="${d.preview}" alt="${w.firstPage(d.title)}" width="550">` : html`<p class="hint">${w.noPreview}</p>`}
</section>
</div>
<h2>${w.signingOptions}</h2>
<form method="post" action="${v.action}" novalidate>
${csrfField(f.csrf)}
${optionsFields(f, v.values ?? defaults, { phone: Boolean(c.phone), languages: [...languages], signing: true, qualified: v.qualified })}
<div class="row"><button type="submit" class="primary">${w.sendForSigning}</button></div>
</form>`,
  );
}

/** A stored field of a found contact that sending will replace with the CRM's value. */
export interface DataChange {
  field: string;
  from: string | null;
  to: string;
}

const fieldNames: Record<string, 'email' | 'firstName' | 'lastName' | 'phone'> = {
  [contactKeys.email]: 'email',
  [contactKeys.firstName]: 'firstName',
  [contactKeys.lastName]: 'lastName',
  [contactKeys.phone]: 'phone',
};

function changeNote(f: Pick<StaffPageFrame, 'lang'>, changes: DataChange[], id: string): Html {
  if (changes.length === 0) return html``;
  const w = sendWords[f.lang];
  const named = (field: string) => {
    const key = fieldNames[field];
    return key ? w.fieldNames[key] : field;
  };
  return html`<div class="hint" id="${id}"><p>${w.changesLead}</p><ul>${changes.map(
    (c) => html`<li>${named(c.field)}: ${c.from ?? w.nothing} → ${c.to}</li>`,
  )}</ul></div>`;
}

export interface PersonView {
  name: string | null;
  changes?: DataChange[];
  email?: string;
  thirdpartyId?: string;
  matched: 'thirdpartyId' | 'email' | null;
  /** Cannot be used: no contact has the reference and there is no e-mail to make one. */
  unmatched?: boolean;
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
  problems?: SendProblem[];
  qualified: boolean;
  /** The steps (the contact step is done when the contacts came with the link). */
  fromSetup: boolean;
}

function personChoice(
  f: StaffPageFrame,
  v: ActionWizardView,
  p: ActionWizardView['people'][number],
  i: number,
) {
  const w = sendWords[f.lang];
  const problem = p.unmatched ? sayProblem(f.lang, { signer: p.thirdpartyId ?? '', says: 'unmatched' }) : '';
  return html`<div class="choice"><input type="checkbox" id="p-${i}" name="${v.peopleField}" value="${p.value}"${p.checked && !problem ? html` checked` : ''}${problem ? html` disabled aria-describedby="p-${i}-problem"` : ''}><label for="p-${i}">${p.name ?? w.noName}${p.email ? html` — ${p.email}` : ''}${p.thirdpartyId ? html` <span class="tag">${w.reference(p.thirdpartyId)}</span>` : ''} <span class="tag">${p.matched ? w.existing : w.newContact}</span></label></div>${problem ? html`<p class="error" id="p-${i}-problem">${problem}</p>` : ''}${changeNote(f, p.changes ?? [], `p-${i}-changes`)}`;
}

export function actionWizard(f: StaffPageFrame, v: ActionWizardView): string {
  const w = sendWords[f.lang];
  const values = { ...defaults, type: 'qlist' as const, together: false, ...(v.values ?? {}) };
  const picked = new Set(values.questionListIds ?? []);
  const nameOf = (id: string) => v.people.find((p) => p.value === id)?.name ?? undefined;
  return frame(
    f,
    w.actionTitle,
    html`<h1>${w.actionTitle}</h1>
${steps(f, ['contacts', 'options', 'sent'], 1)}
${errors(f, v.problems, nameOf)}
<form method="post" action="${v.action}" novalidate>
${csrfField(f.csrf)}
<fieldset><legend>${w.contacts}${v.fromSetup ? w.fromCrm : ''}</legend>
${v.people.map((p, i) => personChoice(f, v, p, i))}
</fieldset>
<fieldset><legend>${w.templates}</legend>
${v.templates.length ? v.templates.map((t, i) => html`<div class="choice"><input type="checkbox" id="t-${i}" name="questionListIds" value="${t.id}"${picked.has(t.id) ? html` checked` : ''}><label for="t-${i}">${t.name} <span class="tag">(${t.languages.map(languageName).join(', ')})</span></label></div>`) : html`<p class="error">${w.noTemplates}</p>`}
</fieldset>
<fieldset><legend>${w.kind}</legend>
<div class="choice"><input type="radio" id="type-qlist" name="type" value="qlist"${values.type === 'qlist' ? html` checked` : ''}><label for="type-qlist">${w.qlist}</label></div>
<div class="choice"><input type="radio" id="type-multi" name="type" value="multisigning"${values.type === 'multisigning' ? html` checked` : ''}><label for="type-multi">${w.multisigning}</label></div>
<div class="choice"><input type="checkbox" id="together" name="together" value="yes"${values.together ? html` checked` : ''}><label for="together">${w.together}</label></div>
<div class="choice"><input type="checkbox" id="sequential" name="signingOrder" value="sequential"${values.signingOrder === 'sequential' ? html` checked` : ''}><label for="sequential">${w.oneAfterAnother}</label></div>
</fieldset>
${optionsFields(f, values, { phone: true, languages: [...languages], signing: true, qualified: v.qualified })}
<div class="row"><button type="submit" class="primary">${w.send}</button></div>
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
  const w = sendWords[f.lang];
  return frame(
    f,
    `${w.actionTitle}: ${w.steps.contacts}`,
    html`<h1>${w.actionTitle}</h1>
${steps(f, ['contacts', 'options', 'sent'], 0)}
<form method="get" action="/sessionrequests/new" role="search">
<div class="field"><label for="q">${w.find}</label><input type="search" id="q" name="q" value="${v.q}"></div>
<div class="row"><button type="submit">${w.search}</button><a href="/staff/contacts/new?from=send">${w.addNew}</a></div></form>
<form method="get" action="/sessionrequests/new">
<fieldset><legend>${v.q ? w.matching(v.q, v.total) : w.all(v.total)}</legend>
${v.found.length ? v.found.map((c, i) => html`<div class="choice"><input type="checkbox" id="c-${i}" name="contact" value="${c.id}"${c.checked ? html` checked` : ''}><label for="c-${i}">${c.name} — ${c.email}</label></div>`) : html`<p>${w.noneFound}</p>`}
</fieldset>
<div class="row"><button type="submit" class="primary" name="step" value="options">${w.nextOptions}</button>
<button type="submit" name="step" value="document">${w.nextDocument}</button></div></form>`,
  );
}

/** Why a setup cannot be opened: unknown here, or used or expired (when). */
export type SetupProblem = { unknown: true } | { used: Date } | { expired: Date };

export function setupProblemPage(f: StaffPageFrame, problem: SetupProblem): string {
  const w = sendWords[f.lang];
  const title = 'unknown' in problem ? w.unknownTitle : w.goneTitle;
  const text =
    'unknown' in problem
      ? html`${w.unknownText}`
      : 'used' in problem
        ? html`${w.usedOn} ${when(f, problem.used)}.`
        : html`${w.expiredOn} ${when(f, problem.expired)}.`;
  return frame(
    f,
    title,
    html`<h1>${title}</h1><p>${text}</p><p>${w.goBack} <a href="/sessionrequests/new">${w.startHere}</a>.</p>`,
  );
}

export function sentPage(f: StaffPageFrame, actions: { id: string; type: string; url: string }[]): string {
  const w = sendWords[f.lang];
  const kinds: Record<string, string> = staffWords[f.lang].kinds;
  return frame(
    f,
    w.sentTitle,
    html`<h1>${w.sentTitle}</h1>
${steps(f, ['contacts', 'options', 'sent'], 2)}
<p class="notice" role="status">${actions.length === 1 ? w.oneMade : w.manyMade(actions.length)}</p>
<ul>${actions.map((a) => html`<li><a href="/staff/actions/${a.id}">${kinds[a.type] ?? a.type}</a> <span class="tag">${a.url}</span></li>`)}</ul>
<p><a href="/sessionrequests/new">${w.another}</a></p>`,
  );
}
