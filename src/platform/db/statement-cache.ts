// Prepared statements on the server database (issue 29): a request's statements are the same few texts
// over and over, and planning one (row-level security, the events' fan-out) cost more than running it.
// Each pooled connection prepares a statement the first time it runs its text and reuses the plan after.
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { inlineQuery, literal } from './database';

/** At most this many statements are prepared on one connection; past it, statements run unprepared. */
const PER_CONNECTION = 100;

const dialect = new PgDialect();

/** What PREPARE takes (and what is worth preparing): queries and data changes, not utility commands. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Digests already made, by text: the same few texts come back at every request. */
const digests = new Map<string, string>();
const DIGESTS_KEPT = 1_000;

/** A text's statement name: a digest, so that one name is always one text on every connection. */
function nameOf(prefix: string, text: string): string {
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = createHash('sha1').update(text).digest('base64url').slice(0, 27).replace(/-/g, '$');
    if (digests.size >= DIGESTS_KEPT) digests.clear();
    digests.set(text, digest);
  }
  return prefix + digest;
}

/**
 * A value for EXECUTE: the literal the inlined statements use, with numbers and booleans quoted too, so
 * that PostgreSQL reads every value as its parameter's type.
 */
function argument(value: unknown): string {
  const text = literal(value);
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
    ? pg.escapeLiteral(text)
    : text;
}

/**
 * The statements each connection has prepared. Off (every statement unprepared) through a
 * transaction-pooling proxy, where one session's prepared statements are not the next transaction's.
 */
export class StatementCache {
  private readonly prepared = new WeakMap<object, Set<string>>();
  /** Connections where a batch that prepared statements failed: which of them exist is unknown. */
  private readonly unknown = new WeakSet<object>();

  constructor(private readonly enabled: boolean) {}

  private namesOn(client: object): Set<string> {
    let names = this.prepared.get(client);
    if (!names) {
      names = new Set();
      this.prepared.set(client, names);
    }
    return names;
  }

  /**
   * The name to run `text` under on `client` through the extended protocol (node-postgres prepares it
   * there once), or undefined to run it unprepared.
   */
  protocolName(client: object, text: string): string | undefined {
    if (!this.enabled || !PREPARABLE.test(text)) return undefined;
    const names = this.namesOn(client);
    const name = nameOf('adkp_', text);
    if (names.has(name)) return name;
    if (names.size >= PER_CONNECTION) return undefined;
    names.add(name);
    return name;
  }

  /**
   * A statement as text for the simple query protocol (which takes several statements in one message,
   * but no parameters): EXECUTE of the connection's prepared statement, preceded the first time by its
   * PREPARE; unprepared, the statement with its values as literals.
   */
  simpleText(client: object, statement: SQL): string {
    const { sql: text, params } = dialect.sqlToQuery(statement);
    if (!this.enabled || !PREPARABLE.test(text)) return inlineQuery(text, params);
    const names = this.namesOn(client);
    const name = nameOf('adkh_', text);
    const execute = `EXECUTE ${name}${params.length > 0 ? `(${params.map(argument).join(', ')})` : ''}`;
    if (names.has(name)) return execute;
    if (names.size >= PER_CONNECTION) return inlineQuery(text, params);
    names.add(name);
    return `PREPARE ${name} AS ${text};\n${execute}`;
  }

  /**
   * A message with PREPAREs in it failed: PREPARE is not undone by a rollback, so which of them took
   * effect is unknown. The connection is not to be used again (see `usable`).
   */
  failed(client: object): void {
    this.unknown.add(client);
    this.prepared.delete(client);
  }

  usable(client: object): boolean {
    return !this.unknown.has(client);
  }
}
