import type { Config } from '../../config';
import { type Database, openDatabase } from './database';

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
