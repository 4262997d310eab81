import { sql } from 'drizzle-orm';
import { customType, timestamp } from 'drizzle-orm/pg-core';

/** Every timestamp column: timestamptz, read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** PostgreSQL's 64-bit transaction id, read as a decimal string (it exceeds 2^53 in time). */
/** Bytes (PostgreSQL bytea), as Buffers through both drivers. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The transaction that created the row or last changed it (set by the trigger actiondesk_touch_change,
 * migration 0030). A sync (`updatedSince`) reads rows in this order and only those of transactions older
 * than every one still running, so a change that commits late is never passed by a cursor.
 */
export const changeTxid = () => xid8('change_txid').notNull().default(sql`pg_current_xact_id()`);

/** A table's row as the app reads and writes it: without `change_txid`, which only the database sets. */
export type RowOf<T extends { $inferSelect: object }> = Omit<T['$inferSelect'], 'changeTxid'>;
