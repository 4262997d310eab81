import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm';
import type { Keyset } from '../cursor';

/** What a keyset page reads by: creation time, change time (a column, or an expression), change transaction, id. */
export interface KeysetColumns {
  created: AnyColumn;
  updated: AnyColumn | SQL;
  txid: AnyColumn;
  id: AnyColumn;
}

/** Changes of transactions older than every one still running: what a sync may pass for good. */
export const settled = (txid: AnyColumn | SQL): SQL => sql`${txid} < pg_snapshot_xmin(pg_current_snapshot())`;

/**
 * The conditions and order of a keyset page (see cursor.ts): newest first after the cursor, or, for a
 * sync, oldest change first in commit order from `since`.
 */
export function keysetSql(keyset: Keyset, columns: KeysetColumns): { where: SQL; orderBy: SQL[] } {
  const after = keyset.after;
  if (keyset.order === 'updated') {
    const parts = [settled(columns.txid)];
    if (keyset.since) parts.push(sql`${columns.updated} >= ${keyset.since.toISOString()}::timestamptz`);
    if (after?.txid !== undefined)
      parts.push(sql`(${columns.txid}, ${columns.id}) > (${after.txid}::xid8, ${after.id}::uuid)`);
    return { where: sql.join(parts, sql` AND `), orderBy: [asc(columns.txid), asc(columns.id)] };
  }
  return {
    where: after?.at
      ? sql`(${columns.created}, ${columns.id}) < (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
      : sql`TRUE`,
    orderBy: [desc(columns.created), desc(columns.id)],
  };
}

/** How many rows match, counted up to `cap` + 1 (a sync's total: exact below the cap, an estimate above). */
export function cappedCount(from: SQL, where: SQL | undefined, cap: number): SQL {
  return sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${where ?? sql`TRUE`} LIMIT ${cap + 1}) c`;
}
