import { execFileSync } from 'node:child_process';
import { openDatabase } from '../../src/platform/db/database';
import { serverDatabases } from './server-databases';

/**
 * Builds once (the CLI tests run the compiled CLI). On a server, migrates DATABASE_URL and a template
 * database from which every test file's harness gets a database of its own (see server-databases.ts).
 */
export default async function globalSetup(): Promise<void> {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  const url = process.env.DATABASE_URL;
  if (url) {
    const database = await openDatabase({ kind: 'server', url, poolSize: 1 });
    await database.close();
    await serverDatabases(url).createTemplate();
  }
}
