import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { jobs } from '../../src/db/schema';
import { slot, statementShape, statementShapes } from '../../src/platform/db/statement-shape';

// A statement shape renders once and fills in values at each call (src/platform/db/statement-shape.ts):
// what it runs must be exactly what drizzle renders for the same statement built with the values.

const dialect = new PgDialect();
// Only renders statements (never connects): the query builder needs a database object.
const db = drizzle.mock();

const job = (id: unknown, payload: unknown, runAt: unknown, subjectId: unknown) =>
  db
    .insert(jobs)
    .values({
      id: id as string,
      organisationId: '01a21864-2071-7289-9dac-931c668915c7',
      kind: 'notification',
      subjectId: subjectId as string,
      payload: payload as Record<string, unknown>,
      status: 'pending',
      runAt: runAt as Date,
      maxAttempts: 8,
      createdAt: new Date('2026-11-26T10:00:00.000Z'),
    })
    .getSQL();

describe('statement shapes', () => {
  const values = {
    id: '01a21869-38fb-721d-9cf9-80807001bd66',
    payload: { channel: 'email', purpose: "it's" },
    runAt: new Date('2026-11-26T10:00:01.000Z'),
    subjectId: null,
  };
  const shape = statementShape(() => job(slot('id'), slot('payload'), slot('runAt'), slot('subjectId')));

  it('when a shape is filled, then its text and parameters are those of the statement built with the values', () => {
    const direct = dialect.sqlToQuery(job(values.id, values.payload, values.runAt, values.subjectId));
    const filled = dialect.sqlToQuery(shape(values));
    expect(filled).toEqual({ sql: direct.sql, params: direct.params });
    // Each column's encoder still maps its value: the date as ISO text, the payload as JSON.
    expect(filled.params).toEqual(
      expect.arrayContaining(['2026-11-26T10:00:01.000Z', JSON.stringify(values.payload)]),
    );
    expect(filled.params).toContain(null);
  });

  it('when a shape is filled again, then the new values come out and the earlier ones are untouched', () => {
    const first = dialect.sqlToQuery(shape(values));
    const second = dialect.sqlToQuery(shape({ ...values, id: '01a21869-38fb-721d-9cf9-80807001bd67' }));
    expect(second.sql).toBe(first.sql);
    expect(first.params).toContain(values.id);
    expect(second.params).toContain('01a21869-38fb-721d-9cf9-80807001bd67');
    expect(second.params).not.toContain(values.id);
  });

  it('when a value is missing, then the shape throws naming it, instead of running the statement with null', () => {
    const { payload: _payload, ...without } = values;
    expect(() => shape(without)).toThrow('statement shape: no value for payload');
  });

  it('when shapes are kept by key, then each key is built once and keys do not share a text', () => {
    const shapes = statementShapes();
    let builds = 0;
    const build = (n: number) => () => {
      builds += 1;
      return sql`SELECT ${slot('a')}::integer + ${n}`;
    };
    const one = shapes('one', build(1));
    expect(shapes('one', build(1))).toBe(one);
    const two = shapes('two', build(2));
    expect(dialect.sqlToQuery(one({ a: 5 }))).toEqual({ sql: 'SELECT $1::integer + $2', params: [5, 1] });
    expect(dialect.sqlToQuery(two({ a: 5 })).params).toEqual([5, 2]);
    dialect.sqlToQuery(one({ a: 6 }));
    expect(builds).toBe(2);
  });
});
