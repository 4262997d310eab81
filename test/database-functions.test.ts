// src/db/functions/ holds the live definition of every SQL function the migrations create, so that a
// reader sees what each does today without a database. This test runs each file in a transaction of a
// freshly migrated database (rolled back) and fails, naming the function, when a file defines something
// other than what the migrations left: another body, signature, volatility, security or setting (by
// pg_get_functiondef, whitespace aside) or other callers (grants); a function without a file; a file
// without a function; a file whose first line names another migration than the last that defined it.
import { type SQL, sql } from 'drizzle-orm';
import {
  createdFunction,
  type FunctionFile,
  functionFiles,
  lastDefinedIn,
  liveSince,
  migrations,
} from '../scripts/support/database-functions';
import { APP_ROLE, queryRows, type Tx } from '../src/platform/db/database';
import { openTestDatabase } from './support/harness';

/** A function of the public schema as the catalogue has it. */
interface LiveFunction {
  signature: string;
  name: string;
  definition: string;
  /** Who besides the owner may call it: PUBLIC and roles, sorted. */
  callers: string[];
  /** The catalogue row's place: CREATE OR REPLACE (and GRANT) write a new one. */
  ctid: string;
}

const LIVE = `SELECT p.oid::regprocedure::text AS signature, p.proname::text AS name,
         pg_get_functiondef(p.oid) AS definition, p.ctid::text AS ctid,
         ARRAY(SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE a.grantee::regrole::text END
                 FROM aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                WHERE a.privilege_type = 'EXECUTE' AND a.grantee <> p.proowner ORDER BY 1) AS callers
    FROM pg_proc p
   WHERE p.pronamespace = 'public'::regnamespace
     AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
                       AND d.deptype = 'e')`;

async function liveFunctions(tx: Tx): Promise<Map<string, LiveFunction>> {
  const rows = await queryRows<LiveFunction>(tx, sql.raw(LIVE));
  return new Map(rows.map((f) => [f.signature, f]));
}

const run = (tx: Tx, statement: string | SQL) =>
  tx.execute(typeof statement === 'string' ? sql.raw(statement) : statement);

/** A definition with every run of whitespace as one space: layout is not a difference. */
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Where two definitions first differ, line by line (each line's whitespace evened out), for a message. */
function firstDifference(live: string, file: string): string {
  const lines = (text: string) =>
    text
      .split('\n')
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .filter((l) => l !== '');
  const was = lines(live);
  const is = lines(file);
  const at = Math.max(
    0,
    is.findIndex((line, i) => line !== was[i]),
  );
  const show = (line: string | undefined) => (line === undefined ? '(end)' : JSON.stringify(line));
  return `first difference, line ${at + 1} of pg_get_functiondef:\n    migrated database: ${show(was[at])}\n    the file:          ${show(is[at])}`;
}

/**
 * Runs one file's statements, adding the signatures it (re)creates to `defined`; answers what is wrong
 * with it. Its functions' grants are first set back to a new function's (PUBLIC may call it), so that
 * the file's own REVOKE and GRANT decide who may.
 */
async function runFile(
  tx: Tx,
  f: FunctionFile,
  before: Map<string, LiveFunction>,
  defined: Set<string>,
): Promise<string[]> {
  const problems: string[] = [];
  const overloads = [...before.values()].filter((g) => g.name === f.name);
  for (const g of overloads) {
    await run(tx, `REVOKE ALL ON FUNCTION ${g.signature} FROM PUBLIC, ${APP_ROLE}`);
    await run(tx, `GRANT EXECUTE ON FUNCTION ${g.signature} TO PUBLIC`);
  }
  for (const statement of f.statements) {
    const creates = createdFunction(statement);
    if (creates !== undefined && creates !== f.name) {
      problems.push(
        `${f.file} creates ${creates}: a file holds the overloads of the one function it is named after`,
      );
      continue;
    }
    const place = new Map([...(await liveFunctions(tx)).values()].map((g) => [g.signature, g.ctid]));
    await run(tx, 'SAVEPOINT function_file');
    try {
      await run(tx, statement);
    } catch (err) {
      await run(tx, 'ROLLBACK TO SAVEPOINT function_file');
      const first = statement.split('\n').find((l) => !l.startsWith('--'));
      const cause = (err as Error).cause instanceof Error ? ((err as Error).cause as Error) : (err as Error);
      problems.push(`${f.file}: ${cause.message}\n    in: ${first}`);
      continue;
    }
    if (creates === undefined) continue;
    for (const g of (await liveFunctions(tx)).values()) {
      if (g.name !== f.name || place.get(g.signature) === g.ctid) continue;
      defined.add(g.signature);
      if (!before.has(g.signature)) {
        problems.push(`${f.file} defines ${g.signature}, which the migrations do not create (or dropped)`);
      }
    }
  }
  if (overloads.length === 0) problems.push(`${f.file}: the migrated database has no function ${f.name}`);
  for (const g of overloads) {
    if (!defined.has(g.signature))
      problems.push(`${g.signature} is in the migrated database, not in ${f.file}`);
  }
  return problems;
}

/** What is wrong with src/db/functions against the migrated database `tx` (left as it was found). */
async function functionFileProblems(tx: Tx): Promise<string[]> {
  const before = await liveFunctions(tx);
  const files = functionFiles();
  const all = migrations();
  const problems: string[] = [];
  const defined = new Set<string>();
  const named = new Set(files.map((f) => f.name));
  for (const g of before.values()) {
    if (!named.has(g.name))
      problems.push(
        `${g.signature} is in the migrated database, but src/db/functions/${g.name}.sql is missing`,
      );
  }
  for (const f of files) {
    const last = lastDefinedIn(f.name, all);
    if (last !== undefined && liveSince(f.text) !== last) {
      problems.push(`${f.file}: its first line should say "-- Live since migration ${last} (…)."`);
    }
    problems.push(...(await runFile(tx, f, before, defined)));
  }
  const after = await liveFunctions(tx);
  for (const [signature, was] of before) {
    const is = after.get(signature);
    if (!is || !defined.has(signature)) continue;
    const file = `src/db/functions/${was.name}.sql`;
    if (flat(is.definition) !== flat(was.definition)) {
      problems.push(
        `${signature}: ${file} differs from the migrated database; ${firstDifference(was.definition, is.definition)}`,
      );
    }
    if (is.callers.join() !== was.callers.join()) {
      problems.push(
        `${signature}: ${file} lets ${is.callers.join(', ') || 'only the owner'} call it; the migrated database lets ${was.callers.join(', ') || 'only the owner'}`,
      );
    }
  }
  return problems;
}

/** Thrown to roll the owner's transaction back, carrying what it found. */
class Findings {
  constructor(readonly problems: string[]) {}
}

it('when the migrations ran, then src/db/functions holds the definition of every function they left', async () => {
  const database = await openTestDatabase();
  let problems: string[] = [];
  try {
    await database.ownerTransaction(async (tx) => {
      throw new Findings(await functionFileProblems(tx));
    });
  } catch (err) {
    if (!(err instanceof Findings)) throw err;
    problems = err.problems;
  } finally {
    await database.close();
  }
  if (problems.length > 0) {
    throw new Error(
      `src/db/functions and the migrations disagree (src/db/functions/README.md says how to change a function):\n- ${problems.join('\n- ')}`,
    );
  }
  expect(problems).toEqual([]);
});
