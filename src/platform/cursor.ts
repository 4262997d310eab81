import { BadRequest } from './errors';
import { isId } from './ids';
import { instantParam } from './schemas';
import { z } from './zod';

/**
 * Keyset pagination for every list (docs/api.md#pagination): besides `page`/`limit`, a list takes
 * `startingAfter` (the `nextCursor` of the previous answer) and `updatedSince`. A page by cursor costs
 * the same at the start and at the end of a list, and a walk returns each record once even while
 * others are created or deleted.
 *
 * Two orders:
 * - `created`: newest first (the list's usual order), `(created_at, id)` descending;
 * - `updated`: with `updatedSince`, oldest change first, `(updated_at, id)` ascending, so that a CRM
 *   that keeps the last `updatedAt` it saw gets every later change, each change once.
 */
export type KeysetOrder = 'created' | 'updated';

export interface Keyset {
  order: KeysetOrder;
  /** Only records changed at or after this moment (`updated` order). */
  since?: Date;
  /** The last record of the previous page. */
  after?: { at: Date; id: string };
}

export const cursorQuery = {
  updatedSince: instantParam(
    'Only records created or changed at or after this moment, oldest change first (for syncing); page on with `startingAfter`',
  ).optional(),
  startingAfter: z
    .string()
    .max(300)
    .optional()
    .meta({ description: 'The `nextCursor` of the previous answer: the page after it (instead of `page`)' }),
};

/** What a list answers beside its items and total: whether more follow, and the cursor to them. */
export const cursorAnswer = {
  hasMore: z.boolean().meta({ description: 'More records follow this page' }),
  nextCursor: z
    .string()
    .nullable()
    .meta({ description: 'Pass as `startingAfter` for the next page (a sync keeps it to ask again later)' }),
};

interface Encoded {
  /** The list it belongs to: a cursor of one list is refused by another. */
  l: string;
  o: KeysetOrder;
  t: string;
  i: string;
  s?: string;
}

/** The cursor text: opaque to clients (base64url of the order, the last record's time and id). */
export function encodeCursor(list: string, order: KeysetOrder, at: Date, id: string, since?: Date): string {
  const body: Encoded = {
    l: list,
    o: order,
    t: at.toISOString(),
    i: id,
    ...(since ? { s: since.toISOString() } : {}),
  };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

const badCursor = () =>
  BadRequest.field(
    'startingAfter',
    'is not a cursor of this list: pass the nextCursor of the previous answer',
    'query',
  );

const inRange = (iso: string) => {
  const year = new Date(iso).getUTCFullYear();
  return !Number.isNaN(year) && year >= 1 && year <= 9999;
};

function decodeCursor(text: string, list: string): Encoded {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  const b = body as Partial<Encoded> | null;
  if (
    !b ||
    typeof b !== 'object' ||
    b.l !== list ||
    (b.o !== 'created' && b.o !== 'updated') ||
    typeof b.t !== 'string' ||
    !inRange(b.t) ||
    typeof b.i !== 'string' ||
    !isId(b.i) ||
    (b.s !== undefined && (typeof b.s !== 'string' || !inRange(b.s)))
  )
    throw badCursor();
  return b as Encoded;
}

/**
 * The keyset a list request asks for, or null for the classic `page`/`limit`. A cursor carries its
 * order and `updatedSince`; an `updatedSince` given beside a cursor must be the same.
 */
export function keysetOf(
  list: string,
  query: { updatedSince?: string; startingAfter?: string; page?: number },
): Keyset | null {
  const since = query.updatedSince !== undefined ? new Date(query.updatedSince) : undefined;
  if ((since || query.startingAfter !== undefined) && (query.page ?? 1) > 1)
    throw BadRequest.field(
      'page',
      'cannot be combined with updatedSince or startingAfter: page on with the nextCursor',
      'query',
    );
  if (query.startingAfter === undefined) return since ? { order: 'updated', since } : null;
  const c = decodeCursor(query.startingAfter, list);
  const cursorSince = c.s !== undefined ? new Date(c.s) : undefined;
  if (since && cursorSince?.getTime() !== since.getTime())
    throw BadRequest.field(
      'updatedSince',
      'differs from the one the cursor was made with: leave it out',
      'query',
    );
  return { order: c.o, since: cursorSince, after: { at: new Date(c.t), id: c.i } };
}

/**
 * A page of a keyset walk: `rows` were read with one more than `limit` (to know whether more follow).
 * `nextCursor` is given on every page, also the last (a sync keeps it and asks again later); an empty
 * page answers the cursor it was asked with, so a client that always keeps `nextCursor` keeps its place.
 */
export function keysetPage<T>(
  list: string,
  rows: T[],
  limit: number,
  order: KeysetOrder,
  keyOf: (row: T) => { at: Date; id: string },
  opts: { since?: Date; askedWith?: string } = {},
): { items: T[]; hasMore: boolean; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const key = last ? keyOf(last) : undefined;
  return {
    items,
    hasMore: rows.length > limit,
    nextCursor: key ? encodeCursor(list, order, key.at, key.id, opts.since) : (opts.askedWith ?? null),
  };
}
