import { sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../platform/db/database';

/** What one live organisation did in a period (`npm run cli -- usage`); test organisations never appear. */
export interface OrganisationUsage {
  organisationId: string;
  name: string;
  actionsCreated: number;
  actionsSent: number;
  actionsCompleted: number;
  signatures: number;
}

/** Every live organisation's counts in [from, to), by name (actiondesk_usage, across organisations). */
export async function readUsage(q: Queryable, from: Date, to: Date): Promise<OrganisationUsage[]> {
  const rows = await queryRows<{
    organisation_id: string;
    name: string;
    actions_created: unknown;
    actions_sent: unknown;
    actions_completed: unknown;
    signatures: unknown;
  }>(
    q,
    sql`SELECT * FROM actiondesk_usage(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz)`,
  );
  return rows.map((r) => ({
    organisationId: r.organisation_id,
    name: r.name,
    actionsCreated: Number(r.actions_created),
    actionsSent: Number(r.actions_sent),
    actionsCompleted: Number(r.actions_completed),
    signatures: Number(r.signatures),
  }));
}
