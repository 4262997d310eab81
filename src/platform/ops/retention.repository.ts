import { sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../db/database';

/** One call of the retention sweep (SECURITY DEFINER function, migration 0036): what it removed, by kind. */
export async function pruneBatch(
  q: Queryable,
  now: Date,
  before: { jobs: Date | null; events: Date | null; audit: Date | null },
  limit: number,
): Promise<Record<string, number>> {
  const at = (d: Date | null) => (d ? d.toISOString() : null);
  const rows = await queryRows<{ what: string; removed: unknown }>(
    q,
    sql`SELECT * FROM actiondesk_prune(${now.toISOString()}::timestamptz, ${at(before.jobs)}::timestamptz,
          ${at(before.events)}::timestamptz, ${at(before.audit)}::timestamptz, ${limit}::integer)`,
  );
  return Object.fromEntries(rows.map((r) => [r.what, Number(r.removed)]));
}
