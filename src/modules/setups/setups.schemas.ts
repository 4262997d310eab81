import { timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { documentType } from '../sessionrequests';

const text = (max: number) => z.string().trim().max(max);
const required = (max: number, what: string) => text(max).min(1, `is required: ${what}`);

/** What a quick-signing setup's document is; shown to the adviser and the signer, nothing else. */

export const QuickSigningSetupBody = z
  .strictObject({
    customer: z.strictObject({
      firstname: required(100, 'the signer’s first name'),
      lastname: required(100, 'the signer’s last name'),
      email: z.email('must be an e-mail address (the signing invitation goes there)').max(254),
      gsm: text(40).optional().meta({ description: 'Mobile number, for an SMS invitation or code' }),
      guid: text(200)
        .optional()
        .meta({ description: 'The contact’s id in your system: matched as the contact’s thirdpartyId' }),
    }),
    document: z.strictObject({
      fileid: required(200, 'the id of a PDF uploaded with POST /api/v1/files').meta({
        description: 'A PDF of the organisation, uploaded with POST /api/v1/files',
      }),
      title: required(200, 'the title the signer sees'),
      type: documentType
        .optional()
        .meta({ description: 'What the document is, as you call it (default other)' }),
    }),
  })
  .meta({ id: 'QuickSigningSetupBody', description: 'Spec 4.10: a contact and a document to sign' });

const SetupCustomer = z
  .strictObject({
    firstname: text(100).optional(),
    lastname: text(100).optional(),
    email: z.email('must be an e-mail address').max(254).optional(),
    thirdpartyId: text(200)
      .min(1)
      .optional()
      .meta({ description: 'Your id of the contact: kept on it and sent in the completion webhook' }),
  })
  .refine((c) => c.email !== undefined || c.thirdpartyId !== undefined, {
    message: 'needs an email or a thirdpartyId, to find or create the contact',
  });

export const ActionSetupBody = z
  .strictObject({
    customers: z.array(SetupCustomer).min(1, 'needs at least one contact').max(50),
  })
  .meta({ id: 'ActionSetupBody', description: 'Spec 4.11: contacts to preselect for an action' });

export const SetupCreated = z
  .object({ success: z.literal(true), setupId: z.string() })
  .meta({ id: 'QuickSigningSetupCreated' });
export const ActionSetupCreated = z
  .object({ success: z.literal(true), actionSetupId: z.string() })
  .meta({ id: 'ActionSetupCreated' });

const MatchedContact = z
  .object({ _id: z.string(), by: z.enum(['thirdpartyId', 'email']) })
  .nullable()
  .meta({
    id: 'SetupMatchedContact',
    description:
      'The existing contact this one is (by thirdpartyId, then e-mail); null: made when the adviser sends',
  });

const SetupState = {
  url: z.string().meta({ description: 'The deep link for the adviser’s browser' }),
  createdAt: timestamp,
  expiresAt: timestamp,
  usedAt: timestamp.nullable(),
  sessionRequestIds: z.array(z.string()).meta({ description: 'The actions sent from it' }),
};

export const QuickSigningSetup = z
  .object({
    setupId: z.string(),
    customer: QuickSigningSetupBody.shape.customer.extend({ contact: MatchedContact }),
    document: z.object({
      fileid: z.string(),
      title: z.string(),
      type: z.string(),
      fileName: z.string(),
      size: z.number().int(),
    }),
    ...SetupState,
  })
  .meta({ id: 'QuickSigningSetup' });

export const ActionSetup = z
  .object({
    actionSetupId: z.string(),
    customers: z.array(
      z.object({
        firstname: z.string().optional(),
        lastname: z.string().optional(),
        email: z.string().optional(),
        thirdpartyId: z.string().optional(),
        contact: MatchedContact,
      }),
    ),
    ...SetupState,
  })
  .meta({ id: 'ActionSetup' });

export type QuickSigningSetupBody = z.infer<typeof QuickSigningSetupBody>;
export type ActionSetupBody = z.infer<typeof ActionSetupBody>;
export type QuickSigningSetup = z.infer<typeof QuickSigningSetup>;
export type ActionSetup = z.infer<typeof ActionSetup>;
