import { type SQL, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../platform/db/database';

/**
 * What an organisation export holds, table by table (docs/operations.md#offboarding): every table of
 * the organisation's records, in an order that a later import can follow (referenced tables first),
 * without credentials or secrets (hashes of keys, tokens and passwords, sealed secrets) and without the
 * service's own bookkeeping (change order, storage keys). Left out whole: the job queue, idempotency
 * answers, one-time codes and tokens, and file parts (the files themselves are exported as files).
 */
export const EXPORTED_TABLES: readonly { table: string; drop: readonly string[] }[] = [
  { table: 'organisations', drop: [] },
  { table: 'organisation_logos', drop: [] },
  { table: 'users', drop: ['password_hash', 'change_txid'] },
  { table: 'api_keys', drop: ['secret_hash', 'change_txid'] },
  { table: 'portfolios', drop: ['change_txid'] },
  { table: 'customers', drop: ['change_txid'] },
  { table: 'question_lists', drop: ['change_txid'] },
  { table: 'question_list_versions', drop: [] },
  { table: 'files', drop: ['storage_key'] },
  { table: 'session_requests', drop: ['code', 'change_txid'] },
  { table: 'signers', drop: ['code', 'code_hash', 'browser_hash'] },
  { table: 'session_request_events', drop: [] },
  { table: 'sessions', drop: ['change_txid'] },
  { table: 'session_versions', drop: [] },
  { table: 'campaign_visitors', drop: ['token_hash'] },
  { table: 'setups', drop: [] },
  { table: 'events', drop: ['txid'] },
  { table: 'webhook_endpoints', drop: ['secrets', 'change_txid'] },
  { table: 'webhook_deliveries', drop: ['change_txid'] },
  { table: 'oauth_clients', drop: ['secret_hash', 'change_txid'] },
  { table: 'sso_providers', drop: ['client_secret_sealed', 'change_txid'] },
  { table: 'sso_identities', drop: [] },
  { table: 'audit_events', drop: [] },
];

/**
 * The rows of one table visible in the transaction (row-level security: the organisation's), each as
 * JSON text (`line`) with the `drop` columns taken out.
 */
export function exportRowsQuery(table: string, drop: readonly string[]): SQL {
  const without = drop.map((c) => sql` - ${c}::text`);
  const where = table === 'organisations' ? sql`TRUE` : sql`organisation_id = actiondesk_current_org()`;
  return sql`SELECT (to_jsonb(t)${sql.join(without, sql``)})::text AS line FROM ${sql.identifier(table)} t WHERE ${where}`;
}

/** The organisation's name (row-level security: only within its own transaction). */
export async function organisationNamed(
  tx: Tx,
  organisationId: string,
): Promise<{ name: string } | undefined> {
  const [row] = await queryRows<{ name: string }>(
    tx,
    sql`SELECT name FROM organisations WHERE id = ${organisationId}`,
  );
  return row;
}

/** The organisation's files: id, name, size, SHA-256 and where their bytes are. */
export function storedFiles(tx: Tx) {
  return queryRows<{ id: string; file_name: string; size: string; sha256: string; storage_key: string }>(
    tx,
    sql`SELECT id, file_name, size, sha256, storage_key FROM files WHERE organisation_id = actiondesk_current_org() ORDER BY id`,
  );
}

/**
 * Makes an owner transaction (Database.ownerTransaction) the organisation's, as its own transactions
 * are, without a time limit: an operator's command waits for its statements, however large the
 * organisation (requests have DATABASE_STATEMENT_TIMEOUT_SECONDS).
 */
export async function enterAsOperator(tx: Tx, organisationId: string): Promise<void> {
  await tx.execute(sql`SELECT set_config('app.organisation_id', ${organisationId}, true)`);
  await tx.execute(sql`SET LOCAL statement_timeout = 0`);
}

/**
 * Deletes the organisation and, through its foreign keys, everything it holds, in the transaction.
 * Row records of the audit trail are switched off for it (they would belong to the organisation being
 * deleted). Answers how many rows of its main tables went, and the storage keys of its files.
 */
export async function deleteOrganisationRows(tx: Tx, organisationId: string) {
  const [counts] = await queryRows<Record<string, string>>(
    tx,
    sql`SELECT (SELECT count(*) FROM customers WHERE organisation_id = ${organisationId}) AS customers,
               (SELECT count(*) FROM session_requests WHERE organisation_id = ${organisationId}) AS session_requests,
               (SELECT count(*) FROM sessions WHERE organisation_id = ${organisationId}) AS sessions,
               (SELECT count(*) FROM files WHERE organisation_id = ${organisationId}) AS files,
               (SELECT count(*) FROM users WHERE organisation_id = ${organisationId}) AS users,
               (SELECT count(*) FROM audit_events WHERE organisation_id = ${organisationId}) AS audit_events`,
  );
  // Its test organisation (issue 31) goes with it, through its foreign key: its files' bytes too.
  const keys = await queryRows<{ storage_key: string }>(
    tx,
    sql`SELECT storage_key FROM files
         WHERE organisation_id = ${organisationId}
            OR organisation_id IN (SELECT id FROM organisations WHERE live_organisation_id = ${organisationId})`,
  );
  await tx.execute(sql`SELECT set_config('app.audit_rows', 'off', true)`);
  const gone = await queryRows<{ id: string }>(
    tx,
    sql`DELETE FROM organisations WHERE id = ${organisationId} RETURNING id`,
  );
  return {
    deleted: gone.length === 1,
    counts: Object.fromEntries(Object.entries(counts ?? {}).map(([k, v]) => [k, Number(v)])),
    storageKeys: keys.map((k) => k.storage_key),
  };
}

/** What a wipe of test data keeps: the organisation, its users and its credentials (issue 31). */
const KEPT = ['organisations', 'organisation_logos', 'users', 'api_keys', 'oauth_clients'] as const;

/**
 * Deletes everything a test organisation holds but itself, its users and its credentials (API keys,
 * OAuth clients): deleteOrganisationRows, with those rows set aside first and put back after (their
 * lookup keys follow by trigger). OAuth tokens go: a client fetches a new one. Answers what went.
 */
export async function wipeOrganisationRows(tx: Tx, organisationId: string) {
  for (const table of KEPT) {
    const where =
      table === 'organisations' ? sql`id = ${organisationId}` : sql`organisation_id = ${organisationId}`;
    await tx.execute(
      sql`CREATE TEMP TABLE ${sql.identifier(`kept_${table}`)} ON COMMIT DROP AS SELECT * FROM ${sql.identifier(table)} WHERE ${where}`,
    );
  }
  const gone = await deleteOrganisationRows(tx, organisationId);
  for (const table of KEPT) {
    await tx.execute(
      sql`INSERT INTO ${sql.identifier(table)} SELECT * FROM ${sql.identifier(`kept_${table}`)}`,
    );
  }
  return gone;
}
