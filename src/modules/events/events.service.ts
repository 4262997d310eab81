import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { isEventType } from '../../platform/events/event-types';
import {
  type EventPosition,
  type EventRecord,
  eventRepository,
} from '../../platform/events/events.repository';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest } from '../../platform/kernel/errors';
import { iso } from '../../platform/kernel/schemas';
import { eitherOf } from '../../platform/lists/cursor';
import { type Mode, modeOf } from '../organisations';
import type { Event, ListEventsQuery } from './events.schemas';

/** A position as the opaque cursor clients get: base64url of `<txid>.<seq>`. */
export function encodeCursor(p: EventPosition): string {
  return Buffer.from(`${p.txid}.${p.seq}`).toString('base64url');
}

export function decodeCursor(cursor: string, field = 'cursor'): EventPosition {
  const text = Buffer.from(cursor, 'base64url').toString('latin1');
  const m = /^(\d{1,20})\.(\d{1,15})$/.exec(text);
  if (!m || BigInt(m[1]!) >= 2n ** 64n || encodeCursor({ txid: m[1]!, seq: Number(m[2]) }) !== cursor)
    throw BadRequest.field(field, 'is not a cursor this API gave out: pass a nextCursor as it was', 'query');
  return { txid: m[1]!, seq: Number(m[2]) };
}

function parseTypes(text: string | undefined): string[] {
  if (text === undefined) return [];
  const types = text.split(',').map((t) => t.trim());
  types.forEach((t) => {
    if (!isEventType(t))
      throw BadRequest.field('type', `${JSON.stringify(t.slice(0, 60))} is not an event type`, 'query');
  });
  return [...new Set(types)];
}

export function toEvent(
  e: Pick<EventRecord, 'id' | 'type' | 'createdAt' | 'organisationId' | 'data'>,
  mode: Mode,
): Event {
  return {
    id: e.id,
    type: e.type,
    createdAt: iso(e.createdAt),
    organisationId: e.organisationId,
    livemode: mode === 'live',
    data: e.data,
  } as Event;
}

/**
 * A page of the organisation's events in the order they became visible. Following nextCursor never
 * skips an event, also one whose transaction committed after a later one's.
 */
export async function listEvents(deps: { database: Database }, ctx: RequestContext, query: ListEventsQuery) {
  const types = parseTypes(query.type);
  const given = eitherOf(query, 'cursor', 'startingAfter');
  const cursor = given?.value;
  const sinceText = eitherOf(query, 'since', 'updatedSince')?.value;
  const after = given === undefined ? undefined : decodeCursor(given.value, given.field);
  const since = sinceText === undefined ? undefined : new Date(sinceText);
  const rows = await inTenant(deps.database, ctx, (tx) =>
    eventRepository(tx, ctx).list({ types, since, after }, query.limit),
  );
  const page = rows.slice(0, query.limit);
  const mode = await modeOf(deps.database, ctx.organisationId);
  const last = page.at(-1);
  return {
    events: page.map((e) => toEvent(e, mode)),
    nextCursor: last ? encodeCursor(last.position) : (cursor ?? null),
    hasMore: rows.length > query.limit,
  };
}
