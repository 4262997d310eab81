import type { Config } from '../../config';
import { type Database, type DatabaseTarget, defaultServerLimits } from './database';
import { openEmbedded } from './embedded';
import { connectServer, migrateServer } from './server-pool';

/** Opens the database the configuration names: the server at DATABASE_URL, or the embedded one in DATA_DIR. */
export function openConfiguredDatabase(config: Config, purpose: string): Promise<Database> {
  return config.database.kind === 'server'
    ? openDatabase({
        kind: 'server',
        url: config.database.url,
        poolSize: config.database.poolSize,
        limits: config.database.limits,
        listenUrl: config.database.listenUrl,
        ...(config.database.migrationUrl ? { migrationUrl: config.database.migrationUrl } : {}),
      })
    : openDatabase({ kind: 'embedded', dataDir: config.database.dataDir, purpose });
}

/** Opens the database, applies pending migrations as the owner, then works as the non-owner app role. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'server') {
    if (target.migrationUrl) {
      const bounds = { ...defaultServerLimits, ...target.limits };
      await migrateServer(target.migrationUrl, bounds.connectTimeoutMs, bounds);
      return connectServer(target.url, target.poolSize, target.limits, target.listenUrl, {
        asAppRole: true,
        ownerUrl: target.migrationUrl,
      });
    }
    await migrateServer(target.url, target.limits?.connectTimeoutMs);
    return connectServer(target.url, target.poolSize, target.limits, target.listenUrl);
  }
  return openEmbedded(target);
}
