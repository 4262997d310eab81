import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea, changeTxid, ts } from './columns';
import { languages, notifyChoices } from './enums';

export const organisations = pgTable(
  'organisations',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    /** Staff may sign in with a password; off once single sign-on works (administrators keep it: break-glass). */
    passwordSignIn: boolean('password_sign_in').notNull().default(true),
    /** Requests per minute allowed to each of its API keys, OAuth clients and staff users; null: the default. */
    apiRateLimit: integer('api_rate_limit'),
    createdAt: ts('created_at').notNull(),
    // The organisation's own face to its contacts (issue 30): on their pages, in every e-mail and SMS,
    // on the signature page of a signed document. Null: the organisation's name, the product's look.
    /** The name contacts see; null: `name`. */
    brandName: text('brand_name'),
    /** The colour of buttons and links, `#rrggbb` (lower case); darkened where white text would not read. */
    brandColour: text('brand_colour'),
    /** The display name of the e-mails' From (the address stays MAIL_FROM). */
    mailSenderName: text('mail_sender_name'),
    /** Where contacts' replies to e-mails go. */
    mailReplyTo: text('mail_reply_to'),
    /** The SMS sender id (up to 11 letters, digits and spaces), where the provider allows one. */
    smsSender: text('sms_sender'),
    /** A signer confirms a one-time code before declining too, not only before signing. */
    requireCodeToDecline: boolean('require_code_to_decline').notNull().default(false),
    /**
     * Set on a test organisation (issue 31, docs/decisions/0009): the live organisation whose twin it is.
     * Null: a live organisation. Test credentials belong to the twin, so row-level security keeps test
     * records and live records apart; nothing of a test organisation reaches a real person.
     */
    liveOrganisationId: uuid('live_organisation_id').references((): AnyPgColumn => organisations.id, {
      onDelete: 'cascade',
    }),
  },
  (t) => [
    // Not unique (keys include the distribution column): actiondesk_test_twin makes one twin at a time.
    index('organisations_live_organisation_idx').on(t.liveOrganisationId),
  ],
);

/**
 * The organisation's logo (PNG or JPEG, at most 200 KB), apart from its row so that reading the
 * organisation never reads the image. `id` is random and new with every upload: the logo's public,
 * cacheable address (`/logos/{organisationId}/{id}`) cannot be guessed, and changes with the image.
 */
export const organisationLogos = pgTable('organisation_logos', {
  organisationId: uuid('organisation_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  contentType: text('content_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: ts('created_at').notNull(),
});

/**
 * The organisation's own seal (issue 32): a PKCS#12 bundle an administrator uploaded, sealed with
 * ENCRYPTION_KEYS (bundle and passphrase), with what its certificate says. Live documents of the
 * organisation are sealed with it instead of the service's; the administrators are e-mailed 30 days
 * before it expires (`expiry_warned_at`).
 */
export const organisationSeals = pgTable('organisation_seals', {
  organisationId: uuid('organisation_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  // New with every upload: what the audit trail names.
  id: uuid('id').notNull(),
  sealedP12: text('sealed_p12').notNull(),
  sealedPassphrase: text('sealed_passphrase').notNull(),
  subject: text('subject').notNull(),
  issuer: text('issuer').notNull(),
  serialNumber: text('serial_number').notNull(),
  fingerprint: text('fingerprint').notNull(),
  notBefore: ts('not_before').notNull(),
  notAfter: ts('not_after').notNull(),
  expiryWarnedAt: ts('expiry_warned_at'),
  createdAt: ts('created_at').notNull(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['staff', 'service'] }).notNull(),
    status: text('status', { enum: ['active', 'deactivated'] }).notNull(),
    groups: text('groups').array().notNull(),
    // Bumped on every change that affects what the user's credentials may do (status, groups, keys).
    authVersion: integer('auth_version').notNull().default(1),
    // Staff sign-in: an argon2id hash (PHC string), or null when no password is set.
    passwordHash: text('password_hash'),
    // Browser sessions signed in before this moment are ended (a password change signs out elsewhere).
    passwordChangedAt: ts('password_changed_at'),
    // Every browser session signed in before this moment has ended (deactivation, narrower groups, an
    // administrator's "sign out everywhere"); its rows are deleted in the same change.
    sessionsEndedAt: ts('sessions_ended_at'),
    // The staff pages' language the user chose; null: their browser's (Accept-Language).
    language: text('language', { enum: languages }),
    // Adviser notifications about their actions: an e-mail per event, a daily digest, or none.
    notify: text('notify', { enum: notifyChoices }).notNull().default('each'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'users_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('users_org_email_key').on(t.organisationId, sql`lower(${t.email})`),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    name: text('name').notNull(),
    // The first characters of the key, shown in listings and used to find the row; not a secret.
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: ts('created_at').notNull(),
    createdBy: uuid('created_by'),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'api_keys_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('api_keys_prefix_key').on(t.organisationId, t.prefix),
    index('api_keys_org_user_idx').on(t.organisationId, t.userId),
    foreignKey({
      name: 'api_keys_user_fk',
      columns: [t.organisationId, t.userId],
      foreignColumns: [users.organisationId, users.id],
    }).onDelete('cascade'),
  ],
);

export const portfolios = pgTable(
  'portfolios',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    isDefault: boolean('is_default').notNull().default(false),
    // Maintained by statement-level triggers on customers, so totals never count rows.
    customerCount: bigint('customer_count', { mode: 'number' }).notNull().default(0),
    createdAt: ts('created_at').notNull(),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'portfolios_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('portfolios_org_name_key').on(t.organisationId, sql`lower(${t.name})`),
    uniqueIndex('portfolios_org_default_key').on(t.organisationId).where(sql`${t.isDefault}`),
  ],
);
