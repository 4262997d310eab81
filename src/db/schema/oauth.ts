import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { changeTxid, ts } from './columns';
import { organisations, users } from './tenancy';

/**
 * Partner applications registered by an organisation's administrator (OAuth 2.0 clients). The client
 * secret is stored as SHA-256 only (it is 190 bits of randomness, like an API key); a public client has
 * none and must use PKCE. `service_user_id` is the user whose permissions the client acts within for
 * the client-credentials grant.
 */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ['confidential', 'public'] }).notNull(),
    secretHash: text('secret_hash'),
    secretRotatedAt: ts('secret_rotated_at'),
    grants: text('grants').array().notNull(),
    scopes: text('scopes').array().notNull(),
    redirectUris: text('redirect_uris').array().notNull().default(sql`'{}'::text[]`),
    serviceUserId: uuid('service_user_id'),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    disabledAt: ts('disabled_at'),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'oauth_clients_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('oauth_clients_client_id_key').on(t.clientId, t.organisationId),
    index('oauth_clients_org_created_idx').on(t.organisationId, t.createdAt),
    foreignKey({
      name: 'oauth_clients_service_user_fk',
      columns: [t.organisationId, t.serviceUserId],
      foreignColumns: [users.organisationId, users.id],
    }).onDelete('restrict'),
  ],
);

/**
 * Tokens issued to clients: opaque random strings stored as SHA-256 only. `user_id` is who the token
 * acts for (the client's service user, or the adviser who consented); `scopes` what it may do within
 * that user's groups. Refresh tokens of one sign-in share a `family_id`, so reuse of a rotated one can
 * revoke them all.
 */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    userId: uuid('user_id').notNull(),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    familyId: uuid('family_id'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'oauth_tokens_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('oauth_tokens_hash_key').on(t.organisationId, t.tokenHash),
    index('oauth_tokens_org_client_idx').on(t.organisationId, t.clientId, t.expiresAt),
    index('oauth_tokens_org_family_idx').on(t.organisationId, t.familyId),
    foreignKey({
      name: 'oauth_tokens_client_fk',
      columns: [t.organisationId, t.clientId],
      foreignColumns: [oauthClients.organisationId, oauthClients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'oauth_tokens_user_fk',
      columns: [t.organisationId, t.userId],
      foreignColumns: [users.organisationId, users.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Authorization codes (RFC 6749 §4.1) an adviser's consent issued to a client: stored as SHA-256 only,
 * single-use (`used_at`), short-lived, bound to the client, the redirect URI and the PKCE challenge.
 * The tokens a code buys carry its id as their `family_id`, so a second use revokes them all.
 */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').notNull(),
    userId: uuid('user_id').notNull(),
    codeHash: text('code_hash').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    /** Whether the authorization request named the redirect URI (then the token request must repeat it). */
    redirectUriGiven: boolean('redirect_uri_given').notNull().default(true),
    scopes: text('scopes').array().notNull(),
    codeChallenge: text('code_challenge'),
    codeChallengeMethod: text('code_challenge_method'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    /**
     * Set when a second use of the code or of one of its refresh tokens revoked everything the consent
     * issued: tokens are only ever added to a family whose code row is not so marked (row lock).
     */
    familyRevokedAt: ts('family_revoked_at'),
  },
  (t) => [
    primaryKey({ name: 'oauth_codes_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('oauth_codes_hash_key').on(t.codeHash, t.organisationId),
    index('oauth_codes_org_expires_idx').on(t.organisationId, t.expiresAt),
    foreignKey({
      name: 'oauth_codes_client_fk',
      columns: [t.organisationId, t.clientId],
      foreignColumns: [oauthClients.organisationId, oauthClients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'oauth_codes_user_fk',
      columns: [t.organisationId, t.userId],
      foreignColumns: [users.organisationId, users.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Authorization requests (RFC 6749 §4.1.1) an adviser's consent page showed, kept on the server until
 * the adviser answers: the page's form posts only a random id (stored as SHA-256), so the decision
 * applies to exactly the client, redirect URI, scope, state and PKCE challenge the page named, for the
 * adviser it was shown to. Single use (`used_at`) and short-lived; the retention sweep removes expired
 * rows.
 */
export const oauthAuthorizationRequests = pgTable(
  'oauth_authorization_requests',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    requestHash: text('request_hash').notNull(),
    /** The adviser the consent page was shown to: only they may answer it. */
    userId: uuid('user_id').notNull(),
    clientId: uuid('client_id').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    /** Whether the authorization request named the redirect URI (then the token request must repeat it). */
    redirectUriGiven: boolean('redirect_uri_given').notNull(),
    scopes: text('scopes').array().notNull(),
    state: text('state'),
    codeChallenge: text('code_challenge'),
    codeChallengeMethod: text('code_challenge_method'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [
    primaryKey({ name: 'oauth_authorization_requests_pkey', columns: [t.organisationId, t.requestHash] }),
    // The retention sweep finds expired requests across organisations.
    index('oauth_authorization_requests_expires_idx').on(t.expiresAt),
    foreignKey({
      name: 'oauth_authorization_requests_client_fk',
      columns: [t.organisationId, t.clientId],
      foreignColumns: [oauthClients.organisationId, oauthClients.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'oauth_authorization_requests_user_fk',
      columns: [t.organisationId, t.userId],
      foreignColumns: [users.organisationId, users.id],
    }).onDelete('cascade'),
  ],
);
