import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../platform/db/database';

/**
 * The test organisation of the transaction's organisation (actiondesk_test_twin): made with `makeWithId`
 * when there is none yet; with null, found only (null when there is none). From a test organisation:
 * that organisation.
 */
export async function testTwin(tx: Tx, makeWithId: string | null, now: Date): Promise<string | null> {
  const [row] = await queryRows<{ twin: string | null }>(
    tx,
    sql`SELECT actiondesk_test_twin(${makeWithId}::uuid, ${now.toISOString()}::timestamptz) AS twin`,
  );
  return row?.twin ?? null;
}

/** The live organisation whose twin the transaction's organisation is; null: it is live itself. */
export async function liveOrganisationOfCurrent(tx: Tx): Promise<string | null> {
  const [row] = await queryRows<{ live: string | null }>(
    tx,
    sql`SELECT live_organisation_id AS live FROM organisations WHERE id = actiondesk_current_org()`,
  );
  return row?.live ?? null;
}

/**
 * Points the transaction at another organisation (row-level security shows that one's rows from here
 * on). Only for the organisation and its test twin, whose credentials the caller has checked.
 */
export async function pointAt(tx: Tx, organisationId: string): Promise<void> {
  await tx.execute(sql`SELECT set_config('app.organisation_id', ${organisationId}, true)`);
}
