// The bench's yardstick: a plain node:http handler that runs the same SQL as GET /api/v1/customers
// with pg (server) or PGlite (embedded), and answers the same JSON, with no framework, auth or tenancy.
import http from 'node:http';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { customerStatements, searchTerms } from '../src/modules/customers/customers.repository';
import { customerTotalStatement } from '../src/modules/portfolios/portfolios.repository';
import { systemContext } from '../src/platform/kernel/context';
import { keysetOf } from '../src/platform/lists/cursor';
import { openBareDatabase } from './support/bare-database';

const dialect = new PgDialect();
const compile = (statement: SQL) => dialect.sqlToQuery(statement);

async function main() {
  const organisationId = process.env.ORG_ID as string;
  // The search functions read the organisation from this setting; the bare server serves one organisation.
  const { query } = await openBareDatabase({ 'app.organisation_id': organisationId });
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
