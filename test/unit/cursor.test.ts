import { BadRequest } from '../../src/platform/kernel/errors';
import { z } from '../../src/platform/kernel/zod';
import {
  eitherOf,
  type KeyOf,
  keysetOf,
  keysetPage,
  rowKey,
  SYNC_TOTAL_CAP,
  walkAnswer,
  walking,
  walkOf,
} from '../../src/platform/lists/cursor';
import { offsetOf, pageQuery } from '../../src/platform/lists/pagination';

const ID_1 = '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b';
const ID_2 = '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7c';
const AT_1 = new Date('2026-03-02T09:00:00.000Z');

interface Row {
  id: string;
  createdAt: Date;
  changeTxid?: string;
}
const row = (id: string, createdAt = AT_1, changeTxid?: string): Row => ({ id, createdAt, changeTxid });
const keyOf = (r: Row): KeyOf => rowKey(r);

/** The cursor of a page that ends at `last` (what a client gets as nextCursor). */
function cursorAfter(
  list: string,
  last: Row,
  order: 'created' | 'updated' = 'created',
  opts: Parameters<typeof keysetPage>[5] = {},
): string {
  const page = keysetPage(list, [last], 1, order, keyOf, opts);
  if (!page.nextCursor) throw new Error('no cursor');
  return page.nextCursor;
}

const decode = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
const encode = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');

/** The error keysetOf throws, or a failure when it throws none. */
function refusal(fn: () => unknown): BadRequest {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BadRequest);
    return err as BadRequest;
  }
  throw new Error('nothing was refused');
}

describe('keyset cursors (keysetOf, keysetPage)', () => {
  it('when neither a cursor nor updatedSince is given, then the list pages classically (null)', () => {
    expect(keysetOf('customers', {})).toBeNull();
    expect(keysetOf('customers', { page: 3 })).toBeNull();
  });

  it('when only updatedSince is given, then the list is a sync from that moment, oldest change first', () => {
    expect(keysetOf('customers', { updatedSince: '2026-03-01T00:00:00Z' })).toEqual({
      order: 'updated',
      since: new Date('2026-03-01T00:00:00Z'),
    });
  });

  it('when a page ends at a record, then its cursor leads to the records after that record, newest first', () => {
    const cursor = cursorAfter('customers', row(ID_1));
    expect(keysetOf('customers', { startingAfter: cursor })).toEqual({
      order: 'created',
      since: undefined,
      after: { at: AT_1, seq: undefined, id: ID_1 },
    });
  });

  it('when a list orders by a number after the time, then the cursor carries that number as text', () => {
    const page = keysetPage('deliveries', [{ id: ID_1 }], 10, 'created', (r) => ({
      at: AT_1,
      seq: 42,
      id: r.id,
    }));
    expect(keysetOf('deliveries', { startingAfter: page.nextCursor! })).toEqual({
      order: 'created',
      since: undefined,
      after: { at: AT_1, seq: '42', id: ID_1 },
    });
  });

  it('when a sync page ends at a change, then its cursor carries the change transaction and updatedSince', () => {
    const since = new Date('2026-03-01T00:00:00Z');
    const cursor = cursorAfter('customers', row(ID_1, AT_1, '987654'), 'updated', { since });
    expect(keysetOf('customers', { startingAfter: cursor })).toEqual({
      order: 'updated',
      since,
      after: { txid: '987654', id: ID_1 },
    });
    // Given again beside the cursor, the same moment (written another way) is accepted…
    expect(
      keysetOf('customers', { startingAfter: cursor, updatedSince: '2026-03-01T01:00:00+01:00' }),
    ).toEqual({ order: 'updated', since, after: { txid: '987654', id: ID_1 } });
    // …another is refused, naming updatedSince.
    const err = refusal(() =>
      keysetOf('customers', { startingAfter: cursor, updatedSince: '2026-03-01T00:00:01Z' }),
    );
    expect(err.details).toEqual([
      {
        field: 'updatedSince',
        in: 'query',
        message: 'differs from the one the cursor was made with: leave it out',
      },
    ]);
  });

  it('when a sync row has no change transaction, then no cursor is made for it (a programming error)', () => {
    expect(() => cursorAfter('customers', row(ID_1), 'updated')).toThrow(
      'customers: a sync row without change_txid',
    );
  });

  it('when a cursor of one list is given to another, then it is refused naming startingAfter', () => {
    const err = refusal(() => keysetOf('portfolios', { startingAfter: cursorAfter('customers', row(ID_1)) }));
    expect(err.status).toBe(400);
    expect(err.details).toEqual([
      {
        field: 'startingAfter',
        in: 'query',
        message: 'is not a cursor of this list: pass the nextCursor of the previous answer',
      },
    ]);
  });

  it('when a cursor is used with other filters than its first page, then it is refused; the same filters in any order are accepted', () => {
    const filters = { status: 'sent', q: 'jan', portfolioId: undefined };
    const cursor = cursorAfter('customers', row(ID_1), 'created', { filters });
    expect(keysetOf('customers', { startingAfter: cursor }, { q: 'jan', status: 'sent' })).not.toBeNull();
    // undefined and null filters are no filters
    expect(
      keysetOf('customers', { startingAfter: cursor }, { q: 'jan', status: 'sent', tag: null }),
    ).not.toBeNull();
    for (const other of [
      {},
      { q: 'jan' },
      { q: 'jan', status: 'opened' },
      { q: 'jan', status: 'sent', x: 1 },
    ]) {
      const err = refusal(() => keysetOf('customers', { startingAfter: cursor }, other));
      expect(err.details?.[0]).toMatchObject({
        field: 'startingAfter',
        message:
          'was made for other filters: ask with the filters of the first page, or start again without it',
      });
    }
    // A filter's value is bound as it was typed: 1 and '1' are different filters.
    const numeric = cursorAfter('customers', row(ID_1), 'created', { filters: { n: 1 } });
    expect(() => keysetOf('customers', { startingAfter: numeric }, { n: '1' })).toThrow(BadRequest);
    expect(keysetOf('customers', { startingAfter: numeric }, { n: 1 })).not.toBeNull();
  });

  it('when a cursor was made before filters were bound (no hash), then it is accepted with any filters', () => {
    const body = decode(cursorAfter('customers', row(ID_1)));
    delete body.f;
    expect(keysetOf('customers', { startingAfter: encode(body) }, { status: 'sent' })).toMatchObject({
      order: 'created',
      after: { id: ID_1 },
    });
  });

  it('when a sync cursor of the first release names a moment instead of a transaction, then the sync goes on from that moment', () => {
    const cursor = encode({ l: 'customers', o: 'updated', t: '2026-03-02T09:00:00.000Z', i: ID_1 });
    expect(keysetOf('customers', { startingAfter: cursor })).toEqual({
      order: 'updated',
      since: undefined,
      from: AT_1,
    });
  });

  it('when page > 1 is combined with a cursor or updatedSince, then it is refused naming page', () => {
    const cursor = cursorAfter('customers', row(ID_1));
    for (const query of [
      { startingAfter: cursor, page: 2 },
      { updatedSince: '2026-03-01T00:00:00Z', page: 2 },
    ]) {
      const err = refusal(() => keysetOf('customers', query));
      expect(err.details?.[0]).toMatchObject({ field: 'page', in: 'query' });
    }
    expect(keysetOf('customers', { startingAfter: cursor, page: 1 })).not.toBeNull();
  });

  const valid = () => decode(cursorAfter('customers', row(ID_1)));
  it.each<[string, (b: Record<string, unknown>) => unknown]>([
    ['its list is changed', (b) => ({ ...b, l: 'portfolios' })],
    ['its order is unknown', (b) => ({ ...b, o: 'random' })],
    ['its id is not one of ours', (b) => ({ ...b, i: '1 OR 1=1' })],
    ['its id is missing', (b) => ({ ...b, i: undefined })],
    ['its id is a number', (b) => ({ ...b, i: 7 })],
    ['its time is not a date', (b) => ({ ...b, t: 'yesterday' })],
    ['its time is past the year 9999', (b) => ({ ...b, t: '+010000-01-01T00:00:00.000Z' })],
    ['its time is missing in the created order', (b) => ({ ...b, t: undefined })],
    ['its number is not digits', (b) => ({ ...b, q: '1; DROP TABLE' })],
    ['its number is too long for a bigint', (b) => ({ ...b, q: '1'.repeat(19) })],
    ['its number is a JSON number', (b) => ({ ...b, q: 42 })],
    ['its transaction is not digits', (b) => ({ ...b, o: 'updated', x: '12a' })],
    ['its transaction has 20 digits', (b) => ({ ...b, o: 'updated', x: '1'.repeat(20) })],
    ['its updatedSince is not a date', (b) => ({ ...b, s: 'never' })],
    ['its filter hash is not text', (b) => ({ ...b, f: 12 })],
    ['it is an array', () => [1, 2]],
    ['it is null', () => null],
    ['it is a string', () => 'created'],
  ])('when a cursor is tampered with (%s), then it is refused', (_what, change) => {
    const err = refusal(() => keysetOf('customers', { startingAfter: encode(change(valid())) }));
    expect(err.details?.[0]).toMatchObject({ field: 'startingAfter', in: 'query' });
  });

  it.each([
    ['not base64 JSON', 'hello world'],
    ['empty', ''],
    ['truncated', 'eyJsIjoiY3VzdG9tZXJzIiwibyI6ImNyZWF0'],
  ])('when a cursor is %s, then it is refused, never a 500', (_what, text) => {
    expect(() => keysetOf('customers', { startingAfter: text })).toThrow(BadRequest);
  });

  it('when the largest transaction and number fit, then the cursor is accepted', () => {
    const b = valid();
    expect(keysetOf('customers', { startingAfter: encode({ ...b, q: '9'.repeat(18) }) })).toMatchObject({
      after: { seq: '9'.repeat(18) },
    });
    expect(
      keysetOf('customers', { startingAfter: encode({ ...b, o: 'updated', x: '9'.repeat(19) }) }),
    ).toMatchObject({ order: 'updated', after: { txid: '9'.repeat(19), id: ID_1 } });
  });
});

describe('pages of a walk (keysetPage)', () => {
  it('when one more row than the limit was read, then more follow and the cursor is the last row shown', () => {
    const rows = [row(ID_1), row(ID_2)];
    const page = keysetPage('customers', rows, 1, 'created', keyOf);
    expect(page.items).toEqual([rows[0]]);
    expect(page.hasMore).toBe(true);
    expect(decode(page.nextCursor!)).toMatchObject({ l: 'customers', o: 'created', i: ID_1 });
  });

  it('when the rows fit the limit, then none follow, yet the last page still has a cursor (a sync keeps it)', () => {
    const page = keysetPage('customers', [row(ID_1), row(ID_2)], 2, 'created', keyOf);
    expect(page.items).toHaveLength(2);
    expect(page.hasMore).toBe(false);
    expect(decode(page.nextCursor!)).toMatchObject({ i: ID_2 });
  });

  it('when a page is empty, then it answers the cursor it was asked with (or null), so a client keeps its place', () => {
    expect(keysetPage('customers', [], 10, 'created', keyOf, { askedWith: 'abc' })).toEqual({
      items: [],
      hasMore: false,
      nextCursor: 'abc',
    });
    expect(keysetPage('customers', [], 10, 'created', keyOf).nextCursor).toBeNull();
  });
});

describe('walks of lists that answer everything by default (walkOf, walkAnswer, walking)', () => {
  it('when no limit, cursor or updatedSince is given, then the whole list is answered', () => {
    expect(walkOf('users', {})).toBeNull();
    const rows = [row(ID_1), row(ID_2)];
    expect(walkAnswer('users', rows, 2, null, keyOf)).toEqual({
      items: rows,
      total: 2,
      totalIsEstimate: false,
      hasMore: false,
      nextCursor: null,
    });
  });

  it('when only a limit is given, then the walk is newest first with that page size; a cursor or sync defaults to 100', () => {
    expect(walkOf('users', { limit: 5 })).toEqual({ keyset: { order: 'created' }, limit: 5 });
    expect(walkOf('users', { updatedSince: '2026-03-01T00:00:00Z' })).toEqual({
      keyset: { order: 'updated', since: new Date('2026-03-01T00:00:00Z') },
      limit: 100,
    });
    expect(walkOf('users', { startingAfter: cursorAfter('users', row(ID_1)) })?.limit).toBe(100);
  });

  it('when more rows match than the cap, then the total is the cap and marked an estimate', () => {
    const walk = walkOf('users', { limit: 1 });
    const at = (total: number) => walkAnswer('users', [row(ID_1)], total, walk, keyOf);
    expect(at(SYNC_TOTAL_CAP)).toMatchObject({ total: 10_000, totalIsEstimate: false });
    expect(at(SYNC_TOTAL_CAP + 1)).toMatchObject({ total: 10_000, totalIsEstimate: true });
    expect(at(3)).toMatchObject({ total: 3, totalIsEstimate: false, hasMore: false });
  });

  it('when a walk is followed page by page, then each record comes once, in order, and the filters stay bound', () => {
    const all = [row(ID_2, new Date('2026-03-02T10:00:00Z')), row(ID_1, AT_1)];
    const filters = { status: 'active' };
    const first = walking('users', { limit: 1 }, filters);
    const page1 = first.answer(all.slice(0, 2), 2);
    expect(page1).toMatchObject({ items: [all[0]], hasMore: true });
    const second = walking('users', { limit: 1, startingAfter: page1.nextCursor! }, filters);
    expect(second.walk?.keyset).toEqual({
      order: 'created',
      since: undefined,
      after: { at: all[0]!.createdAt, seq: undefined, id: ID_2 },
    });
    const page2 = second.answer(all.slice(1), 1);
    expect(page2).toMatchObject({ items: [all[1]], hasMore: false });
    // The last page's empty successor keeps the cursor it was asked with.
    const third = walking('users', { limit: 1, startingAfter: page2.nextCursor! }, filters);
    expect(third.answer([], 0).nextCursor).toBe(page2.nextCursor);
    expect(() => walking('users', { startingAfter: page2.nextCursor! }, { status: 'deactivated' })).toThrow(
      BadRequest,
    );
  });
});

describe('one parameter under two names (eitherOf)', () => {
  it('when one name is given, then its value and name come back; none: undefined', () => {
    expect(eitherOf({ cursor: 'a' }, 'cursor', 'startingAfter')).toEqual({ value: 'a', field: 'cursor' });
    expect(eitherOf({ startingAfter: 'b' }, 'cursor', 'startingAfter')).toEqual({
      value: 'b',
      field: 'startingAfter',
    });
    expect(eitherOf({}, 'cursor', 'startingAfter')).toBeUndefined();
  });

  it('when both are given and agree, then the list’s own name is used; when they differ, the common name is refused', () => {
    expect(eitherOf({ cursor: 'a', startingAfter: 'a' }, 'cursor', 'startingAfter')).toEqual({
      value: 'a',
      field: 'cursor',
    });
    const err = refusal(() => eitherOf({ cursor: 'a', startingAfter: 'b' }, 'cursor', 'startingAfter'));
    expect(err.details).toEqual([
      { field: 'startingAfter', in: 'query', message: 'differs from cursor: give one of them' },
    ]);
  });

  it('when since and updatedSince write the same moment differently, then they agree; other parameters compare as text', () => {
    expect(
      eitherOf(
        { since: '2026-03-01T00:00:00Z', updatedSince: '2026-03-01T01:00:00+01:00' },
        'since',
        'updatedSince',
      ),
    ).toEqual({ value: '2026-03-01T00:00:00Z', field: 'since' });
    expect(() =>
      eitherOf(
        { since: '2026-03-01T00:00:00Z', updatedSince: '2026-03-01T00:00:01Z' },
        'since',
        'updatedSince',
      ),
    ).toThrow(BadRequest);
    expect(() =>
      eitherOf(
        { cursor: '2026-03-01T00:00:00Z', startingAfter: '2026-03-01T01:00:00+01:00' },
        'cursor',
        'startingAfter',
      ),
    ).toThrow(BadRequest);
  });
});

describe('classic pages (pageQuery, offsetOf)', () => {
  const Page = z.object(pageQuery);

  it('when nothing is given, then page 1 of 25; query text is read as numbers', () => {
    expect(Page.parse({})).toEqual({ page: 1, limit: 25 });
    expect(Page.parse({ page: '3', limit: '100' })).toEqual({ page: 3, limit: 100 });
  });

  it.each([
    [{ page: '0' }],
    [{ page: '-1' }],
    [{ page: '1.5' }],
    [{ page: '1000001' }],
    [{ page: 'two' }],
    [{ limit: '0' }],
    [{ limit: '101' }],
  ])('when %o is out of bounds, then it is refused', (query) => {
    expect(Page.safeParse(query).success).toBe(false);
  });

  it('when a page is asked, then it starts after the pages before it', () => {
    expect(offsetOf({ page: 1, limit: 25 })).toBe(0);
    expect(offsetOf({ page: 2, limit: 25 })).toBe(25);
    expect(offsetOf({ page: 7, limit: 10 })).toBe(60);
  });
});
