import type { Database } from '../db/database';
import { databaseStorage } from './file-contents.repository';
import {
  type FileStorage,
  localDiskStorage,
  type S3StorageConfig,
  s3Storage,
  withEarlierStorage,
} from './storage';

/**
 * Where file bytes go (FILE_STORAGE): `auto` is the database with a server database (every instance
 * reaches it) and the disk with the embedded one (a single process).
 */
export type FileStorageConfig =
  | { readonly kind: 'auto' | 'disk' | 'database'; readonly dir: string }
  | { readonly kind: 's3'; readonly dir: string; readonly s3: S3StorageConfig };

/** Which driver `openFileStorage` chose: for the start-up log line. */
export const fileStorageKind = (config: FileStorageConfig, database: Database) =>
  config.kind === 'auto' ? (database.driver === 'node-postgres' ? 'database' : 'disk') : config.kind;

/** The configured storage; files written to disk before another was chosen stay readable. */
export function openFileStorage(config: FileStorageConfig, database: Database): FileStorage {
  const disk = localDiskStorage(config.dir);
  if (fileStorageKind(config, database) === 'disk') return disk;
  if (config.kind === 's3') return withEarlierStorage(s3Storage(config.s3), disk);
  return withEarlierStorage(databaseStorage(database), disk);
}
