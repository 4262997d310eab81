// The live definition of every SQL function the migrations create, one file per function in
// src/db/functions/ (its README says how to change one). test/database-functions.test.ts checks the files
// against a freshly migrated database; `npm run db:function` copies a file into a new migration.
import fs from 'node:fs';
import path from 'node:path';
import { migrationsFolder } from '../../src/platform/db/database';
import { projectRoot } from '../../src/platform/kernel/paths';

export const FUNCTIONS_DIR = path.join(projectRoot, 'src/db/functions');
/** Between two statements of a migration, as drizzle's migrator splits them; the files use it too. */
export const BREAKPOINT = '--> statement-breakpoint';

/** One file of src/db/functions: a function's name and the statements that define it and its grants. */
export interface FunctionFile {
  name: string;
  /** The path from the project's root, for messages. */
  file: string;
  text: string;
  statements: string[];
}

/** Every `<function>.sql` in src/db/functions, by name. */
export function functionFiles(): FunctionFile[] {
  return fs
    .readdirSync(FUNCTIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => {
      const text = fs.readFileSync(path.join(FUNCTIONS_DIR, f), 'utf8');
      return {
        name: f.slice(0, -'.sql'.length),
        file: path.relative(projectRoot, path.join(FUNCTIONS_DIR, f)),
        text,
        statements: statementsOf(text),
      };
    });
}

/** A file's (or a migration's) statements, as the migrator runs them; comments before one stay with it. */
export function statementsOf(text: string): string[] {
  return text
    .split(BREAKPOINT)
    .map((s) => s.trim())
    .filter((s) => s.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('--')));
}

/** The name of the function a statement creates (CREATE [OR REPLACE] FUNCTION), if it creates one. */
export function createdFunction(statement: string): string | undefined {
  return /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:public\.)?"?(\w+)"?\s*\(/im.exec(statement)?.[1];
}

const LIVE_SINCE = /^-- Live since migration (\S+) /;

/** The migration a file's first line names as the one that last defined the function. */
export function liveSince(text: string): string | undefined {
  return LIVE_SINCE.exec(text)?.[1];
}

/** `text` with its first line naming `migration` as the one that last defined the function. */
export function withLiveSince(text: string, migration: string): string {
  const first = `-- Live since migration ${migration} (to change it: src/db/functions/README.md).`;
  return LIVE_SINCE.test(text) ? text.replace(/^.*/, first) : `${first}\n--\n${text}`;
}

/** The migrations (tags, oldest first) and their text. */
export function migrations(): { tag: string; text: string }[] {
  return fs
    .readdirSync(migrationsFolder)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => ({
      tag: f.slice(0, -'.sql'.length),
      text: fs.readFileSync(path.join(migrationsFolder, f), 'utf8'),
    }));
}

/** The last migration that creates (or re-creates) a function of this name, any overload. */
export function lastDefinedIn(name: string, all = migrations()): string | undefined {
  return all.findLast((m) => statementsOf(m.text).some((s) => createdFunction(s) === name))?.tag;
}
