import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { customers } from './customers';
import { signerStatuses } from './enums';
import { sessionRequests } from './sessionrequests';
import { organisations } from './tenancy';

/**
 * The service's generated seal key, when no SIGNING_CERT_P12 is configured: made on first start and
 * kept here, its PKCS#12 bundle and passphrase sealed with ENCRYPTION_KEYS. Not a tenant table: one
 * seal for the service.
 */
export const sealKeys = pgTable('seal_keys', {
  id: text('id').primaryKey(),
  sealedP12: text('sealed_p12').notNull(),
  sealedPassphrase: text('sealed_passphrase').notNull(),
  subject: text('subject').notNull(),
  fingerprint: text('fingerprint').notNull(),
  createdAt: ts('created_at').notNull(),
});

/** One step of a signer's audit trail: what happened, when, and from where. */
export interface SignerTrailEntry {
  step: 'opened' | 'code-sent' | 'code-wrong' | 'code-locked' | 'code-verified' | 'signed' | 'declined';
  at: string;
  ip?: string | null;
  userAgent?: string | null;
  /** code-sent: how the code went out, and to which (masked) address. */
  channel?: 'email' | 'sms';
  to?: string;
  /** declined: whether the declining browser had confirmed a one-time code (declining needs none). */
  codeConfirmed?: boolean;
}

/** What the signer drew or typed. */
export type SignatureMark = { kind: 'typed'; text: string } | { kind: 'drawn'; png: string };

/** Who the signer was when they signed: the contact's details then, and the signing browser. */
export interface SignerEvidence {
  name: string;
  email: string | null;
  phone: string | null;
  ip: string | null;
  userAgent: string | null;
  consent: string;
  language: string;
}

/**
 * A signer of a signing action (quicksign, multisigning): a contact with their own link (`code`; the
 * first signer's is the action's), one-time code state, and the evidence of their signature.
 */
export const signers = pgTable(
  'signers',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    sessionRequestId: uuid('session_request_id').notNull(),
    customerId: uuid('customer_id').notNull(),
    // Order of signing, from 0 (sequential actions invite and accept signers in this order).
    position: integer('position').notNull(),
    code: text('code').notNull(),
    status: text('status', { enum: signerStatuses }).notNull(),
    invitedAt: ts('invited_at'),
    openedAt: ts('opened_at'),
    // The one-time code: a keyed hash (never the code), when it expires, wrong tries, how it was sent.
    codeHash: text('code_hash'),
    codeExpiresAt: ts('code_expires_at'),
    codeAttempts: integer('code_attempts').notNull().default(0),
    codeChannel: text('code_channel', { enum: ['email', 'sms'] }),
    codeSentAt: ts('code_sent_at'),
    codeVerifiedAt: ts('code_verified_at'),
    // The browser that verified the code: SHA-256 of its random token (cookie), valid until browserUntil.
    browserHash: text('browser_hash'),
    browserUntil: ts('browser_until'),
    signedAt: ts('signed_at'),
    declinedAt: ts('declined_at'),
    declineReason: text('decline_reason'),
    signature: jsonb('signature').$type<SignatureMark>(),
    evidence: jsonb('evidence').$type<SignerEvidence>(),
    trail: jsonb('trail').$type<SignerTrailEntry[]>().notNull().default([]),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'signers_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('signers_code_key').on(t.code, t.organisationId),
    uniqueIndex('signers_request_position_key').on(t.organisationId, t.sessionRequestId, t.position),
    uniqueIndex('signers_request_customer_key').on(t.organisationId, t.sessionRequestId, t.customerId),
    foreignKey({
      name: 'signers_request_fk',
      columns: [t.organisationId, t.sessionRequestId],
      foreignColumns: [sessionRequests.organisationId, sessionRequests.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'signers_customer_fk',
      columns: [t.organisationId, t.customerId],
      foreignColumns: [customers.organisationId, customers.id],
    }).onDelete('cascade'),
    index('signers_org_customer_idx').on(t.organisationId, t.customerId),
  ],
);
