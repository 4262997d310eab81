// The contact's data record is free-form, but a few keys mean something to the service. They are Dutch, as
// the CRMs that feed us write them; every module reads a contact's name, e-mail address and phone number
// through the functions here, so the keys are spelled in this file only (and in the API's schema).

/** The known keys of a contact's data record, by what they hold. */
export const contactKeys = {
  firstName: 'Voornaam',
  lastName: 'Achternaam',
  email: 'Email',
  phone: 'Telefoon',
  street: 'Straat',
  houseNumber: 'Huisnummer',
  postalCode: 'Postcode',
  municipality: 'Gemeente',
} as const;

/** A contact's data record, as stored (any may be missing). */
export type ContactData = Record<string, string> | null | undefined;

const trimmed = (data: ContactData, key: string): string | null => data?.[key]?.trim() || null;

/** The contact's e-mail address, or null when there is none. */
export const contactEmail = (data: ContactData) => trimmed(data, contactKeys.email);

/** The contact's phone number as written (read as a number only to send an SMS), or null. */
export const contactPhone = (data: ContactData) => trimmed(data, contactKeys.phone);

/** The contact's first name, or null. */
export const contactFirstName = (data: ContactData) => trimmed(data, contactKeys.firstName);

/** The contact's name as pages and documents show it: first and last name, else the e-mail address, else ''. */
export function contactName(data: ContactData): string {
  if (!data) return '';
  const name = [data[contactKeys.firstName], data[contactKeys.lastName]].filter((s) => s?.trim()).join(' ');
  return name || data[contactKeys.email] || '';
}

/** The contact as staff pages list it: its name, else '(no name)'. */
export const contactLabel = (data: ContactData) => contactName(data) || '(no name)';

/** What a contact search matches: first name, last name and e-mail address. */
export const searchableText = (data: Record<string, string>) =>
  [
    data[contactKeys.firstName],
    data[contactKeys.lastName],
    data[contactKeys.email],
    phoneForms(data[contactKeys.phone]),
  ]
    .filter(Boolean)
    .join(' ');

/** Country codes whose national numbers are written with a leading 0 (Belgium and its neighbours). */
const TRUNK_ZERO = ['32', '31', '33', '49', '44'];

/**
 * A phone number as search finds it, whatever way it is written: its digits (`32475123456`), and for an
 * international number of a country that writes a leading 0 also the national form (`0475123456`).
 * Migration 0051 computes the same for the contacts stored before.
 */
export function phoneForms(phone: string | undefined): string {
  const written = phone?.trim() ?? '';
  let digits = written.replace(/\D/g, '');
  if (!digits) return '';
  if (written.startsWith('00')) digits = digits.slice(2);
  const international = written.startsWith('+') || written.startsWith('00');
  const cc = international ? TRUNK_ZERO.find((c) => digits.startsWith(c)) : undefined;
  return cc ? `${digits} 0${digits.slice(cc.length)}` : digits;
}

/**
 * What a search typed as a phone number (`0475 12 34 56`, `+32 475/12.34.56`) looks for: its digits as one
 * word, so that they match however the number was written; other searches are left as typed.
 */
export function searchOfPhone(search: string): string {
  const t = search.trim();
  if (!/^[\d\s+()./-]+$/.test(t)) return search;
  const digits = t.replace(/\D/g, '');
  if (digits.length < 4) return search;
  return t.startsWith('00') ? digits.slice(2) : digits;
}

/** A person's details (from a setup, a campaign form) as contact data: only the fields given. */
export function contactDataOf(person: {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
}): Record<string, string> {
  const data: Record<string, string> = {};
  if (person.email) data[contactKeys.email] = person.email;
  if (person.firstName) data[contactKeys.firstName] = person.firstName;
  if (person.lastName) data[contactKeys.lastName] = person.lastName;
  if (person.phone) data[contactKeys.phone] = person.phone;
  return data;
}
