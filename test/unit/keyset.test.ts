import { sql } from 'drizzle-orm';
import { bigint, PgDialect, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { cappedCount, keysetColumnsOf, keysetSql } from '../../src/platform/db/keyset';
import { keysetOf, keysetPage } from '../../src/platform/lists/cursor';

// A table of the usual shape, only to render the SQL a keyset page reads with (nothing is run).
const things = pgTable('things', {
  id: uuid('id').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  changeTxid: text('change_txid').notNull(),
  eventSeq: bigint('event_seq', { mode: 'bigint' }).notNull(),
});
const columns = keysetColumnsOf(things);
const dialect = new PgDialect();
const render = (keyset: Parameters<typeof keysetSql>[0], cols = columns) => {
  const { where, orderBy } = keysetSql(keyset, cols);
  const q = dialect.sqlToQuery(where);
  return { where: q.sql, params: q.params, orderBy: orderBy.map((o) => dialect.sqlToQuery(o).sql) };
};

const ID = '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b';
const AT = new Date('2026-03-02T09:00:00.000Z');
const SETTLED = '"things"."change_txid" < pg_snapshot_xmin(pg_current_snapshot())';

describe('the SQL of a keyset page (keysetSql)', () => {
  it('when a walk starts, then every row is read newest first (creation time, then id)', () => {
    expect(render({ order: 'created' })).toEqual({
      where: 'TRUE',
      params: [],
      orderBy: ['"things"."created_at" desc', '"things"."id" desc'],
    });
  });

  it('when a walk goes on after a record, then it reads the rows strictly before it, its values as parameters', () => {
    expect(render({ order: 'created', after: { at: AT, id: ID } })).toEqual({
      where: '("things"."created_at", "things"."id") < ($1::timestamptz, $2::uuid)',
      params: ['2026-03-02T09:00:00.000Z', ID],
      orderBy: ['"things"."created_at" desc', '"things"."id" desc'],
    });
  });

  it('when a list orders by a number after the time, then the number is in the comparison and the order', () => {
    const withSeq = { ...columns, seq: things.eventSeq };
    expect(render({ order: 'created', after: { at: AT, seq: '5', id: ID } }, withSeq)).toEqual({
      where:
        '("things"."created_at", "things"."event_seq", "things"."id") < ($1::timestamptz, $2::bigint, $3::uuid)',
      params: ['2026-03-02T09:00:00.000Z', '5', ID],
      orderBy: ['"things"."created_at" desc', '"things"."event_seq" desc', '"things"."id" desc'],
    });
    // A cursor made before the list ordered by the number goes on after every row of its moment's id.
    expect(render({ order: 'created', after: { at: AT, id: ID } }, withSeq).params).toEqual([
      '2026-03-02T09:00:00.000Z',
      '9223372036854775807',
      ID,
    ]);
  });

  it('when a sync starts, then it reads settled changes only, oldest transaction first, from the first change since the moment', () => {
    expect(render({ order: 'updated' })).toEqual({
      where: SETTLED,
      params: [],
      orderBy: ['"things"."change_txid" asc', '"things"."id" asc'],
    });
    const since = render({ order: 'updated', since: new Date('2026-03-01T00:00:00Z') });
    expect(since.where).toBe(
      `${SETTLED} AND "things"."change_txid" >= (SELECT s.x FROM (SELECT "things"."change_txid" AS x FROM "things" WHERE "things"."updated_at" >= $1::timestamptz OFFSET 0) s ORDER BY s.x LIMIT 1)`,
    );
    expect(since.params).toEqual(['2026-03-01T00:00:00.000Z']);
  });

  it('when a sync cursor of the first release names a moment, then the sync starts from it rather than updatedSince', () => {
    const from = render({
      order: 'updated',
      since: new Date('2026-03-01T00:00:00Z'),
      from: new Date('2026-02-01T00:00:00Z'),
    });
    expect(from.params).toEqual(['2026-02-01T00:00:00.000Z']);
  });

  it('when a sync goes on after a change, then it reads the changes after that transaction and id', () => {
    expect(
      render({ order: 'updated', since: new Date('2026-03-01T00:00:00Z'), after: { txid: '77', id: ID } }),
    ).toEqual({
      where: `${SETTLED} AND ("things"."change_txid", "things"."id") > ($1::xid8, $2::uuid)`,
      params: ['77', ID],
      orderBy: ['"things"."change_txid" asc', '"things"."id" asc'],
    });
  });

  it('when a cursor made by keysetPage is read back by keysetOf, then the next page starts exactly after its last row', () => {
    const page = keysetPage('things', [{ id: ID }], 1, 'created', (r) => ({ at: AT, id: r.id }));
    const keyset = keysetOf('things', { startingAfter: page.nextCursor! });
    expect(render(keyset!).params).toEqual(['2026-03-02T09:00:00.000Z', ID]);
  });
});

describe('a capped count (cappedCount)', () => {
  it('when a total is counted, then at most one more than the cap is read', () => {
    const q = dialect.sqlToQuery(cappedCount(sql`${things}`, sql`"things"."id" IS NOT NULL`, 10_000));
    expect(q.sql).toBe(
      'SELECT count(*) AS n FROM (SELECT 1 FROM "things" WHERE "things"."id" IS NOT NULL LIMIT $1) c',
    );
    expect(q.params).toEqual([10_001]);
    expect(dialect.sqlToQuery(cappedCount(sql`${things}`, undefined, 5)).sql).toContain(
      'WHERE TRUE LIMIT $1',
    );
  });
});
