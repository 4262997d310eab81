import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/platform/db/open';

/**
 * On a PostgreSQL server, each harness works in a database of its own, copied from a migrated
 * template: test files run in parallel, and a job worker claims the jobs of every organisation in its
 * database, so a shared database would let one file's worker send another file's messages.
 */
export function serverDatabases(url: string) {
  const base = new URL(url);
  const template = `${base.pathname.slice(1)}_template`;
  const urlOf = (name: string) => {
    const u = new URL(url);
    u.pathname = `/${name}`;
    return u.toString();
  };
  // Maintenance connection: never to the template, which must have no sessions while it is copied.
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: urlOf('postgres') });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  /**
   * Drops a database, ending its sessions. A server whose role may not end another role's sessions
   * (not a member of pg_signal_backend) refuses while an autovacuum worker is in it: tried again, a
   * bounded number of times, after the worker has had a moment to finish.
   */
  const dropDatabase = async (name: string) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== '42501' || attempt === 5) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  };
  return {
    async createTemplate(): Promise<void> {
      await admin(async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
        await c.query(`CREATE DATABASE ${template}`);
      });
      const database = await openDatabase({ kind: 'server', url: urlOf(template), poolSize: 1 });
      await database.close();
    },
    /** A fresh copy of the template; returns its URL and a function that drops it. */
    async copy(): Promise<{ url: string; drop: () => Promise<void> }> {
      const name = `${template.replace(/_template$/, '')}_${process.env.JEST_WORKER_ID ?? '0'}_${randomBytes(4).toString('hex')}`;
      await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
      return {
        url: urlOf(name),
        drop: () => dropDatabase(name),
      };
    },
  };
}
