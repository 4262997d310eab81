import { and, eq, type SQL, sql } from 'drizzle-orm';
import { events } from '../../db/schema';
import { deferWrite, queryRows, type Tx } from '../db/database';
import type { RequestContext } from '../kernel/context';
import { newId } from '../kernel/ids';
import type { EventType } from './event-types';
import { eventFanOut } from './fan-out';

export interface NewEvent {
  type: EventType;
  /** The record the event is about: deliveries to one endpoint keep the order of a subject's events. */
  subjectId: string | null;
  data: Record<string, unknown>;
}

/** Where a reader stands in the event stream: after the event of transaction `txid`, number `seq`. */
export interface EventPosition {
  txid: string;
  seq: number;
}

export interface EventRecord {
  id: string;
  type: string;
  createdAt: Date;
  organisationId: string;
  data: Record<string, unknown>;
  position: EventPosition;
}

export interface EventFilter {
  /** Exact types; empty or absent means every type. */
  types?: readonly string[];
  /** Only events at or after this time. */
  since?: Date;
  /** Only events after this position. */
  after?: EventPosition;
}

/** What the WITH entry `recorded` answers of each event it inserts, for the fan-out to read. */
const RECORDED_COLUMNS = sql`RETURNING id, organisation_id, type, subject_id, seq, created_at`;

/**
 * One statement: `insert` (an INSERT INTO events without RETURNING) as the WITH entry `recorded`, then
 * the registered fan-out's entries (webhook deliveries and their jobs) reading from it.
 */
function recordStatement(insert: SQL): SQL {
  const steps = eventFanOut()(sql.raw('recorded'));
  return sql`WITH recorded AS (${insert} ${RECORDED_COLUMNS})${sql.join(
    steps.map((step) => sql`, ${step}`),
    sql``,
  )}
    SELECT count(*) AS recorded FROM recorded`;
}

/**
 * The statement of a page of events (`eventRepository.list`): the organisation's events that readers
 * may see, in (txid, seq) order, read through events_org_order_idx (test/database.test.ts, "pages in
 * index order").
 */
export function eventPageStatement(ctx: RequestContext, filter: EventFilter, limit: number): SQL {
  const where: SQL[] = [
    eq(events.organisationId, ctx.organisationId),
    sql`${events.txid} < pg_snapshot_xmin(pg_current_snapshot())`,
  ];
  if (filter.types && filter.types.length > 0)
    where.push(sql`${events.type} = ANY(${`{${filter.types.join(',')}}`}::text[])`);
  if (filter.since) where.push(sql`${events.createdAt} >= ${filter.since.toISOString()}::timestamptz`);
  if (filter.after)
    where.push(
      sql`(${events.txid}, ${events.seq}) > (${filter.after.txid}::xid8, ${filter.after.seq}::bigint)`,
    );
  return sql`SELECT ${events.id} AS id, ${events.type} AS type, ${events.createdAt} AS created_at,
                    ${events.organisationId} AS organisation_id, ${events.data} AS data,
                    ${events.txid}::text AS txid, ${events.seq} AS seq
               FROM ${events} WHERE ${and(...where)}
              ORDER BY ${events.txid}, ${events.seq} LIMIT ${limit + 1}`;
}

/**
 * The events of the context's organisation. They are written with the change they describe, in its
 * transaction; the same statement writes what they fan out to (the webhook deliveries and their jobs:
 * fan-out.ts), so a committed change always has its deliveries.
 */
export function eventRepository(q: Tx, ctx: RequestContext) {
  return {
    /** Records events whose data is known here, in the order given. */
    async record(items: NewEvent[], at: Date): Promise<void> {
      if (items.length === 0) return;
      const createdAt = at.toISOString();
      const rows = sql.join(
        items.map(
          (e) =>
            sql`(${newId(at.getTime())}::uuid, ${ctx.organisationId}::uuid, ${e.type}::text, ${e.subjectId}::uuid,
                 ${JSON.stringify(e.data)}::jsonb, ${createdAt}::timestamptz)`,
        ),
        sql`, `,
      );
      await deferWrite(
        q,
        recordStatement(
          sql`INSERT INTO events (id, organisation_id, type, subject_id, data, created_at) VALUES ${rows}`,
        ),
      );
    },
    /**
     * Records one event per type, in the order given, whose subject and data the database computes:
     * `source` is a query that yields one row with the columns `subject_id` (uuid) and `data` (jsonb).
     * No row (the subject is gone) records nothing.
     */
    async recordFrom(types: EventType[], source: SQL, at: Date): Promise<void> {
      if (types.length === 0) return;
      const rows = sql.join(
        types.map((type, i) => sql`(${newId(at.getTime())}::uuid, ${type}::text, ${i}::integer)`),
        sql`, `,
      );
      await deferWrite(
        q,
        recordStatement(sql`
        INSERT INTO events (id, organisation_id, type, subject_id, data, created_at)
        SELECT t.id, ${ctx.organisationId}::uuid, t.type, s.subject_id, s.data, ${at.toISOString()}::timestamptz
          FROM (VALUES ${rows}) AS t(id, type, ord) CROSS JOIN (${source}) AS s
         ORDER BY t.ord`),
      );
    },
    /**
     * A page of events in the order readers see them. Only events of transactions older than every
     * transaction still running are listed, so an event that commits late is never behind a position
     * a reader already passed. Answers up to `limit` + 1 rows (the extra one tells that more follow).
     */
    async list(filter: EventFilter, limit: number): Promise<EventRecord[]> {
      const rows = await queryRows<{
        id: string;
        type: string;
        created_at: string | Date;
        organisation_id: string;
        data: Record<string, unknown>;
        txid: string;
        seq: string | number;
      }>(q, eventPageStatement(ctx, filter, limit));
      return rows.map((r) => ({
        id: r.id,
        type: r.type,
        createdAt: new Date(r.created_at),
        organisationId: r.organisation_id,
        data: r.data,
        position: { txid: r.txid, seq: Number(r.seq) },
      }));
    },
    /** One event, or undefined. */
    async find(id: string) {
      const [row] = await q
        .select()
        .from(events)
        .where(and(eq(events.organisationId, ctx.organisationId), eq(events.id, id)));
      return row;
    },
  };
}
