// What a migrated database is, read from PostgreSQL's own catalogue (pg_class, pg_attribute, pg_policy,
// pg_trigger, pg_constraint, pg_proc), and docs/database.md rendered from it. `npm run docs:database`
// writes the page; test/database-catalogue.test.ts checks it is current, and test/audit-masking.test.ts
// checks the audit trigger's arguments against the columns. Everything is sorted and nothing names a
// port, a time or an OID, so the same migrations always give the same page.
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { APP_ROLE, type Queryable, queryRows } from '../../src/platform/db/database';
import { projectRoot } from '../../src/platform/kernel/paths';

export const DOCUMENT_PATH = path.join(projectRoot, 'docs/database.md');
/** The trigger function that writes the audit trail (migration 0027). */
export const AUDIT_FUNCTION = 'actiondesk_audit_row';

export interface Column {
  name: string;
  type: string;
  nullable: boolean;
}
export interface Policy {
  name: string;
  permissive: boolean;
  command: string;
  roles: string[];
  using: string | null;
  check: string | null;
}
export type TriggerEvent = 'INSERT' | 'UPDATE' | 'DELETE' | 'TRUNCATE';
export interface Trigger {
  name: string;
  timing: 'BEFORE' | 'AFTER' | 'INSTEAD OF';
  level: 'ROW' | 'STATEMENT';
  events: TriggerEvent[];
  /** UPDATE OF these columns only; empty for any UPDATE. */
  updateColumns: string[];
  /** The WHEN condition, as PostgreSQL prints it. */
  when: string | null;
  function: string;
  args: string[];
  enabled: boolean;
}
/** A foreign key of another table pointing at this one, and what deleting a row here does to it. */
export interface Reference {
  table: string;
  constraint: string;
  onDelete: 'cascade' | 'set null' | 'set default' | 'restrict' | 'no action';
}
export interface CatalogueTable {
  name: string;
  columns: Column[];
  rowSecurity: boolean;
  forceRowSecurity: boolean;
  policies: Policy[];
  triggers: Trigger[];
  referencedBy: Reference[];
  /** What the app role may do on it: select, insert, update, delete. */
  appRights: string[];
}
export interface CatalogueFunction {
  name: string;
  arguments: string;
  returns: string;
  language: string;
  securityDefiner: boolean;
  /** Whether the app role may call it. */
  appMayCall: boolean;
  volatility: 'immutable' | 'stable' | 'volatile';
  /** SET clauses, e.g. `search_path=public, pg_temp`. */
  settings: string[];
  description: string | null;
  body: string;
}
export interface Catalogue {
  tables: CatalogueTable[];
  functions: CatalogueFunction[];
  /** Extensions whose functions live in the public schema (left out of `functions`). */
  extensions: string[];
}

/** Code-point order: the same on every machine, whatever its locale or the database's collation. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Runs a query that answers one row with the JSON text of its rows (driver-independent). */
async function jsonRows<T>(q: Queryable, select: string): Promise<T[]> {
  const [row] = await queryRows<{ rows: string }>(
    q,
    sql.raw(`SELECT coalesce(json_agg(row_to_json(x)), '[]')::text AS rows FROM (${select}) x`),
  );
  return JSON.parse(row?.rows ?? '[]') as T[];
}

const PUBLIC_TABLES = `c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')`;
/** Functions an extension created (pg_trgm, btree_gin): theirs, not the service's. */
const FROM_EXTENSION = `EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
  AND d.objid = p.oid AND d.deptype = 'e')`;

/** Reads the public schema's tables and functions; `q` is the database or an open transaction. */
export async function readCatalogue(q: Queryable): Promise<Catalogue> {
  const [tables, columns, policies, triggers, references, functions, extensions] = await Promise.all([
    jsonRows<{ name: string; rls: boolean; force: boolean; rights: string[] }>(
      q,
      `SELECT c.relname AS name, c.relrowsecurity AS rls, c.relforcerowsecurity AS force,
              array_remove(ARRAY[
                CASE WHEN has_table_privilege('${APP_ROLE}', c.oid, 'SELECT') THEN 'select' END,
                CASE WHEN has_table_privilege('${APP_ROLE}', c.oid, 'INSERT') THEN 'insert' END,
                CASE WHEN has_table_privilege('${APP_ROLE}', c.oid, 'UPDATE') THEN 'update' END,
                CASE WHEN has_table_privilege('${APP_ROLE}', c.oid, 'DELETE') THEN 'delete' END], NULL) AS rights
         FROM pg_class c WHERE ${PUBLIC_TABLES}`,
    ),
    jsonRows<Column & { table: string; position: number }>(
      q,
      `SELECT c.relname AS table, a.attnum AS position, a.attname AS name,
              format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE ${PUBLIC_TABLES} AND a.attnum > 0 AND NOT a.attisdropped`,
    ),
    jsonRows<Policy & { table: string }>(
      q,
      `SELECT tablename AS table, policyname AS name, permissive = 'PERMISSIVE' AS permissive,
              cmd AS command, roles::text[] AS roles, qual AS using, with_check AS check
         FROM pg_policies WHERE schemaname = 'public'`,
    ),
    jsonRows<TriggerRow & { table: string }>(
      q,
      `SELECT c.relname AS table, t.tgname AS name, t.tgtype AS type, t.tgenabled AS enabled,
              CASE WHEN p.pronamespace = 'public'::regnamespace THEN p.proname::text
                   ELSE format('%I.%I', p.pronamespace::regnamespace, p.proname) END AS function,
              encode(t.tgargs, 'hex') AS args,
              ARRAY(SELECT a.attname::text FROM unnest(t.tgattr::int2[]) WITH ORDINALITY k(n, i)
                      JOIN pg_attribute a ON a.attrelid = t.tgrelid AND a.attnum = k.n ORDER BY k.i) AS columns,
              pg_get_triggerdef(t.oid) AS definition
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE ${PUBLIC_TABLES} AND NOT t.tgisinternal`,
    ),
    jsonRows<Reference & { target: string }>(
      q,
      `SELECT t.relname AS target, c.relname AS table, k.conname AS constraint,
              CASE k.confdeltype WHEN 'c' THEN 'cascade' WHEN 'n' THEN 'set null' WHEN 'd' THEN 'set default'
                                 WHEN 'r' THEN 'restrict' ELSE 'no action' END AS "onDelete"
         FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class t ON t.oid = k.confrelid
        WHERE k.contype = 'f' AND ${PUBLIC_TABLES}`,
    ),
    jsonRows<
      Omit<CatalogueFunction, 'volatility' | 'description' | 'settings'> & {
        volatility: string;
        comment: string | null;
        settings: string[] | null;
      }
    >(
      q,
      `SELECT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS arguments,
              pg_get_function_result(p.oid) AS returns, l.lanname AS language, p.prosecdef AS "securityDefiner",
              has_function_privilege('${APP_ROLE}', p.oid, 'EXECUTE') AS "appMayCall",
              p.provolatile AS volatility, p.proconfig AS settings, p.prosrc AS body,
              obj_description(p.oid, 'pg_proc') AS comment
         FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.pronamespace = 'public'::regnamespace AND NOT ${FROM_EXTENSION}`,
    ),
    jsonRows<{ name: string }>(
      q,
      `SELECT DISTINCT e.extname AS name FROM pg_proc p
         JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
         JOIN pg_extension e ON e.oid = d.refobjid
        WHERE p.pronamespace = 'public'::regnamespace`,
    ),
  ]);
  const of = <T extends { table: string }>(rows: T[], table: string) => rows.filter((r) => r.table === table);
  return {
    tables: tables
      .sort((a, b) => byText(a.name, b.name))
      .map((t) => ({
        name: t.name,
        columns: of(columns, t.name)
          .sort((a, b) => a.position - b.position)
          .map(({ name, type, nullable }) => ({ name, type, nullable })),
        rowSecurity: t.rls,
        forceRowSecurity: t.force,
        policies: of(policies, t.name)
          .map(({ table: _, ...policy }) => ({ ...policy, roles: [...policy.roles].sort(byText) }))
          .sort((a, b) => byText(a.name, b.name)),
        triggers: of(triggers, t.name)
          .map(triggerOf)
          .sort((a, b) => byText(a.name, b.name)),
        referencedBy: references
          .filter((r) => r.target === t.name)
          .map(({ table, constraint, onDelete }) => ({ table, constraint, onDelete }))
          .sort((a, b) => byText(a.table, b.table) || byText(a.constraint, b.constraint)),
        appRights: t.rights,
      })),
    functions: functions
      .map(({ comment, volatility, settings, ...f }) => ({
        ...f,
        volatility: VOLATILITY[volatility] ?? 'volatile',
        settings: settings ?? [],
        description: describe(comment, f.body),
      }))
      .sort((a, b) => byText(a.name, b.name) || byText(a.arguments, b.arguments)),
    extensions: extensions.map((e) => e.name).sort(byText),
  };
}

const VOLATILITY: Record<string, CatalogueFunction['volatility']> = {
  i: 'immutable',
  s: 'stable',
  v: 'volatile',
};

// tgtype bits (PostgreSQL's trigger.h).
const ROW = 1;
const BEFORE = 2;
const INSTEAD = 64;
const EVENT_BITS: [TriggerEvent, number][] = [
  ['INSERT', 4],
  ['UPDATE', 16],
  ['DELETE', 8],
  ['TRUNCATE', 32],
];

/** A trigger as pg_trigger describes it (its type is pg_trigger's bit mask). */
interface TriggerRow {
  name: string;
  type: number;
  function: string;
  args: string;
  enabled: string;
  columns: string[];
  definition: string;
}

function triggerOf(t: TriggerRow): Trigger {
  return {
    name: t.name,
    timing: t.type & INSTEAD ? 'INSTEAD OF' : t.type & BEFORE ? 'BEFORE' : 'AFTER',
    level: t.type & ROW ? 'ROW' : 'STATEMENT',
    events: EVENT_BITS.filter(([, bit]) => t.type & bit).map(([event]) => event),
    updateColumns: t.columns,
    when: / WHEN \((.*)\) EXECUTE (?:FUNCTION|PROCEDURE) /s.exec(t.definition)?.[1] ?? null,
    function: t.function,
    args: triggerArguments(t.args),
    enabled: t.enabled !== 'D',
  };
}

/** pg_trigger.tgargs, hex-encoded: each argument ends with a zero byte. */
function triggerArguments(hex: string): string[] {
  const bytes = Buffer.from(hex, 'hex');
  const args: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0) continue;
    args.push(bytes.subarray(start, i).toString('utf8'));
    start = i + 1;
  }
  return args;
}

/** One line: the first of COMMENT ON FUNCTION, else of a comment the body starts with. */
function describe(comment: string | null, body: string): string | null {
  const text =
    comment?.trim() || /^\s*--[ \t]*(.*)/.exec(body)?.[1] || /^\s*\/\*\s*([\s\S]*?)\s*\*\//.exec(body)?.[1];
  return text?.split('\n')[0]?.trim() || null;
}

/** What an audit trigger's arguments say (TG_ARGV, split as actiondesk_audit_row splits them). */
export interface AuditSettings {
  target: string;
  /** Recorded only as set, replaced or removed. */
  secret: string[];
  /** Never recorded. */
  ignored: string[];
}
export function auditSettings(trigger: Trigger): AuditSettings | null {
  if (trigger.function !== AUDIT_FUNCTION) return null;
  const list = (arg: string | undefined) => (arg ? arg.split(',') : []);
  return { target: trigger.args[0] ?? '', secret: list(trigger.args[1]), ignored: list(trigger.args[2]) };
}

/** The catalogue as docs/database.md. */
export function renderCatalogue(catalogue: Catalogue): string {
  const lines = [
    '# The database',
    '',
    '<!-- Generated by `npm run docs:database`; checked by test/database-catalogue.test.ts. Do not edit. -->',
    '',
    'What the migrations in `src/db/migrations` leave behind, read from PostgreSQL’s own catalogue of a',
    'freshly migrated database: every table of the `public` schema with its columns, whether row-level',
    'security guards it, and what the database itself does when a row is inserted, updated or deleted; then',
    'every SQL function the migrations define.',
    '',
    'This page is generated by `npm run docs:database` and checked by `test/database-catalogue.test.ts`,',
    'which fails when it no longer matches the migrations: do not edit it by hand; change a migration and',
    'run the command again.',
    '',
    'How to read it:',
    `- The service works as the role \`${APP_ROLE}\`. **Row-level security on** means that role sees and`,
    '  writes only the rows the table’s policies let through: for a tenant table, those of the organisation',
    '  of the open tenant transaction (`actiondesk_current_org()`, set by `actiondesk_enter`). The owner, and',
    '  functions marked “runs as its owner” (SECURITY DEFINER), are not held by the policies.',
    '- Triggers are listed under each operation in the order PostgreSQL fires them: BEFORE ones, then AFTER',
    '  ones; by name within each. “Each row” triggers run once per row changed, “once per statement” ones',
    '  once per statement.',
    `- **Audited as \`x\`** is the \`audit_rows\` trigger (function \`${AUDIT_FUNCTION}\`): every change is`,
    '  written to `audit_events` in the same transaction, as action `x.created`, `x.updated` or `x.deleted`',
    '  with the changed columns. Secret columns appear there only as set, replaced or removed; columns not',
    '  recorded never appear.',
    '- Foreign keys act on DELETE too: deleting a row also deletes the rows that refer to it (cascade), whose',
    '  own DELETE triggers then fire, or is refused while rows refer to it.',
    '',
    '## Tables',
    '',
    '| Table | Columns | Row-level security | Audited as | Triggers |',
    '| --- | --- | --- | --- | --- |',
    ...catalogue.tables.map((t) => {
      const audited = t.triggers.map(auditSettings).filter((a) => a !== null);
      return `| [\`${t.name}\`](#${t.name}) | ${t.columns.length} | ${t.rowSecurity ? 'on' : 'off'} | ${
        audited.map((a) => code(a.target)).join(', ') || '—'
      } | ${t.triggers.length} |`;
    }),
    '',
  ];
  for (const table of catalogue.tables) lines.push(...renderTable(table));
  lines.push(...renderFunctions(catalogue));
  return `${lines.join('\n').trimEnd()}\n`;
}

function renderTable(t: CatalogueTable): string[] {
  const lines = [`### \`${t.name}\``, ''];
  const rls = t.rowSecurity ? `on${t.forceRowSecurity ? ', forced (also for the owner)' : ''}` : 'off';
  lines.push(`Row-level security: **${rls}**.`, ...t.policies.map((p) => `- ${policyLine(p)}`), '');
  lines.push(
    t.appRights.length > 0
      ? `\`${APP_ROLE}\` may ${t.appRights.join(', ')}.`
      : `\`${APP_ROLE}\` has no rights on it.`,
  );
  for (const audit of t.triggers.map(auditSettings)) if (audit) lines.push('', auditLine(audit));
  lines.push(
    '',
    '| Column | Type | Nullable |',
    '| --- | --- | --- |',
    ...t.columns.map((c) => `| \`${c.name}\` | ${c.type} | ${c.nullable ? 'yes' : 'no'} |`),
    '',
  );
  if (t.triggers.length === 0 && t.referencedBy.length === 0) {
    return [...lines, 'Nothing fires on INSERT, UPDATE or DELETE.', ''];
  }
  const events: TriggerEvent[] = ['INSERT', 'UPDATE', 'DELETE'];
  if (t.triggers.some((tr) => tr.events.includes('TRUNCATE'))) events.push('TRUNCATE');
  for (const event of events) {
    const firing = t.triggers.filter((tr) => tr.events.includes(event)).sort(firingOrder);
    const items = firing.map((tr) => `- ${triggerLine(tr, event)}`);
    if (event === 'DELETE') items.push(...referenceLines(t.referencedBy));
    lines.push(items.length > 0 ? `On ${event}:` : `On ${event}: nothing.`, ...items, '');
  }
  return lines;
}

const names = (columns: string[]) => (columns.length > 0 ? columns.map(code).join(', ') : 'none');
const auditLine = (a: AuditSettings) =>
  `Audited as ${code(a.target)}; secrets shown only as set/replaced/removed: ${names(a.secret)}; not recorded: ${names(a.ignored)}.`;

function policyLine(p: Policy): string {
  const who = p.roles.map(code).join(', ');
  const head = `policy \`${p.name}\` (${p.permissive ? 'permissive' : 'restrictive'}, ${p.command}, for ${who})`;
  if (p.using !== null && p.using === p.check)
    return `${head}: rows where ${code(p.using)}, read and written.`;
  const parts = [
    p.using !== null ? `rows seen where ${code(p.using)}` : null,
    p.check !== null ? `rows written must satisfy ${code(p.check)}` : null,
  ].filter((s) => s !== null);
  return `${head}: ${parts.join('; ') || 'no condition'}.`;
}

/** BEFORE statement, BEFORE row, AFTER row, AFTER statement; by name within each (as PostgreSQL fires). */
function firingOrder(a: Trigger, b: Trigger): number {
  const phase = (t: Trigger) =>
    t.timing === 'AFTER' ? (t.level === 'ROW' ? 2 : 3) : t.level === 'STATEMENT' ? 0 : 1;
  return phase(a) - phase(b) || byText(a.name, b.name);
}

function triggerLine(t: Trigger, event: TriggerEvent): string {
  const when = [
    event === 'UPDATE' && t.updateColumns.length > 0
      ? `only for an UPDATE that sets ${t.updateColumns.map(code).join(' or ')}`
      : null,
    t.when !== null ? `only when ${code(t.when)}` : null,
    t.enabled ? null : '**disabled**',
  ].filter((s) => s !== null);
  const how = `${t.timing}, ${t.level === 'ROW' ? 'each row' : 'once per statement'}${when.length > 0 ? `, ${when.join(', ')}` : ''}`;
  return `\`${t.name}\` (${how}): ${action(t)}`;
}

function action(t: Trigger): string {
  const audit = auditSettings(t);
  if (audit) return `writes the audit trail as ${code(audit.target)} (\`${t.function}\`, see above)`;
  return `\`${t.function}(${t.args.map(literal).join(', ')})\``;
}

function referenceLines(references: Reference[]): string[] {
  const tables = (onDelete: Reference['onDelete'][]) => [
    ...new Set(references.filter((r) => onDelete.includes(r.onDelete)).map((r) => code(r.table))),
  ];
  const lines: string[] = [];
  const cascade = tables(['cascade']);
  if (cascade.length > 0) lines.push(`- also deletes the rows that refer to it in ${cascade.join(', ')}`);
  const cleared = references.filter((r) => r.onDelete === 'set null' || r.onDelete === 'set default');
  for (const r of cleared)
    lines.push(
      `- sets the reference in \`${r.table}\` to ${r.onDelete === 'set null' ? 'null' : 'its default'} (\`${r.constraint}\`)`,
    );
  for (const r of references.filter((r) => r.onDelete === 'restrict' || r.onDelete === 'no action')) {
    lines.push(`- is refused while rows of \`${r.table}\` refer to it (\`${r.constraint}\`, ${r.onDelete})`);
  }
  return lines;
}

function renderFunctions(catalogue: Catalogue): string[] {
  const lines = [
    '## Functions',
    '',
    'Every function of the `public` schema the migrations created, by name and arguments. “Named by” lists',
    'what in the database refers to it: a trigger, a policy, another function’s body. A function’s one-line',
    'description is its `COMMENT ON FUNCTION`, or a comment its body starts with. Its file in',
    '[`src/db/functions`](../src/db/functions/README.md) holds its definition as it is now, with what it does',
    'and who may call it (the README there says how to change one).',
  ];
  if (catalogue.extensions.length > 0) {
    lines.push(
      `The functions of the extension${catalogue.extensions.length > 1 ? 's' : ''} ${catalogue.extensions
        .map(code)
        .join(', ')} live in the same schema and are left out.`,
    );
  }
  lines.push('');
  for (const f of catalogue.functions) {
    const runsAs = f.securityDefiner
      ? '**security definer**: runs as its owner, past row-level security'
      : 'runs as the caller';
    const caller = f.appMayCall ? '' : `; \`${APP_ROLE}\` may not call it`;
    const settings = f.settings.length > 0 ? `; sets ${f.settings.map(code).join(', ')}` : '';
    lines.push(
      `### \`${f.name}(${f.arguments})\``,
      '',
      `Returns ${code(f.returns)}. ${f.language}, ${f.volatility}; ${runsAs}${settings}${caller}.`,
      '',
    );
    if (f.description) lines.push(`${f.description}`, '');
    lines.push(`Definition: [\`src/db/functions/${f.name}.sql\`](../src/db/functions/${f.name}.sql).`, '');
    const users = namedBy(catalogue, f);
    lines.push(
      users.length > 0
        ? `Named by: ${users.join('; ')}.`
        : f.appMayCall
          ? 'Named by nothing in the database: the application or a migration calls it.'
          : 'Named by nothing in the database: only its owner may call it (a migration does).',
      '',
    );
  }
  return lines;
}

/** What in the database refers to `f` by name: triggers, policies, other functions' bodies. */
function namedBy(catalogue: Catalogue, f: CatalogueFunction): string[] {
  const mention = new RegExp(`\\b${f.name}\\b`);
  const byTrigger = new Map<string, string[]>();
  const policyTables: string[] = [];
  for (const t of catalogue.tables) {
    for (const tr of t.triggers) {
      if (tr.function === f.name) byTrigger.set(tr.name, [...(byTrigger.get(tr.name) ?? []), t.name]);
    }
    if (t.policies.some((p) => mention.test(`${p.using ?? ''} ${p.check ?? ''}`))) policyTables.push(t.name);
  }
  const functions = catalogue.functions
    .filter((g) => g !== f && mention.test(g.body))
    .map((g) => `\`${g.name}(${g.arguments})\``);
  return [
    ...[...byTrigger].map(([name, tables]) => `trigger \`${name}\` on ${tables.map(code).join(', ')}`),
    ...(policyTables.length > 0 ? [`the policies of ${policyTables.length} tables`] : []),
    ...[...new Set(functions)],
  ];
}

function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${fence === '``' ? ` ${text} ` : text}${fence}`;
}

const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** docs/database.md as the database `q` (freshly migrated) describes it. */
export async function databaseDocument(q: Queryable): Promise<string> {
  return renderCatalogue(await readCatalogue(q));
}
