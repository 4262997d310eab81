// npm run bench:test-start — what a test app's database costs to start, in this process:
//   1. a new in-memory embedded database created and migrated (what every test app did before issue 27);
//   2. the same database loaded from the migrated image the test suite's global setup makes once;
//   3. on a PostgreSQL server (DATABASE_URL set), a copy of the migrated template database.
// Each figure is the median of BENCH_ROUNDS starts (default 7), after one warm-up start; a start ends
// when the database answers a query.
import type { Database } from '../src/platform/db/database';
import { migratedImage } from '../src/platform/db/embedded';
import { openDatabase } from '../src/platform/db/open';
import { serverDatabases } from '../test/support/server-databases';
import { printTable } from './bench-support';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

async function median(start: () => Promise<Database>, done?: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i <= ROUNDS; i++) {
    const began = process.hrtime.bigint();
    const database = await start();
    await database.ping();
    if (i > 0) times.push(Number(process.hrtime.bigint() - began) / 1e6);
    await database.close();
    await done?.();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  const fresh = await median(() => openDatabase({ kind: 'memory' }));
  rows.push(['embedded, created and migrated', `${fresh.toFixed(0)} ms`]);
  const madeAt = process.hrtime.bigint();
  const image = await migratedImage();
  const making = Number(process.hrtime.bigint() - madeAt) / 1e6;
  const loaded = await median(() => openDatabase({ kind: 'memory', image }));
  rows.push([
    `embedded, from the image (${(image.size / 2 ** 20).toFixed(0)} MiB, made once in ${making.toFixed(0)} ms)`,
    `${loaded.toFixed(0)} ms`,
  ]);
  const url = process.env.DATABASE_URL;
  if (url) {
    const databases = serverDatabases(url);
    await databases.createTemplate();
    let drop: (() => Promise<void>) | undefined;
    const copied = await median(
      async () => {
        const copy = await databases.copy();
        drop = copy.drop;
        return openDatabase({ kind: 'server', url: copy.url, poolSize: 1 });
      },
      () => drop?.() ?? Promise.resolve(),
    );
    rows.push(['server, a copy of the migrated template', `${copied.toFixed(0)} ms`]);
  }
  console.log(`bench:test-start — median of ${ROUNDS} starts each, Node ${process.version}\n`);
  printTable(['a test app’s database', 'start'], rows);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
