import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { apiKeyRepository } from '../src/modules/organisations/organisations.repository';
import { APP_ROLE, deferWrite, isoTimestamp, literal, queryRows, type Tx } from '../src/platform/db/database';
import { isUniqueViolation } from '../src/platform/db/errors';
import { DataDirInUseError } from '../src/platform/db/lock';
import { openDatabase } from '../src/platform/db/open';
import { HeldTransaction, holding, inTenant, inTenantOpening } from '../src/platform/db/tenant';
import { eventPageStatement } from '../src/platform/events/events.repository';
import { type RequestContext, systemContext } from '../src/platform/kernel/context';
import { newId } from '../src/platform/kernel/ids';
import { createOrg, createUserWithKey, type TestOrg, tenantRows } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { seedDataDir } from './support/spawned';

let h: Harness;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  await h
    .api()
    .post('/api/v1/customers')
    .set('x-api-key', org.adminKey)
    .send({ data: { Voornaam: 'Row' } });
});
afterAll(() => h.close());

const tenantTables = [
  'organisations',
  'organisation_logos',
  'organisation_seals',
  'users',
  'api_keys',
  'portfolios',
  'customers',
  'question_lists',
  'question_list_versions',
  'session_requests',
  'session_request_events',
  'jobs',
  'files',
  'file_contents',
  'file_pages',
  'sessions',
  'session_versions',
  'campaign_visitors',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
  'signers',
  'setups',
  'password_tokens',
  'oauth_clients',
  'oauth_tokens',
  'oauth_codes',
  'oauth_authorization_requests',
  'sso_providers',
  'test_messages',
  'sso_identities',
  'audit_events',
  'idempotency_keys',
];

describe('row-level security', () => {
  it('when a query runs without the organisation setting, then it sees no rows at all', async () => {
    for (const table of tenantTables) {
      const [row] = await queryRows<{ n: string }>(
        h.database.db,
        sql.raw(`SELECT count(*) AS n FROM ${table}`),
      );
      expect({ table, n: Number(row?.n) }).toEqual({ table, n: 0 });
    }
  });

  it('when the organisation is set, then only its rows are visible', async () => {
    const other = await createOrg(h);
    const seen = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ organisation_id: string }>(tx, sql`SELECT DISTINCT organisation_id FROM users`),
    );
    expect(seen.map((r) => r.organisation_id)).toEqual([org.organisationId]);
    expect(seen.map((r) => r.organisation_id)).not.toContain(other.organisationId);
  });

  it('when the search function runs, then it only ever returns the current organisation’s contacts', async () => {
    const other = await createOrg(h);
    await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', other.adminKey)
      .send({ data: { Voornaam: 'Row' } });
    const matches = (organisationId: string | null) =>
      h.database.db.transaction(async (tx) => {
        if (organisationId)
          await tx.execute(sql`SELECT set_config('app.organisation_id', ${organisationId}, true)`);
        return queryRows<{ id: string }>(
          tx,
          sql`SELECT id FROM actiondesk_customer_search(ARRAY['%row%'], NULL, NULL, 100, 0)`,
        );
      });
    const mine = await matches(org.organisationId);
    const theirs = await matches(other.organisationId);
    expect(mine).toHaveLength(1);
    expect(theirs).toHaveLength(1);
    expect(mine[0]?.id).not.toBe(theirs[0]?.id);
    expect(await matches(null)).toEqual([]);
    const [count] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ n: string }>(
        tx,
        sql`SELECT actiondesk_customer_search_count(ARRAY['%row%'], NULL, NULL) AS n`,
      ),
    );
    expect(Number(count?.n)).toBe(1);
  });

  it('when a write names another organisation, then the policy refuses it', async () => {
    const other = await createOrg(h);
    const attempt = inTenant(h.database, systemContext(org.organisationId), (tx) =>
      tx.execute(
        sql`INSERT INTO portfolios (id, organisation_id, name, created_at) VALUES (gen_random_uuid(), ${other.organisationId}, 'x', now())`,
      ),
    );
    await expect(attempt).rejects.toThrow();
  });

  it('when the app works, then it is neither superuser nor table owner, and every tenant table has a policy', async () => {
    const [me] = await queryRows<{ current_user: string; rolsuper: boolean; rolbypassrls: boolean }>(
      h.database.db,
      sql`SELECT current_user, r.rolsuper, r.rolbypassrls FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(me).toEqual({ current_user: APP_ROLE, rolsuper: false, rolbypassrls: false });
    const tables = await queryRows<{
      tablename: string;
      tableowner: string;
      rowsecurity: boolean;
      policies: string;
    }>(
      h.database.db,
      sql`SELECT t.tablename, t.tableowner, t.rowsecurity,
                 (SELECT count(*) FROM pg_policies p WHERE p.tablename = t.tablename)::text AS policies
          FROM pg_tables t
          WHERE t.schemaname = 'public'
            -- A staff session is found by (the hash of) its id before its organisation is known; its
            -- organisation_id only says whose session it is, to end all of a user's at once.
            AND t.tablename <> 'staff_sessions'
            AND (t.tablename = 'organisations' OR EXISTS (
              SELECT 1 FROM information_schema.columns c
              WHERE c.table_schema = 'public' AND c.table_name = t.tablename AND c.column_name = 'organisation_id'))`,
    );
    expect(tables.map((t) => t.tablename).sort()).toEqual([...tenantTables].sort());
    for (const t of tables) {
      expect({ table: t.tablename, rls: t.rowsecurity, policies: Number(t.policies) }).toEqual({
        table: t.tablename,
        rls: true,
        policies: 1,
      });
      expect(t.tableowner).not.toBe(APP_ROLE);
    }
  });
});

describe('keys for a database distributed by organisation', () => {
  it('when the schema is read, then every tenant table’s primary key and unique keys include organisation_id', async () => {
    // Citus can only enforce a key that includes the distribution column (docs/scaling.md).
    const keys = await queryRows<{ table: string; key: string; primary: boolean; columns: string[] }>(
      h.database.db,
      sql`SELECT t.relname AS table, k.relname AS key, i.indisprimary AS primary,
                 array(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY AS c(n, o)
                        JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = c.n ORDER BY c.o) AS columns
            FROM pg_index i
            JOIN pg_class t ON t.oid = i.indrelid
            JOIN pg_class k ON k.oid = i.indexrelid
            JOIN pg_namespace n ON n.oid = t.relnamespace
           WHERE n.nspname = 'public' AND i.indisunique AND t.relname = ANY (string_to_array(${tenantTables.join(',')}, ','))`,
    );
    const distributedBy = (table: string) => (table === 'organisations' ? 'id' : 'organisation_id');
    const primaries = keys.filter((k) => k.primary).map((k) => k.table);
    expect(primaries.sort()).toEqual([...tenantTables].sort());
    const without = keys.filter((k) => !k.columns.includes(distributedBy(k.table)));
    expect(without).toEqual([]);
    // Tables with an id are found by (organisation_id, id): the composite foreign keys point at it. The
    // queue tables' keys lead with the id (migration 0049); the others' with the organisation.
    const byId = keys.filter((k) => k.primary && k.columns.includes('id') && k.table !== 'organisations');
    const idFirst = ['events', 'jobs', 'webhook_deliveries'];
    for (const k of byId)
      expect({ table: k.table, columns: k.columns }).toEqual({
        table: k.table,
        columns: idFirst.includes(k.table) ? ['id', 'organisation_id'] : ['organisation_id', 'id'],
      });
    expect(byId.length).toBeGreaterThanOrEqual(23);
  });

  it('when an organisation takes a credential value another organisation holds, then the unique key refuses it, and frees it once removed', async () => {
    const other = await createOrg(h);
    const [mine] = await tenantRows<{ id: string; prefix: string }>(
      h,
      org.organisationId,
      sql`SELECT id, prefix FROM api_keys WHERE user_id = ${org.adminId} LIMIT 1`,
    );
    const insertInOther = () =>
      inTenant(h.database, systemContext(other.organisationId), (tx) =>
        tx.execute(
          sql`INSERT INTO api_keys (id, organisation_id, user_id, name, prefix, secret_hash, created_at)
              VALUES (gen_random_uuid(), ${other.organisationId}, ${other.adminId}, 'copy', ${mine!.prefix}, 'x', now())`,
        ),
      );
    const refused = await insertInOther().then(
      () => null,
      (err: unknown) => err,
    );
    expect(isUniqueViolation(refused, 'api_keys_prefix_key')).toBe(true);
    // The lookup finds the key's own organisation.
    const [found] = await queryRows<{ organisation_id: string }>(
      h.database.db,
      sql`SELECT organisation_id FROM actiondesk_find_api_key(${mine!.prefix})`,
    );
    expect(found?.organisation_id).toBe(org.organisationId);

    // The app's own insert answers "taken" (it then draws another prefix) and its transaction goes on.
    const ctx = systemContext(other.organisationId);
    const after = await inTenant(h.database, ctx, async (tx) => {
      const taken = await apiKeyRepository(tx, ctx).insert({
        id: '01900000-0000-7000-8000-0000000000aa',
        userId: other.adminId,
        name: 'copy',
        prefix: mine!.prefix,
        secretHash: 'x',
        createdAt: new Date(),
        createdBy: null,
      });
      const [n] = await queryRows<{ n: string }>(tx, sql`SELECT count(*) AS n FROM api_keys`);
      return { taken, keys: Number(n?.n) };
    });
    expect(after).toEqual({ taken: undefined, keys: 1 });

    const spare = await createUserWithKey(h, org, ['adviser']);
    const [spareKey] = await tenantRows<{ id: string; prefix: string }>(
      h,
      org.organisationId,
      sql`SELECT id, prefix FROM api_keys WHERE id = ${spare.keyId}`,
    );
    await tenantRows(
      h,
      org.organisationId,
      sql`DELETE FROM api_keys WHERE id = ${spareKey!.id} RETURNING id`,
    );
    await inTenant(h.database, systemContext(other.organisationId), (tx) =>
      tx.execute(
        sql`INSERT INTO api_keys (id, organisation_id, user_id, name, prefix, secret_hash, created_at)
            VALUES (gen_random_uuid(), ${other.organisationId}, ${other.adminId}, 'reuse', ${spareKey!.prefix}, 'x', now())`,
      ),
    );
    const [moved] = await queryRows<{ organisation_id: string }>(
      h.database.db,
      sql`SELECT organisation_id FROM actiondesk_find_api_key(${spareKey!.prefix})`,
    );
    expect(moved?.organisation_id).toBe(other.organisationId);
  });

  it('when the app reads the credential lookup table directly, then it is refused', async () => {
    const refused = await queryRows(h.database.db, sql`SELECT * FROM credential_keys`).catch(
      (err: Error) => err,
    );
    expect((refused as Error).cause).toMatchObject({
      code: '42501',
      message: 'permission denied for table credential_keys',
    });
  });
});

describe('embedded data directory', () => {
  it('when a second process-level open targets the same DATA_DIR, then it gets a clear error and the data stays intact', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-lock-'));
    const dataDir = path.join(dir, 'pgdata');
    const first = await openDatabase({ kind: 'embedded', dataDir, purpose: 'first' });
    try {
      await first.db.transaction(async (tx) => {
        await tx.execute(
          sql`SELECT set_config('app.organisation_id', '01900000-0000-7000-8000-000000000001', true)`,
        );
        await tx.execute(
          sql`INSERT INTO organisations (id, name, created_at) VALUES ('01900000-0000-7000-8000-000000000001', 'Kept', now())`,
        );
      });
      // The lock file names this (live) process; a second opener must refuse rather than share the files.
      fs.writeFileSync(
        path.join(dir, 'actiondesk.lock'),
        JSON.stringify({ pid: process.ppid, purpose: 'server on port 3000' }),
      );
      const second = openDatabase({ kind: 'embedded', dataDir, purpose: 'second' });
      await expect(second).rejects.toThrow(DataDirInUseError);
      await expect(second).rejects.toThrow(/in use by process \d+ \(server on port 3000\)/);
      fs.writeFileSync(
        path.join(dir, 'actiondesk.lock'),
        JSON.stringify({ pid: process.pid, purpose: 'first' }),
      );
    } finally {
      await first.close();
    }
    expect(fs.existsSync(path.join(dir, 'actiondesk.lock'))).toBe(false);
    // A lock left by a process that has gone is taken over, and the data written before is all there.
    fs.writeFileSync(
      path.join(dir, 'actiondesk.lock'),
      JSON.stringify({ pid: 999_999_999, purpose: 'crashed' }),
    );
    const reopened = await openDatabase({ kind: 'embedded', dataDir, purpose: 'reopen' });
    try {
      const names = await inTenant(reopened, systemContext('01900000-0000-7000-8000-000000000001'), (tx) =>
        queryRows<{ name: string }>(tx, sql`SELECT name FROM organisations`),
      );
      expect(names).toEqual([{ name: 'Kept' }]);
    } finally {
      await reopened.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('planner statistics', () => {
  it('when an embedded database on disk starts, then every table of the service is analysed (PGlite runs no autovacuum)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-analyse-'));
    seedDataDir(dir);
    const before = new Date();
    const database = await openDatabase({
      kind: 'embedded',
      dataDir: path.join(dir, 'pgdata'),
      purpose: 'test',
    });
    try {
      const tables = await database.ownerTransaction((tx) =>
        queryRows<{ name: string; analysed: string | null }>(
          tx,
          sql`SELECT schemaname || '.' || relname AS name, last_analyze AS analysed FROM pg_stat_user_tables`,
        ),
      );
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['public.customers', 'public.jobs']));
      const stale = tables.filter((t) => !t.analysed || new Date(isoTimestamp(t.analysed)) < before);
      expect(stale).toEqual([]);
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lookups by primary key', () => {
  // A row is found by (organisation_id, id): every composite foreign key's check asks exactly that. For an
  // organisation the statistics have not seen, the planner estimates under one row for "organisation_id =
  // X" alone, so a unique key that starts with organisation_id costs the same as the primary key and won
  // the tie: each check then read all of the organisation's rows (an action's history row took 0.3 ms
  // after 2,000 actions, and grew with every one).
  const planOf = async (tx: Tx, table: string) => {
    const [row] = await queryRows<Record<string, unknown>>(
      tx,
      sql.raw(
        `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${table} WHERE organisation_id = '${newId()}' AND id = '${newId()}'`,
      ),
    );
    // The column is named "QUERY PLAN"; PGlite gives it parsed, pg as text.
    const value = Object.values(row!)[0];
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return {
      index: /"Index Name":\s*"([^"]+)"/.exec(text)?.[1],
      cond: /"Index Cond":\s*"([^"]+)"/.exec(text)?.[1] ?? '',
    };
  };

  it('when a table is new, then a row of an unseen organisation is found by its primary key', async () => {
    const tables = await queryRows<{ name: string }>(
      h.database.db,
      sql`SELECT t.relname AS name FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = 'public' AND i.indisprimary AND i.indnatts = 2
            AND (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
                  WHERE a.attrelid = t.oid AND a.attnum = ANY (i.indkey)) @> ARRAY['id', 'organisation_id']`,
    );
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['session_requests', 'signers', 'oauth_codes']),
    );
    const wrong = await h.database.ownerTransaction(async (tx) => {
      const found: Array<{ table: string; index?: string; cond: string }> = [];
      for (const { name } of tables) {
        await tx.execute(
          sql.raw(`CREATE TEMP TABLE copy_${name} (LIKE ${name} INCLUDING INDEXES) ON COMMIT DROP`),
        );
        const plan = await planOf(tx, `copy_${name}`);
        if (!/\(id = /.test(plan.cond)) found.push({ table: name, ...plan });
      }
      return found;
    });
    expect(wrong).toEqual([]);
  });

  it('when an organisation has thousands of actions and the statistics know them, then a new organisation’s action is found by its primary key', async () => {
    const plan = await h.database.ownerTransaction(async (tx) => {
      await tx.execute(
        sql.raw(
          'CREATE TEMP TABLE copy_actions (LIKE session_requests INCLUDING DEFAULTS INCLUDING INDEXES) ON COMMIT DROP',
        ),
      );
      await tx.execute(sql`INSERT INTO copy_actions (id, organisation_id, code, type, status, question_list_ids,
                             question_list_versions, language, notify_email, notify_sms, created_at, updated_at)
                           SELECT gen_random_uuid(), ${org.organisationId}::uuid, 'code' || g, 'qlist', 'sent', '{}', '{}', 'nl',
                                  true, false, now(), now()
                             FROM generate_series(1, 3000) g`);
      await tx.execute(sql.raw('ANALYZE copy_actions'));
      return planOf(tx, 'copy_actions');
    });
    expect(plan.index).toMatch(/pkey/);
    expect(plan.cond).toMatch(/\(id = /);
  });
});

describe('pages in index order', () => {
  // A page reads the first rows of an index in its order and stops. With the queue tables' policy
  // compared as text and no statistics on organisation_id, the planner took the policy's condition and
  // the page's own "organisation_id = X" as independent, expected one row, and read all 41,000 events of
  // an organisation to sort them (84 ms for the events page after the soak; migration 0049).
  const planOfPage = async (rows: number, others: number) => {
    const other = await createOrg(h);
    const orgs = [org.organisationId, other.organisationId];
    await h.database.ownerTransaction(async (tx) => {
      for (const [organisationId, n] of [
        [org.organisationId, rows],
        [other.organisationId, others],
      ] as const)
        await tx.execute(sql`INSERT INTO events (id, organisation_id, type, subject_id, data, created_at)
                             SELECT gen_random_uuid(), ${organisationId}::uuid, 'customer.created', NULL, '{}', now()
                               FROM generate_series(1, ${n}::integer)`);
    });
    try {
      await h.database.ownerTransaction((tx) => tx.execute(sql.raw('ANALYZE events')));
      const ctx = systemContext(org.organisationId);
      const [row] = await inTenant(h.database, ctx, (tx) =>
        queryRows<Record<string, unknown>>(tx, sql`EXPLAIN (FORMAT JSON) ${eventPageStatement(ctx, {}, 50)}`),
      );
      // The column is named "QUERY PLAN"; PGlite gives it parsed, pg as text.
      const value = Object.values(row!)[0];
      return typeof value === 'string' ? value : JSON.stringify(value);
    } finally {
      await h.database.ownerTransaction((tx) =>
        tx.execute(
          sql`DELETE FROM events WHERE organisation_id = ANY(${`{${orgs.join(',')}}`}::uuid[]) AND type = 'customer.created' AND data = '{}'::jsonb`,
        ),
      );
    }
  };

  it.each([
    ['the only organisation', 40_000, 0],
    ['one of two', 30_000, 30_000],
  ])(
    'when an organisation with thousands of events is %s, then the events page reads them in index order',
    async (_, rows, others) => {
      const plan = await planOfPage(rows, others);
      expect(plan).toMatch(/"Index Name":\s*"events_org_order_idx"/);
      expect(plan).not.toMatch(/"Node Type":\s*"(Sort|Incremental Sort|Bitmap Heap Scan)"/);
    },
  );
});

describe('isoTimestamp', () => {
  it.each([
    ['2026-03-02 09:00:00+00', '2026-03-02T09:00:00.000Z'],
    ['2026-03-02 09:00:00.1+00', '2026-03-02T09:00:00.100Z'],
    ['2026-03-02 09:00:00.123456+00', '2026-03-02T09:00:00.123Z'],
    ['2026-03-02 10:00:00.5+01', '2026-03-02T09:00:00.500Z'],
    [new Date('2026-03-02T09:00:00.007Z'), '2026-03-02T09:00:00.007Z'],
  ])('when PostgreSQL sends %s, then the API says %s', (input, expected) => {
    expect(isoTimestamp(input)).toBe(expected);
  });
});

describe('deferred writes', () => {
  const ctx = () => systemContext(org.organisationId);
  const portfolioCount = async (name: string) =>
    (
      await inTenant(h.database, ctx(), (tx) =>
        queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM portfolios WHERE name = ${name}`),
      )
    )[0]!.n;
  const insertPortfolio = (name: string, id = crypto.randomUUID()) =>
    sql`INSERT INTO portfolios (id, organisation_id, name, description, is_default, customer_count, created_at)
        VALUES (${id}::uuid, ${org.organisationId}::uuid, ${name}, ${'it’s "quoted" \\ and 🙂'}, false, 0, now())`;

  it('when a write is deferred, then a later statement of the transaction sees it and the commit keeps it', async () => {
    const seen = await inTenant(h.database, ctx(), async (tx) => {
      await deferWrite(tx, insertPortfolio('Deferred one'));
      return queryRows<{ description: string }>(
        tx,
        sql`SELECT description FROM portfolios WHERE name = 'Deferred one'`,
      );
    });
    expect(seen).toEqual([{ description: 'it’s "quoted" \\ and 🙂' }]);
    expect(await portfolioCount('Deferred one')).toBe(1);
  });

  it('when a deferred write is the last, then it is committed with the transaction', async () => {
    await inTenant(h.database, ctx(), async (tx) => {
      await deferWrite(tx, insertPortfolio('Deferred last'));
    });
    expect(await portfolioCount('Deferred last')).toBe(1);
  });

  it('when a deferred write fails, then the transaction fails and none of its writes stay', async () => {
    const id = crypto.randomUUID();
    const attempt = inTenant(h.database, ctx(), async (tx) => {
      await deferWrite(tx, insertPortfolio('Deferred twice', id));
      await deferWrite(tx, insertPortfolio('Deferred twice', id));
    });
    expect(isUniqueViolation(await attempt.catch((e: unknown) => e))).toBe(true);
    expect(await portfolioCount('Deferred twice')).toBe(0);
  });

  it('when a deferred write runs on the server, then its connection prepares it once and executes it after', async () => {
    const prepared = await inTenant(h.database, ctx(), async (tx) => {
      await deferWrite(tx, insertPortfolio('Deferred prepared'));
      return queryRows<{ name: string; statement: string }>(
        tx,
        sql`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'adkh_%' AND statement LIKE '%INTO portfolios%'`,
      );
    });
    if (h.database.driver === 'pglite') expect(prepared).toEqual([]);
    else
      expect(prepared).toEqual([
        {
          name: expect.stringMatching(/^adkh_/),
          statement: expect.stringMatching(/^PREPARE adkh_\S+ AS INSERT INTO portfolios/),
        },
      ]);
    expect(await portfolioCount('Deferred prepared')).toBe(1);
  });

  it('when values are written as literals, then arrays, bytes, dates and quotes arrive as they were', async () => {
    const [row] = await queryRows<{ a: string[]; b: string; d: string; t: string }>(
      h.database.db,
      sql.raw(
        `SELECT ${literal(['x', 'y "z"', null, 'back\\slash'])}::text[] AS a, encode(${literal(Buffer.from([0, 255, 16]))}::bytea, 'hex') AS b,
                ${literal(new Date('2026-03-02T09:00:00.123Z'))}::timestamptz = '2026-03-02T09:00:00.123Z' AS d,
                ${literal("O'Brien")} AS t`,
      ),
    );
    expect(row).toEqual({ a: ['x', 'y "z"', null, 'back\\slash'], b: '00ff10', d: true, t: "O'Brien" });
  });
});

describe('opening reads', () => {
  const count = (name: string) =>
    sql`SELECT count(*)::int AS n, current_setting('app.organisation_id') AS org FROM portfolios WHERE name = ${name}`;
  const insertPortfolio = (name: string) =>
    sql`INSERT INTO portfolios (id, organisation_id, name, description, is_default, customer_count, created_at)
        VALUES (${crypto.randomUUID()}::uuid, ${org.organisationId}::uuid, ${name}, '', false, 0, now())`;

  it('when a transaction opens with a read, then the work gets its rows, read in the organisation, and on the server it ran as the connection’s prepared statement', async () => {
    await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows(tx, insertPortfolio('Opened')),
    );
    const seen = await inTenantOpening(
      h.database,
      systemContext(org.organisationId),
      count('Opened'),
      async (tx, rows) => ({
        rows,
        prepared: await queryRows<{ statement: string }>(
          tx,
          sql`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'adkh_%' AND statement LIKE '%name = $1%'`,
        ),
      }),
    );
    expect(seen.rows).toEqual([{ n: 1, org: org.organisationId }]);
    if (h.database.driver === 'pglite') expect(seen.prepared).toEqual([]);
    else
      expect(seen.prepared).toEqual([
        // One message: BEGIN, the entry, the read's PREPARE and its EXECUTE.
        {
          statement: expect.stringMatching(
            /^BEGIN; SELECT actiondesk_enter\(.*;\nPREPARE adkh_\S+ AS SELECT count.*;\nEXECUTE adkh_\S+\('Opened'\)$/s,
          ),
        },
      ]);
  });

  it('when the credentials must be checked again first, then the read is made again after the check', async () => {
    const [user] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ auth_version: number }>(tx, sql`SELECT auth_version FROM users WHERE id = ${org.adminId}`),
    );
    const ctx: RequestContext = {
      ...systemContext(org.organisationId),
      userId: org.adminId,
      authVersion: user!.auth_version + 1000,
      revalidate: async (tx) => {
        ctx.authVersion = user!.auth_version;
        await queryRows(tx, insertPortfolio('Opened again'));
      },
    };
    const rows = await inTenantOpening(h.database, ctx, count('Opened again'), async (_tx, opened) => opened);
    expect(rows).toEqual([{ n: 1, org: org.organisationId }]);
  });

  it('when a request holds its transaction, then the opening read joins it and sees its writes', async () => {
    const ctx = systemContext(org.organisationId);
    const held = new HeldTransaction(h.database, ctx, async () => undefined);
    const rows = await holding(held, async () => {
      await inTenant(h.database, ctx, (tx) => queryRows(tx, insertPortfolio('Opened held')));
      return inTenantOpening(h.database, ctx, count('Opened held'), async (_tx, opened) => opened);
    });
    await held.commit(async () => undefined);
    expect(rows).toEqual([{ n: 1, org: org.organisationId }]);
  });
});
