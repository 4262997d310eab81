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
  [data[contactKeys.firstName], data[contactKeys.lastName], data[contactKeys.email]]
    .filter(Boolean)
    .join(' ');

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
