import { createHash } from 'node:crypto';
import { BadRequest } from '../kernel/errors';
import { isId } from '../kernel/ids';
import { instantParam } from '../kernel/schemas';
import { z } from '../kernel/zod';

/**
 * Keyset pagination for every list (docs/api.md#pagination): besides `page`/`limit`, a list takes
 * `startingAfter` (the `nextCursor` of the previous answer) and `updatedSince`. A page by cursor costs
 * the same at the start and at the end of a list, and a walk returns each record once even while
 * others are created or deleted.
 *
 * Two orders:
 * - `created`: newest first (the list's usual order), `(created_at, id)` descending;
 * - `updated`: with `updatedSince`, oldest change first in commit order, `(change_txid, id)` ascending,
 *   reading only changes of transactions older than every one still running (as GET /events does): a
 *   CRM that keeps the last cursor gets every later change, also one that committed late.
 *
 * A cursor carries its list, order, position, `updatedSince` and a hash of the list's filters: it is
 * refused by another list or with other filters.
 */
export type KeysetOrder = 'created' | 'updated';

/** A sync's total (`updatedSince`) is counted up to this many; above, it is a lower bound (`totalIsEstimate`). */
export const SYNC_TOTAL_CAP = 10_000;

export interface Keyset {
  order: KeysetOrder;
  /** Only records changed at or after this moment (`updated` order). */
  since?: Date;
  /** Where a sync resumes when its cursor names a moment, not a transaction (a cursor of the first release). */
  from?: Date;
  /**
   * The last record of the previous page: its creation time (and `seq`, for lists that order by one)
   * for `created`, its change transaction for `updated`.
   */
  after?: { at?: Date; seq?: string; txid?: string; id: string };
}

/** Where a row stands in a walk: its creation time and id, and its change transaction for syncs. */
export interface KeyOf {
  at: Date;
  seq?: number | string;
  txid?: string;
  id: string;
}

/** Filters of a list, bound into its cursors (undefined values are left out). */
export type CursorFilters = Record<string, string | number | boolean | undefined | null>;

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

/**
 * A parameter a list also takes under its common name (`startingAfter` for `cursor`, `updatedSince` for
 * `since`): either may be given, both only when they agree.
 */
export function eitherOf(
  query: Record<string, unknown>,
  own: string,
  common: string,
): { value: string; field: string } | undefined {
  const a = query[own] as string | undefined;
  const b = query[common] as string | undefined;
  // Two names of one moment may write it differently (`Z` or `+00:00`): moments compare as moments
  // (both were checked as instants); anything else as text.
  const moments = own === 'since';
  const same = (x: string, y: string) => x === y || (moments && Date.parse(x) === Date.parse(y));
  if (a !== undefined && b !== undefined && !same(a, b))
    throw BadRequest.field(common, `differs from ${own}: give one of them`, 'query');
  if (a !== undefined) return { value: a, field: own };
  return b === undefined ? undefined : { value: b, field: common };
}

/** What a list answers beside its items and total: whether more follow, and the cursor to them. */
export const cursorAnswer = {
  totalIsEstimate: z.boolean().meta({
    description:
      'True when `total` was counted only up to 10,000 (a sync with `updatedSince`, or a walk by cursor) and more match: `total` is then 10,000, a lower bound',
  }),
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
  /** `created`: the last record's creation time. */
  t?: string;
  /** `created`, on lists ordered by a number after the time: that number. */
  q?: string;
  /** `updated`: the last record's change transaction. */
  x?: string;
  i: string;
  s?: string;
  /** Hash of the filters the walk was asked with (`-`: none; absent in cursors made before filters were bound). */
  f?: string;
}

function filterHash(filters: CursorFilters): string {
  const entries = Object.entries(filters)
    .filter(([, v]) => v !== undefined && v !== null)
    .sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return '-';
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 12);
}

/** The cursor text: opaque to clients (base64url of the list, order, last record's key, since, filters). */
function encodeCursor(
  list: string,
  order: KeysetOrder,
  key: KeyOf,
  since: Date | undefined,
  f?: string,
): string {
  if (order === 'updated' && key.txid === undefined)
    throw new Error(`${list}: a sync row without change_txid`);
  const body: Encoded = {
    l: list,
    o: order,
    ...(order === 'updated'
      ? { x: String(key.txid) }
      : { t: key.at.toISOString(), ...(key.seq !== undefined ? { q: String(key.seq) } : {}) }),
    i: key.id,
    ...(since ? { s: since.toISOString() } : {}),
    f,
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

const optionalIso = (v: unknown) => v === undefined || (typeof v === 'string' && inRange(v));

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
    !optionalIso(b.t) ||
    (b.x !== undefined && (typeof b.x !== 'string' || !/^\d{1,19}$/.test(b.x))) ||
    (b.q !== undefined && (typeof b.q !== 'string' || !/^\d{1,18}$/.test(b.q))) ||
    (b.o === 'created' && b.t === undefined) ||
    (b.o === 'updated' && b.x === undefined && b.t === undefined) ||
    typeof b.i !== 'string' ||
    !isId(b.i) ||
    !optionalIso(b.s) ||
    (b.f !== undefined && typeof b.f !== 'string')
  )
    throw badCursor();
  return b as Encoded;
}

/**
 * The keyset a list request asks for, or null for the classic `page`/`limit`. A cursor carries its
 * order and `updatedSince`; an `updatedSince` given beside a cursor must be the same, and so must the
 * list's filters.
 */
export function keysetOf(
  list: string,
  query: { updatedSince?: string; startingAfter?: string; page?: number },
  filters: CursorFilters = {},
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
  if (c.f !== undefined && c.f !== filterHash(filters))
    throw BadRequest.field(
      'startingAfter',
      'was made for other filters: ask with the filters of the first page, or start again without it',
      'query',
    );
  const cursorSince = c.s !== undefined ? new Date(c.s) : undefined;
  if (since && cursorSince?.getTime() !== since.getTime())
    throw BadRequest.field(
      'updatedSince',
      'differs from the one the cursor was made with: leave it out',
      'query',
    );
  if (c.o === 'updated' && c.x === undefined) {
    // A sync cursor from before syncs read in commit order: go on from its moment (a few records
    // may come again; a sync takes a record it already has as an update).
    return { order: 'updated', since: cursorSince, from: new Date(c.t as string) };
  }
  return {
    order: c.o,
    since: cursorSince,
    after: c.o === 'updated' ? { txid: c.x, id: c.i } : { at: new Date(c.t as string), seq: c.q, id: c.i },
  };
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
  keyOf: (row: T) => KeyOf,
  opts: { since?: Date; askedWith?: string; filters?: CursorFilters } = {},
): { items: T[]; hasMore: boolean; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items,
    hasMore: rows.length > limit,
    nextCursor: last
      ? encodeCursor(list, order, keyOf(last), opts.since, filterHash(opts.filters ?? {}))
      : (opts.askedWith ?? null),
  };
}

/**
 * The query of a list that answers everything by default (users, keys, clients, providers, portfolios,
 * webhooks, templates): with `limit`, `startingAfter` or `updatedSince` it pages by cursor instead.
 */
export const walkQuery = {
  ...cursorQuery,
  limit: z.coerce.number().int().min(1).max(100).optional().meta({
    description:
      'Page by cursor, this many a page (1–100; default 100 with `startingAfter` or `updatedSince`): newest first, or with `updatedSince` oldest change first. Without `limit`, `startingAfter` and `updatedSince`, the whole list in its usual order',
  }),
};

/** One page of a walk: its keyset and size. */
export interface Walk {
  keyset: Keyset;
  limit: number;
}

/** The walk a list request asks for, or null for the whole list (see walkQuery). */
export function walkOf(
  list: string,
  query: { updatedSince?: string; startingAfter?: string; limit?: number },
  filters: CursorFilters = {},
): Walk | null {
  const keyset = keysetOf(list, query, filters) ?? (query.limit !== undefined ? { order: 'created' } : null);
  return keyset ? { keyset, limit: query.limit ?? 100 } : null;
}

/** A list's answer beside its items: the total and the cursor fields (none for the whole list). */
export function walkAnswer<T>(
  list: string,
  rows: T[],
  total: number,
  walk: Walk | null,
  keyOf: (row: T) => KeyOf,
  opts: { askedWith?: string; filters?: CursorFilters } = {},
): { items: T[]; total: number; totalIsEstimate: boolean; hasMore: boolean; nextCursor: string | null } {
  if (!walk)
    return { items: rows, total: rows.length, totalIsEstimate: false, hasMore: false, nextCursor: null };
  const page = keysetPage(list, rows, walk.limit, walk.keyset.order, keyOf, {
    since: walk.keyset.since,
    askedWith: opts.askedWith,
    filters: opts.filters,
  });
  return {
    items: page.items,
    total: Math.min(total, SYNC_TOTAL_CAP),
    totalIsEstimate: total > SYNC_TOTAL_CAP,
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
  };
}

/** What a list that answers everything by default takes (see walkQuery). */
export type WalkQuery = { updatedSince?: string; startingAfter?: string; limit?: number };

/** Where a table row stands in a walk (rows read with their change transaction). */
export const rowKey = (row: { createdAt: Date; changeTxid?: string; id: string }): KeyOf => ({
  at: row.createdAt,
  txid: row.changeTxid,
  id: row.id,
});

/** walkOf and walkAnswer for one list: the answer's cursor fields beside the items (renamed by the caller). */
export function walking(list: string, query: WalkQuery, filters: CursorFilters = {}) {
  const walk = walkOf(list, query, filters);
  return {
    walk,
    answer: <T extends { createdAt: Date; changeTxid?: string; id: string }>(rows: T[], total: number) =>
      walkAnswer(list, rows, total, walk, rowKey, { askedWith: query.startingAfter, filters }),
  };
}
