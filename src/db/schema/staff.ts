import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  json,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organisations, users } from './tenancy';

/**
 * Staff browser sessions (express-session's store: platform/web/sessions.ts). Not a tenant table: a
 * session is found by its id before anything else is known; `sess` holds the organisation and user it
 * belongs to, and so do two columns, so that all of a user's sessions can end at once.
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    // SHA-256 of the session id in the cookie: a reader of the table cannot use a live session.
    sid: varchar('sid').primaryKey(),
    sess: json('sess').notNull(),
    expire: ts('expire').notNull(),
    // Whose session it is once signed in (a browser signing in with a provider has one before), so
    // that all of a user's sessions can end at once.
    organisationId: uuid('organisation_id'),
    userId: uuid('user_id'),
  },
  (t) => [
    index('staff_sessions_expire_idx').on(t.expire),
    index('staff_sessions_user_idx').on(t.organisationId, t.userId),
  ],
);

/** Single-use, expiring links that let a staff user set their password (invitation or reset). */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    // SHA-256 of the token in the link; the token itself is only in the e-mail.
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose', { enum: ['invite', 'reset'] }).notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [
    primaryKey({ name: 'password_tokens_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('password_tokens_hash_key').on(t.organisationId, t.tokenHash),
    index('password_tokens_org_user_idx').on(t.organisationId, t.userId),
    foreignKey({
      name: 'password_tokens_user_fk',
      columns: [t.organisationId, t.userId],
      foreignColumns: [users.organisationId, users.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Failed staff sign-ins, counted over a sliding window to slow guessing down: per account (lower-cased
 * e-mail) and per address, or — for a browser that signed in to the account before (its device cookie)
 * — per device alone. Not a tenant table: the organisation is not known from a wrong password.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    address: text('address').notNull(),
    at: ts('at').notNull(),
    /** The nonce of the device cookie the attempt came with (valid for this e-mail), else null. */
    device: text('device'),
    /** Counted on its device alone (a trusted device), not on the account and the address. */
    trusted: boolean('trusted').notNull().default(false),
  },
  (t) => [
    index('sign_in_failures_email_idx').on(t.email, t.at),
    index('sign_in_failures_address_idx').on(t.address, t.at),
    index('sign_in_failures_device_idx').on(t.device, t.at).where(sql`${t.device} IS NOT NULL`),
    index('sign_in_failures_at_idx').on(t.at),
  ],
);
