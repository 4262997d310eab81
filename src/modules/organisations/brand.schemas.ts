import { z } from '../../platform/kernel/zod';

// The organisation's own face to its contacts (issue 30): what GET and PATCH /admin/organisation/brand
// show and take.

/** Text a person reads in a page, a message header or a document: one line, no control characters. */
const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}]*$/u, 'must be one line without control characters');

export const brandColour = z
  .string()
  .trim()
  .regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour written #rrggbb, such as #0b57d0')
  .transform((c) => c.toLowerCase());

export const smsSender = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9 ]{1,11}$/, 'must be 1–11 letters, digits or spaces')
  .regex(/[A-Za-z]/, 'must hold at least one letter (a sender of digits only is a phone number)');

export const BrandSettings = z
  .object({
    organisationName: z.string().meta({ description: 'The organisation’s own name (not changed here)' }),
    brandName: z.string().nullable().meta({
      description:
        'The name contacts see on their pages, in messages and on signed documents; null: the organisation’s name',
    }),
    displayName: z
      .string()
      .meta({ description: 'What contacts see: `brandName`, else the organisation’s name' }),
    colour: z
      .string()
      .nullable()
      .meta({ description: 'Buttons and links, `#rrggbb`; null: the product’s blue' }),
    shownColour: z.string().nullable().meta({
      description:
        'The colour as shown: `colour`, darkened when white text on it would not reach a contrast of 4.5:1',
    }),
    logo: z
      .object({
        url: z.string().meta({ description: 'Its public address (changes with every upload; cacheable)' }),
        contentType: z.enum(['image/png', 'image/jpeg']),
        size: z.number().int().meta({ description: 'Bytes' }),
      })
      .nullable(),
    mailSenderName: z.string().nullable().meta({
      description:
        'The display name of the e-mails’ From (the address stays MAIL_FROM); null: the one in MAIL_FROM',
    }),
    mailReplyTo: z
      .string()
      .nullable()
      .meta({ description: 'Where contacts’ replies go; null: to MAIL_FROM' }),
    smsSender: z.string().nullable().meta({
      description: 'The SMS sender id where the provider allows one; null: SMS_FROM',
    }),
    requireCodeToDecline: z.boolean().meta({
      description: 'A signer confirms a one-time code before declining too (default: only before signing)',
    }),
  })
  .meta({ id: 'OrganisationBrand' });

export const UpdateBrand = z
  .strictObject({
    brandName: oneLine(100).nullable().optional(),
    colour: brandColour.nullable().optional(),
    mailSenderName: oneLine(100).nullable().optional(),
    mailReplyTo: z.email({ error: 'must be an e-mail address' }).max(320).nullable().optional(),
    smsSender: smsSender.nullable().optional(),
    requireCodeToDecline: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, {
    message:
      'send at least one of brandName, colour, mailSenderName, mailReplyTo, smsSender, requireCodeToDecline',
  })
  .meta({ id: 'UpdateOrganisationBrand', minProperties: 1 });

export type BrandSettings = z.infer<typeof BrandSettings>;
export type UpdateBrand = z.output<typeof UpdateBrand>;
