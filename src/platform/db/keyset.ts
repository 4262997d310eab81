import { type AnyColumn, and, asc, desc, gte, type SQL, sql } from 'drizzle-orm';
import type { Keyset } from '../cursor';

/**
 * The conditions and order of a keyset page (see cursor.ts) over a table's creation time, change time
 * and id: newest first after the cursor, or oldest change first from `since`.
 */
export function keysetSql(
  keyset: Keyset,
  columns: { created: AnyColumn; updated: AnyColumn; id: AnyColumn },
): { where: SQL | undefined; orderBy: SQL[] } {
  const after = keyset.after;
  if (keyset.order === 'updated') {
    return {
      where: and(
        keyset.since ? gte(columns.updated, keyset.since) : undefined,
        after
          ? sql`(${columns.updated}, ${columns.id}) > (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
      orderBy: [asc(columns.updated), asc(columns.id)],
    };
  }
  return {
    where: after
      ? sql`(${columns.created}, ${columns.id}) < (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
      : undefined,
    orderBy: [desc(columns.created), desc(columns.id)],
  };
}
