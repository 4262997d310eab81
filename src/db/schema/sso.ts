import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { changeTxid, ts } from './columns';
import { organisations, users } from './tenancy';

/**
 * External identity providers an organisation's staff sign in with (spec 5.3): a Google-type workspace
 * provider, a Microsoft-type directory (with its tenant) or any OpenID Connect provider by issuer. The
 * client secret is sealed with ENCRYPTION_KEYS (bound to the row's id) and never shown again.
 */
export const ssoProviders = pgTable(
  'sso_providers',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['google', 'microsoft', 'oidc'] }).notNull(),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    tenantId: text('tenant_id'),
    clientId: text('client_id').notNull(),
    clientSecretSealed: text('client_secret_sealed').notNull(),
    secretUpdatedAt: ts('secret_updated_at').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    allowedDomains: text('allowed_domains').array().notNull().default(sql`'{}'::text[]`),
    /** Just-in-time creation of unknown users in this group; null: off (the default). */
    jitGroup: text('jit_group'),
    /** Microsoft-type: read the directory on a schedule and deactivate users gone or disabled there. */
    directorySync: boolean('directory_sync').notNull().default(false),
    /** The Graph base URL; null: https://graph.microsoft.com/v1.0. */
    directoryUrl: text('directory_url'),
    /** Directory group id → our group: members get the mapped groups. */
    groupMapping: jsonb('group_mapping').$type<Record<string, string>>().notNull().default({}),
    /** Names follow the directory's display names. */
    syncNames: boolean('sync_names').notNull().default(false),
    lastSyncAt: ts('last_sync_at'),
    /** The last run's outcome: counts, what it skipped, or its error. */
    lastSyncOutcome: jsonb('last_sync_outcome').$type<{
      users: number;
      deactivated: number;
      updated: number;
      skipped: string[];
      error: string | null;
    }>(),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'sso_providers_pkey', columns: [t.organisationId, t.id] }),
    index('sso_providers_org_created_idx').on(t.organisationId, t.createdAt),
  ],
);

/**
 * A staff user's account at a sign-in provider, linked at the first single sign-on (matched then by
 * verified e-mail): later sign-ins find the user by the provider's stable subject (`sub`), so a changed
 * e-mail address at the provider still reaches the same user.
 */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    providerId: uuid('provider_id').notNull(),
    userId: uuid('user_id').notNull(),
    subject: text('subject').notNull(),
    /** The e-mail the provider vouched for at the last sign-in. */
    email: text('email').notNull(),
    createdAt: ts('created_at').notNull(),
    lastSignInAt: ts('last_sign_in_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'sso_identities_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('sso_identities_provider_subject_key').on(t.organisationId, t.providerId, t.subject),
    // One account per user at a provider: another subject with the same e-mail is refused, not added.
    uniqueIndex('sso_identities_provider_user_key').on(t.organisationId, t.providerId, t.userId),
    foreignKey({
      name: 'sso_identities_provider_fk',
      columns: [t.organisationId, t.providerId],
      foreignColumns: [ssoProviders.organisationId, ssoProviders.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'sso_identities_user_fk',
      columns: [t.organisationId, t.userId],
      foreignColumns: [users.organisationId, users.id],
    }).onDelete('cascade'),
  ],
);
