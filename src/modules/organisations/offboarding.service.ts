import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { auditRepository } from '../../platform/audit/audit.repository';
import type { Database } from '../../platform/db/database';
import { writeJsonLines } from '../../platform/db/json-lines';
import { inTenant } from '../../platform/db/tenant';
import { type FileStorage, saveStoredFiles } from '../../platform/files/storage';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { systemContext } from '../../platform/kernel/context';
import { createDefaultPortfolio } from '../portfolios';
import {
  deleteOrganisationRows,
  EXPORTED_TABLES,
  enterAsOperator,
  exportRowsQuery,
  organisationNamed,
  storedFiles,
  wipeOrganisationRows,
} from './offboarding.repository';
import { liveOrganisationOfCurrent } from './test-twin.repository';

export interface OffboardingDeps {
  database: Database;
  storage: FileStorage;
}

export interface ExportManifest {
  format: 'actiondesk-organisation-export';
  version: 1;
  organisationId: string;
  organisationName: string;
  exportedAt: string;
  /** Rows per table; each table is `<table>.jsonl`, one row a line, with the database's column names. */
  tables: Record<string, number>;
  /** The files' bytes, as `files/<fileId>`, each checked against its SHA-256 in files.jsonl. */
  files: { count: number; bytes: number; missing: string[] };
}

export class OffboardingError extends Error {
  override name = 'OffboardingError';
}

const BATCH = 2_000;

/**
 * Writes everything the organisation holds into `outDir` (which must be empty or new): a JSON-lines
 * file per table (EXPORTED_TABLES: no credentials or secrets), its files' bytes, and manifest.json,
 * written last. Each table is read in one transaction; rows that change meanwhile appear as they were
 * before or after the change, so export an organisation while it is quiet.
 */
export async function exportOrganisation(
  deps: OffboardingDeps,
  organisationId: string,
  outDir: string,
  now: Date,
): Promise<ExportManifest> {
  await mkdir(outDir, { recursive: true });
  if ((await readdir(outDir)).length > 0) throw new OffboardingError(`${outDir} is not empty`);
  const ctx = systemContext(organisationId, now, 'organisation export');
  const tables: Record<string, number> = {};
  for (const { table, drop } of EXPORTED_TABLES) {
    tables[table] = await inTenant(deps.database, ctx, (tx) =>
      writeJsonLines(tx, exportRowsQuery(table, drop), path.join(outDir, `${table}.jsonl`), BATCH),
    );
  }
  if (tables.organisations !== 1) throw new OffboardingError(`no organisation ${organisationId}`);
  const organisationName = (await inTenant(deps.database, ctx, (tx) =>
    organisationNamed(tx, organisationId),
  ))!.name;

  const files = await inTenant(deps.database, ctx, (tx) => storedFiles(tx));
  const saved = await saveStoredFiles(
    deps.storage,
    files.map((f) => ({ key: f.storage_key, sha256: f.sha256, saveAs: f.id })),
    path.join(outDir, 'files'),
  );
  const manifest: ExportManifest = {
    format: 'actiondesk-organisation-export',
    version: 1,
    organisationId,
    organisationName,
    exportedAt: now.toISOString(),
    tables,
    files: saved,
  };
  await writeFile(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, {
    flag: 'wx',
  });
  return manifest;
}

/**
 * Deletes the organisation and everything it holds: its rows (one transaction, through the foreign
 * keys), then its files' bytes. `confirmName` must be the organisation's name, as a guard against a
 * wrong id. Answers what went.
 */
export async function deleteOrganisation(
  deps: OffboardingDeps,
  organisationId: string,
  confirmName: string,
): Promise<{
  name: string;
  counts: Record<string, number>;
  filesRemoved: number;
  filesNotRemoved: string[];
}> {
  // As the owner, on a connection of its own: the pool's client gives up on a statement after the
  // request limit, and deleting a large organisation is one long statement.
  const result = await deps.database.ownerTransaction(async (tx) => {
    await enterAsOperator(tx, organisationId);
    const org = await organisationNamed(tx, organisationId);
    if (!org) throw new OffboardingError(`no organisation ${organisationId}`);
    if (org.name !== confirmName)
      throw new OffboardingError(
        `--confirm must be the organisation's name exactly ("${org.name}"); nothing was deleted`,
      );
    return { name: org.name, ...(await deleteOrganisationRows(tx, organisationId)) };
  });
  // Every file is tried, whatever happens to the others; those that could not be removed are named, so
  // that an operator can remove them from the store (the rows that named them are gone).
  let filesRemoved = 0;
  const filesNotRemoved: string[] = [];
  for (const key of result.storageKeys) {
    try {
      await deps.storage.remove(key);
      filesRemoved++;
    } catch {
      filesNotRemoved.push(key);
    }
  }
  return { name: result.name, counts: result.counts, filesRemoved, filesNotRemoved };
}

/** What a wipe deleted: the counts without the users, who are put back. */
const recordsOf = ({ users: _users, ...records }: Record<string, number>) => records;

/**
 * Wipes a test organisation's data in one call (issue 31): every record made in test mode goes —
 * contacts, templates, actions, sessions, files (their bytes too), setups, webhooks, events, the test
 * inbox — and the organisation, its users, test keys and test OAuth clients stay, with a new default
 * portfolio. Only a test organisation: the caller has checked its credentials are test ones.
 */
export async function wipeTestOrganisation(
  deps: OffboardingDeps & { clock: Clock },
  ctx: RequestContext,
): Promise<{ counts: Record<string, number>; filesNotRemoved: number }> {
  const organisationId = ctx.organisationId;
  const result = await deps.database.ownerTransaction(async (tx) => {
    await enterAsOperator(tx, organisationId);
    if ((await liveOrganisationOfCurrent(tx)) === null) throw new OffboardingError('not a test organisation');
    const gone = await wipeOrganisationRows(tx, organisationId);
    const now = deps.clock.now();
    await createDefaultPortfolio(tx, systemContext(organisationId, now, 'test data wiped'), now);
    // The one record of it that stays: who wiped, when (the trail before it went with the rest).
    await auditRepository(tx, ctx).record({
      action: 'organisation.test_data_wiped',
      targetType: 'organisation',
      targetId: organisationId,
      summary: recordsOf(gone.counts),
    });
    return gone;
  });
  let filesNotRemoved = 0;
  for (const key of result.storageKeys) await deps.storage.remove(key).catch(() => filesNotRemoved++);
  return { counts: recordsOf(result.counts), filesNotRemoved };
}
