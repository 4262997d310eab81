// The desk's contact form: what its fields mean for the contact's record, and its problems in the words
// of the form (never the API's field names).
import { contactWords } from '../../i18n/desk-contacts';
import type { Language } from '../../i18n/languages';
import { AppError } from '../../platform/kernel/errors';
import { z } from '../../platform/kernel/zod';
import { type Customer, contactEmail, contactKeys, contactPhone } from '../customers';
import type { ContactFormValues, ContactFormView } from './pages/contacts.pages';

const field = z.string().max(500).optional();

/** The form as posted. */
export const ContactForm = z.object({
  _csrf: z.string().max(300),
  firstName: field,
  lastName: field,
  email: field,
  phone: field,
  reference: field,
});

/** The form's values, trimmed. */
export function valuesOf(form: z.output<typeof ContactForm>): ContactFormValues {
  return {
    firstName: form.firstName?.trim() ?? '',
    lastName: form.lastName?.trim() ?? '',
    email: form.email?.trim() ?? '',
    phone: form.phone?.trim() ?? '',
    reference: form.reference?.trim() ?? '',
  };
}

/** A contact's record as the form shows it. */
export function valuesOfContact(c: Customer): ContactFormValues {
  return {
    firstName: c.data[contactKeys.firstName] ?? '',
    lastName: c.data[contactKeys.lastName] ?? '',
    email: contactEmail(c.data) ?? '',
    phone: contactPhone(c.data) ?? '',
    reference: c.thirdpartyId ?? '',
  };
}

/** The problems of the values, all at once, by field. */
export function problemsOf(v: ContactFormValues, lang: Language): ContactFormView['problems'] {
  const w = contactWords[lang].form;
  const problems: ContactFormView['problems'] = {};
  if (!v.firstName && !v.lastName && !v.email) problems.form = w.nameOrEmail;
  if (v.email && !z.email().safeParse(v.email).success) problems.email = w.badEmail;
  return problems;
}

/** The record's fields the form sets; on a change, an emptied field is removed (null). */
export function dataOf(v: ContactFormValues): Record<string, string | null> {
  return {
    [contactKeys.firstName]: v.firstName || null,
    [contactKeys.lastName]: v.lastName || null,
    [contactKeys.email]: v.email || null,
    [contactKeys.phone]: v.phone || null,
  };
}

/** A refusal of the service named on the form's field (a CRM reference that is taken); else rethrown. */
export function problemOfRefusal(
  err: unknown,
  v: ContactFormValues,
  lang: Language,
): ContactFormView['problems'] {
  if (err instanceof AppError && err.status === 409 && err.details?.some((d) => d.field === 'thirdpartyId'))
    return { reference: contactWords[lang].form.referenceTaken(v.reference) };
  throw err;
}
