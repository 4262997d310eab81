import { type AnyColumn, and, asc, desc, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Keyset, SYNC_TOTAL_CAP, type Walk } from '../lists/cursor';
import { type Queryable, queryRows } from './database';

/** What a keyset page reads by: creation time, change time (a column, or an expression), change transaction, id. */
export interface KeysetColumns {
  /** The table the columns belong to (a sync's first page finds where to start in it). */
  table: PgTable;
  created: AnyColumn;
  updated: AnyColumn | SQL;
  txid: AnyColumn;
  id: AnyColumn;
  /** A number between creation time and id in the newest-first order (webhook deliveries: the event's). */
  seq?: AnyColumn;
}

/** Changes of transactions older than every one still running: what a sync may pass for good. */
export const settled = (txid: AnyColumn | SQL): SQL => sql`${txid} < pg_snapshot_xmin(pg_current_snapshot())`;

/**
 * The conditions and order of a keyset page (see cursor.ts): newest first after the cursor, or, for a
 * sync, oldest change first in commit order.
 *
 * A sync lists every change from the first one made since `since`: its first page starts at the oldest
 * change transaction among the rows changed since then (found through the change-time index, which
 * carries the transaction: no walk over the rows changed before), and every page lists each change after
 * that point, whatever time it carries (a change that left the change time alone, a background job's,
 * comes too). What a sync lists therefore never depends on where its pages end.
 */
export function keysetSql(keyset: Keyset, columns: KeysetColumns): { where: SQL; orderBy: SQL[] } {
  const after = keyset.after;
  if (keyset.order === 'updated') {
    const parts = [settled(columns.txid)];
    if (after?.txid !== undefined) {
      parts.push(sql`(${columns.txid}, ${columns.id}) > (${after.txid}::xid8, ${after.id}::uuid)`);
    } else {
      const from = keyset.from ?? keyset.since;
      if (from) {
        const at = sql`${from.toISOString()}::timestamptz`;
        // OFFSET 0 keeps the rows changed since apart, read by the change-time index: a min() over the
        // table would walk the transaction index from its start instead. (ORDER BY … LIMIT 1, not
        // min(): min(xid8) exists from PostgreSQL 15 on.) No row changed since: NULL, an empty page.
        parts.push(
          sql`${columns.txid} >= (SELECT s.x FROM (SELECT ${columns.txid} AS x FROM ${columns.table} WHERE ${columns.updated} >= ${at} OFFSET 0) s ORDER BY s.x LIMIT 1)`,
        );
      }
    }
    return { where: sql.join(parts, sql` AND `), orderBy: [asc(columns.txid), asc(columns.id)] };
  }
  const seq = columns.seq;
  if (seq) {
    return {
      where: after?.at
        ? // A cursor made before the list ordered by `seq` goes on after every row of its moment's id.
          sql`(${columns.created}, ${seq}, ${columns.id}) < (${after.at.toISOString()}::timestamptz, ${after.seq ?? '9223372036854775807'}::bigint, ${after.id}::uuid)`
        : sql`TRUE`,
      orderBy: [desc(columns.created), desc(seq), desc(columns.id)],
    };
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

/** The keyset columns of a table with the usual `created_at`, `updated_at`, `change_txid` and `id`. */
export function keysetColumnsOf(
  table: PgTable & { createdAt: AnyColumn; updatedAt: AnyColumn; changeTxid: AnyColumn; id: AnyColumn },
): KeysetColumns {
  return { table, created: table.createdAt, updated: table.updatedAt, txid: table.changeTxid, id: table.id };
}

/**
 * The rows of a list that answers everything by default: all of them in `usual` order, or one page of
 * a walk (`limit` + 1 rows, to tell whether more follow) with how many match, counted up to the cap.
 */
export async function walkRows<R>(
  q: Queryable,
  columns: KeysetColumns,
  where: SQL | undefined,
  walk: Walk | null,
  usual: SQL[] = [asc(columns.created), asc(columns.id)],
): Promise<{ rows: (R & { changeTxid: string })[]; total: number }> {
  type Out = R & { changeTxid: string };
  const table = columns.table;
  if (!walk) {
    const rows = (await q
      .select()
      .from(table)
      .where(where)
      .orderBy(...usual)) as Out[];
    return { rows, total: rows.length };
  }
  const k = keysetSql(walk.keyset, columns);
  const rows = (await q
    .select()
    .from(table)
    .where(and(where, k.where))
    .orderBy(...k.orderBy)
    .limit(walk.limit + 1)) as Out[];
  const since = walk.keyset.since;
  const matching = and(
    where,
    since ? sql`${columns.updated} >= ${since.toISOString()}::timestamptz` : undefined,
  );
  const [counted] = await queryRows<{ n: unknown }>(q, cappedCount(sql`${table}`, matching, SYNC_TOTAL_CAP));
  return { rows, total: Number(counted?.n ?? 0) };
}
