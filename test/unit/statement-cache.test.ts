import { sql } from 'drizzle-orm';
import { StatementCache } from '../../src/platform/db/statement-cache';

const insert = (name: string, count: number) =>
  sql`INSERT INTO portfolios (id, name, customer_count) VALUES (${'0193aa3c-1111-7000-8000-000000000001'}::uuid, ${name}, ${count})`;

describe('prepared statements per connection', () => {
  it('when a connection runs a write for the first time, then it prepares it; the next time it only executes it, with every value quoted', () => {
    const cache = new StatementCache(true);
    const connection = {};
    const first = cache.simpleText(connection, insert("O'Brien", 3));
    const [prepare, execute] = first.split(';\n');
    expect(prepare).toMatch(
      /^PREPARE adkh_[\w$]{27} AS INSERT INTO portfolios \(id, name, customer_count\) VALUES \(\$1::uuid, \$2, \$3\)$/,
    );
    const name = /^PREPARE (\S+)/.exec(prepare!)![1];
    expect(execute).toBe(`EXECUTE ${name}('0193aa3c-1111-7000-8000-000000000001', 'O''Brien', '3')`);
    expect(cache.simpleText(connection, insert('Other', 4))).toBe(
      `EXECUTE ${name}('0193aa3c-1111-7000-8000-000000000001', 'Other', '4')`,
    );
    // Another connection has prepared nothing yet.
    expect(cache.simpleText({}, insert('Other', 4))).toMatch(/^PREPARE /);
  });

  it('when the cache is off (a transaction-pooling proxy) or the statement is a utility command, then it is sent with its values inlined', () => {
    expect(new StatementCache(false).simpleText({}, insert('A', 1))).toBe(
      "INSERT INTO portfolios (id, name, customer_count) VALUES ('0193aa3c-1111-7000-8000-000000000001'::uuid, 'A', 1)",
    );
    const cache = new StatementCache(true);
    expect(cache.simpleText({}, sql`SET LOCAL app.audit_rows = ${'off'}`)).toBe(
      "SET LOCAL app.audit_rows = 'off'",
    );
    expect(cache.protocolName({}, 'SAVEPOINT sp1')).toBeUndefined();
    expect(new StatementCache(false).protocolName({}, 'SELECT 1')).toBeUndefined();
  });

  it('when one text is asked for twice, then it has one protocol name, the same on every connection', () => {
    const cache = new StatementCache(true);
    const a = cache.protocolName({}, 'SELECT 1');
    expect(a).toMatch(/^adkp_[\w$]{27}$/);
    expect(cache.protocolName({}, 'SELECT 1')).toBe(a);
    expect(cache.protocolName({}, 'SELECT 2')).not.toBe(a);
  });

  it('when a connection has prepared 100 statements, then further texts run unprepared', () => {
    const cache = new StatementCache(true);
    const connection = {};
    for (let i = 0; i < 100; i++) expect(cache.protocolName(connection, `SELECT ${i}`)).toBeDefined();
    expect(cache.protocolName(connection, 'SELECT 100')).toBeUndefined();
    expect(cache.protocolName(connection, 'SELECT 7')).toBeDefined();
    expect(cache.simpleText(connection, insert('A', 1))).toMatch(/^INSERT INTO portfolios/);
  });

  it('when a message that prepared statements fails, then the connection is not to be used again', () => {
    const cache = new StatementCache(true);
    const connection = {};
    cache.simpleText(connection, insert('A', 1));
    expect(cache.usable(connection)).toBe(true);
    cache.failed(connection);
    expect(cache.usable(connection)).toBe(false);
    expect(cache.usable({})).toBe(true);
  });
});
