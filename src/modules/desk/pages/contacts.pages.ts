import { deskWords } from '../../../i18n/desk';
import { contactWords } from '../../../i18n/desk-contacts';
import { staffWords } from '../../../i18n/staff';
import { type Html, html } from '../../../platform/web/html';
import {
  csrfField,
  framed,
  type StaffPageFrame,
  staffLayout,
  when,
} from '../../../platform/web/staff-layout';
import type { Customer } from '../../customers';
import { contactEmail, contactKeys, contactLabel, contactPhone } from '../../customers';
import type { SessionRequest } from '../../sessionrequests';
import { actionSubject, pager } from './desk.pages';

const nameOf = (data: Record<string, string> | undefined) => (data ? contactLabel(data) : '—');

export function contactsPage(
  f: StaffPageFrame,
  v: { rows: Customer[]; total: number; page: number; limit: number; q?: string; byReference?: string },
): string {
  const w = contactWords[f.lang];
  const home = deskWords[f.lang].home;
  const params = new URLSearchParams();
  if (v.q) params.set('q', v.q);
  return staffLayout({
    title: w.title,
    area: 'contacts',
    ...framed(f),
    body: html`<div class="row"><h1>${w.title}</h1><a class="button primary" href="/staff/contacts/new">${home.newContact}</a></div>
<form method="get" action="/staff/contacts" class="filters" role="search">
<div class="field"><label for="q">${w.search}</label><input type="search" id="q" name="q" value="${v.q ?? ''}" aria-describedby="q-hint"><p class="hint" id="q-hint">${w.searchHint}</p></div>
<button type="submit">${w.searchButton}</button></form>
<p role="status">${v.byReference ? w.byReference(v.byReference) : w.count(v.total)}</p>
${
  v.rows.length
    ? html`<table class="stack"><caption class="skip">${w.caption}</caption><thead><tr><th scope="col">${w.name}</th><th scope="col">${w.email}</th><th scope="col">${w.phone}</th><th scope="col">${w.reference}</th><th scope="col">${w.added}</th></tr></thead><tbody>${v.rows.map(
        (c) =>
          html`<tr><td data-label="${w.name}"><a href="/staff/contacts/${c._id}">${nameOf(c.data)}</a></td><td data-label="${w.email}">${contactEmail(c.data) ?? ''}</td><td data-label="${w.phone}">${contactPhone(c.data) ?? ''}</td><td data-label="${w.reference}">${c.thirdpartyId ?? ''}</td><td data-label="${w.added}">${when(f, c.createdAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>${w.none}</p>`
}
${pager(f, '/staff/contacts', params, v.page, Math.ceil(v.total / v.limit))}`,
  });
}

export function contactPage(
  f: StaffPageFrame,
  v: { contact: Customer; actions: SessionRequest[]; notice?: string; canChange: boolean },
): string {
  const w = contactWords[f.lang];
  const a = deskWords[f.lang].actions;
  const s = staffWords[f.lang];
  const c = v.contact;
  const labels: Record<string, string> = {
    [contactKeys.firstName]: w.form.firstName,
    [contactKeys.lastName]: w.form.lastName,
    [contactKeys.email]: w.form.email,
    [contactKeys.phone]: w.form.phone,
  };
  return staffLayout({
    title: nameOf(c.data),
    area: 'contacts',
    ...framed(f),
    body: html`<p><a href="/staff/contacts">${w.back}</a></p>
<h1>${nameOf(c.data)}</h1>
${v.notice ? html`<p class="notice" role="status">${v.notice}</p>` : ''}
<div class="row">${v.canChange ? html`<a class="button primary" href="/sessionrequests/new?contact=${c._id}&step=options">${w.send}</a><a class="button" href="/staff/contacts/${c._id}/edit">${w.edit}</a>` : ''}${f.me.administrator ? html`<a class="button" href="/staff/audit?contact=${c._id}">${staffWords[f.lang].nav.audit}</a>` : ''}</div>
<h2>${w.data}</h2>
<dl class="facts">${c.thirdpartyId ? html`<dt>${w.reference}</dt><dd>${c.thirdpartyId}</dd>` : ''}${Object.entries(
      c.data,
    ).map(([k, val]) => html`<dt>${labels[k] ?? k}</dt><dd>${val}</dd>`)}</dl>
<h2>${w.actions}</h2>
${
  v.actions.length
    ? html`<table class="stack"><thead><tr><th scope="col">${a.kind}</th><th scope="col">${a.what}</th><th scope="col">${a.statusColumn}</th><th scope="col">${a.created}</th></tr></thead><tbody>${v.actions.map(
        (x) =>
          html`<tr><td data-label="${a.kind}"><a href="/staff/actions/${x._id}">${s.kinds[x.type]}</a></td><td data-label="${a.what}">${actionSubject(f, x)}</td><td data-label="${a.statusColumn}"><span class="status">${s.statuses[x.status]}</span></td><td data-label="${a.created}">${when(f, x.createdAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>${w.noActions}</p>`
}`,
  });
}

/** The contact form's fields as typed (kept on a refused post). */
export interface ContactFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  reference: string;
}

export interface ContactFormView {
  /** Absent: a new contact. */
  id?: string;
  name?: string;
  values: ContactFormValues;
  /** Problems, by field (`form` for the whole form), in the words of the form. */
  problems: Partial<Record<keyof ContactFormValues | 'form', string>>;
  /** Where the form came from: the send flow continues there with the new contact. */
  fromSend?: boolean;
}

/** The form that adds a contact or changes one; its problems all at once, each on its field. */
export function contactFormPage(f: StaffPageFrame, v: ContactFormView): string {
  const w = contactWords[f.lang].form;
  const title = v.id ? w.editTitle(v.name ?? '') : w.newTitle;
  const action = v.id
    ? `/staff/contacts/${v.id}/edit`
    : `/staff/contacts/new${v.fromSend ? '?from=send' : ''}`;
  const listed = Object.entries(v.problems) as [keyof ContactFormValues | 'form', string][];
  const field = (name: keyof ContactFormValues, label: string, type: string, hint?: string): Html => {
    const problem = v.problems[name];
    const described = [hint ? `${name}-hint` : '', problem ? `${name}-error` : ''].filter(Boolean).join(' ');
    return html`<div class="field"><label for="${name}">${label}</label>${hint ? html`<p class="hint" id="${name}-hint">${hint}</p>` : ''}${
      problem ? html`<p class="error" id="${name}-error">${problem}</p>` : ''
    }<input type="${type}" id="${name}" name="${name}" value="${v.values[name]}" autocomplete="off" maxlength="500"${
      described ? html` aria-describedby="${described}"` : ''
    }${problem ? html` aria-invalid="true"` : ''}></div>`;
  };
  return staffLayout({
    title,
    area: 'contacts',
    narrow: true,
    ...framed(f),
    body: html`<p><a href="${v.id ? `/staff/contacts/${v.id}` : '/staff/contacts'}">${contactWords[f.lang].back}</a></p>
<h1>${title}</h1>
${
  listed.length
    ? html`<div class="summary" role="alert" tabindex="-1" id="problems"><h2>${w.problems}</h2><ul>${listed.map(
        ([k, msg]) => html`<li><a href="#${k === 'form' ? 'firstName' : k}">${msg}</a></li>`,
      )}</ul></div>`
    : ''
}
<form method="post" action="${action}" novalidate>${csrfField(f.csrf)}
${field('firstName', w.firstName, 'text')}
${field('lastName', w.lastName, 'text')}
${field('email', w.email, 'email')}
${field('phone', w.phone, 'tel', w.phoneHint)}
${field('reference', w.reference, 'text', w.referenceHint)}
<div class="row"><button type="submit" class="primary">${v.id ? w.save : v.fromSend ? w.createAndSend : w.create}</button><a href="${v.id ? `/staff/contacts/${v.id}` : '/staff/contacts'}">${w.cancel}</a></div>
</form>`,
  });
}
