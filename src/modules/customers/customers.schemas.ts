import { cascadeParam, idFilter, timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { cursorAnswer, cursorQuery } from '../../platform/lists/cursor';
import { pageQuery } from '../../platform/lists/pagination';
import { contactKeys } from './contact-fields';

const value = z.string().max(2000);
const known = {
  [contactKeys.firstName]: value.meta({ description: 'First name' }),
  [contactKeys.lastName]: value.meta({ description: 'Last name' }),
  [contactKeys.email]: z
    .union([z.literal(''), z.email({ error: 'must be an e-mail address' })])
    .meta({ description: 'E-mail address (or empty)' }),
  // Kept as people write it ("0478 12 34 56 (gsm)"): it is read as a number only to send an SMS to it.
  [contactKeys.phone]: value.meta({
    description:
      'Phone number, kept as written (e.g. `0478 12 34 56 (gsm)`); it is read as a number only when an SMS is sent to it, and an action that asks for an SMS to a number that cannot take one is refused (400 naming notificationSms.send)',
  }),
  [contactKeys.street]: value.meta({ description: 'Street' }),
  [contactKeys.houseNumber]: value.meta({ description: 'House number' }),
  [contactKeys.postalCode]: value.meta({ description: 'Postal code' }),
  [contactKeys.municipality]: value.meta({ description: 'Municipality' }),
};
const KNOWN_KEYS = Object.keys(known);
const MAX_KEYS = 100;

/**
 * The known keys as the OpenAPI document shows them: optional properties of a record that takes any
 * other key too. (The checks themselves are the superRefine below, so that every failure is reported.)
 */
function knownProperties(nullable: boolean) {
  return Object.fromEntries(
    Object.entries(known).map(([key, schema]) => [
      key,
      {
        type: nullable ? (['string', 'null'] as ('string' | 'null')[]) : ('string' as const),
        description: schema.description,
      },
    ]),
  );
}

const dataKey = z.string().min(1).max(100);

/** The free-form record: known keys are checked, other string keys are kept as they are. */
export const CustomerData = z
  .record(dataKey, z.unknown())
  .superRefine((data, ctx) => {
    const keys = Object.keys(data);
    if (keys.length > MAX_KEYS)
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_KEYS} keys are allowed` });
    for (const key of keys) {
      const schema = Object.hasOwn(known, key) ? known[key as keyof typeof known] : value;
      const checked = schema.safeParse(data[key]);
      if (!checked.success) {
        for (const issue of checked.error.issues)
          ctx.addIssue({ code: 'custom', path: [key], message: issue.message });
      }
    }
    if (
      ![contactKeys.firstName, contactKeys.lastName, contactKeys.email].some(
        (k) => typeof data[k] === 'string' && data[k].trim() !== '',
      )
    ) {
      ctx.addIssue({ code: 'custom', message: 'at least one of Voornaam, Achternaam or Email is required' });
    }
  })
  // Every value is checked above (all failures reported at once); the record is strings from here on.
  .transform((data) => data as Record<string, string>)
  .openapi('CustomerData', {
    properties: knownProperties(false),
    additionalProperties: { type: 'string' },
    description: `Free-form record of strings (at most 2000 characters each). Known keys: ${KNOWN_KEYS.join(', ')} (Email must be an e-mail address; Telefoon is kept as written). Other keys are kept. At most ${MAX_KEYS} keys; at least one of Voornaam, Achternaam or Email.`,
    example: { Voornaam: 'Jan', Achternaam: 'Peeters', Email: 'jan.peeters@example.be', Gemeente: 'Gent' },
  });

export const Customer = z
  .object({
    _id: z.string(),
    thirdpartyId: z
      .string()
      .nullable()
      .meta({ description: 'Reference in the external system; unique per organisation' }),
    portfolio: z.string().meta({ description: 'Id of the portfolio (contact group)' }),
    data: z.record(z.string(), z.string()).meta({
      description: 'Free-form record of strings, as stored: the known keys and any other',
      properties: knownProperties(false),
    }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Customer' });

export const CustomerList = z
  .object({
    customers: z.array(Customer),
    total: z.number().int().meta({ description: 'How many contacts match the filter (all pages)' }),
    ...cursorAnswer,
  })
  .meta({ id: 'CustomerList' });

export const ListCustomersQuery = z.object({
  search: z.string().max(200).optional().meta({
    description:
      'Words matched (case- and accent-insensitive) in first name, last name, e-mail and the phone number’s digits (also in national form: 0475…); all must match',
  }),
  portfolioId: idFilter('Only contacts of this portfolio').optional(),
  thirdpartyId: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Only the contact with this external reference' }),
  ...pageQuery,
  ...cursorQuery,
});

const thirdpartyId = z.string().trim().min(1).max(200);

export const CreateCustomer = z
  .strictObject({
    portfolioId: z
      .string()
      .max(200)
      .optional()
      .meta({ description: 'Defaults to the organisation’s default portfolio' }),
    thirdpartyId: thirdpartyId.optional(),
    data: CustomerData,
  })
  .meta({ id: 'CreateCustomer' });

export const UpdateCustomer = z
  .strictObject({
    portfolioId: z.string().max(200).optional(),
    thirdpartyId: thirdpartyId.nullable().optional().meta({ description: 'null removes the reference' }),
    data: z
      .record(dataKey, z.string().nullable())
      .optional()
      .meta({
        description: 'Merged into the record: a key set to null is removed, other keys are set',
        properties: knownProperties(true),
      }),
  })
  .refine((b) => Object.keys(b).length > 0, {
    message: 'send at least one of portfolioId, thirdpartyId, data',
  })
  .meta({ id: 'UpdateCustomer', minProperties: 1 });

export const DeleteCustomerQuery = z.object({
  cascade: cascadeParam(
    'true (an erasure request) also deletes the contact’s actions, their history, sessions, session versions, the sessions they submitted as a campaign visitor and the reports of all those sessions. Without it a contact with actions is a 409',
  ),
});

export type Customer = z.infer<typeof Customer>;
export type ListCustomersQuery = z.infer<typeof ListCustomersQuery>;
export type CreateCustomer = z.infer<typeof CreateCustomer>;
export type UpdateCustomer = z.infer<typeof UpdateCustomer>;
