import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';

/**
 * The credentials that are looked up before any organisation is known — API key prefixes, action and
 * signer link codes, OAuth client ids, token and code hashes, password-link hashes — each with the
 * organisation it belongs to. Not a tenant table: it keeps these values unique across organisations
 * (the tenant tables' own unique keys include organisation_id, as a database distributed by
 * organisation needs) and tells the lookup functions which organisation to look in. Written only by
 * triggers on the tenant tables (migration 0038); the app role cannot read it. On Citus it is
 * distributed by value: docs/scaling.md.
 */
export const credentialKeys = pgTable(
  'credential_keys',
  {
    /** The table and column the value is from, e.g. `api_keys.prefix`. */
    kind: text('kind').notNull(),
    value: text('value').notNull(),
    organisationId: uuid('organisation_id').notNull(),
  },
  (t) => [primaryKey({ name: 'credential_keys_pkey', columns: [t.kind, t.value] })],
);
