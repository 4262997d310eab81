import { execFileSync } from 'node:child_process';
import { openDatabase } from '../../src/platform/db/database';

/** Builds once (the CLI tests run the compiled CLI) and migrates the server database, if one is used. */
export default async function globalSetup(): Promise<void> {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  const url = process.env.DATABASE_URL;
  if (url) {
    const database = await openDatabase({ kind: 'server', url, poolSize: 1 });
    await database.close();
  }
}
