import { createWriteStream } from 'node:fs';
import { type SQL, sql } from 'drizzle-orm';
import { queryRows, type Tx } from './database';

/**
 * Writes the rows of `query` — one column, `line`, a row as JSON text — into a new file, one line each,
 * `batch` rows at a time through a cursor of the transaction (an export never holds a table in memory).
 * Answers how many rows were written.
 */
export async function writeJsonLines(tx: Tx, query: SQL, file: string, batch = 1_000): Promise<number> {
  const out = createWriteStream(file, { flags: 'wx' });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  // A write error (a full disk) is answered by `await done` below, not as an unhandled rejection while
  // a FETCH is under way.
  done.catch(() => undefined);
  let count = 0;
  try {
    await tx.execute(sql`DECLARE json_lines NO SCROLL CURSOR FOR ${query}`);
    for (;;) {
      const rows = await queryRows<{ line: string }>(tx, sql.raw(`FETCH ${batch} FROM json_lines`));
      if (rows.length === 0) break;
      count += rows.length;
      if (!out.write(`${rows.map((r) => r.line).join('\n')}\n`))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      if (rows.length < batch) break;
    }
    await tx.execute(sql`CLOSE json_lines`);
  } finally {
    out.end();
  }
  await done;
  return count;
}
