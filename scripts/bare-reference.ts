// The bench's yardstick: a plain node:http handler that runs the same SQL as GET /api/v1/customers
// with pg (server) or PGlite (embedded), and answers the same JSON, with no framework, auth or tenancy.
import http from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { customerStatements, searchTerms } from '../src/modules/customers/customers.repository';
import { customerTotalStatement } from '../src/modules/portfolios/portfolios.repository';
import { systemContext } from '../src/platform/kernel/context';
import { keysetOf } from '../src/platform/lists/cursor';

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

const dialect = new PgDialect();
const compile = (statement: SQL) => dialect.sqlToQuery(statement);

async function open(): Promise<Query> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
    // The search functions read the organisation from this setting; the bare server serves one organisation.
    pool.on('connect', (c) => {
      c.query(`SELECT set_config('app.organisation_id', $1, false)`, [process.env.ORG_ID]).catch(
        () => undefined,
      );
    });
    return async (text, params) => {
      const client = await pool.connect();
      try {
        return (await client.query(text, params)).rows;
      } finally {
        client.release();
      }
    };
  }
  const db = await PGlite.create({ dataDir: process.env.PGDATA_DIR, extensions: { pg_trgm, btree_gin } });
  await db.query(`SELECT set_config('app.organisation_id', $1, false)`, [process.env.ORG_ID]);
  return async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows;
}

async function main() {
  const query = await open();
  const organisationId = process.env.ORG_ID as string;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 25);
    const search = url.searchParams.get('search') ?? undefined;
    const startingAfter = url.searchParams.get('startingAfter') ?? undefined;
    // The API's own statements, sent the ordinary way: one parameterised query each.
    const ctx = systemContext(organisationId);
    const keyset = startingAfter ? keysetOf('customers', { startingAfter }) : null;
    const list = compile(
      keyset
        ? customerStatements.keyset(ctx, { search }, keyset, limit)
        : customerStatements.page(ctx, { search }, { page, limit }),
    );
    const count = compile(
      searchTerms(search).length > 0
        ? customerStatements.count(ctx, { search })
        : customerTotalStatement(ctx),
    );
    const rows = (await query(list.sql, list.params)).slice(0, limit);
    const totalRows = await query(count.sql, count.params);
    const total = Number(totalRows[0]?.n ?? 0);
    const body = JSON.stringify({
      customers: rows.map((r) => ({
        _id: r.id,
        thirdpartyId: r.thirdparty_id,
        portfolio: r.portfolio_id,
        data: r.data,
        createdAt: new Date(r.created_at as string).toISOString(),
        updatedAt: new Date(r.updated_at as string).toISOString(),
      })),
      total,
    });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  });
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
}

main().catch((err) => {
  process.stderr.write(`${err}\n`);
  process.exit(1);
});
