import fs from 'node:fs';
import type { SecretBox } from '../crypto/sealed';
import type { Database } from '../db/database';
import type { Clock } from '../kernel/clock';
import { type CertificateFacts, certificateFacts, generateSealKey, type SealKey } from './certificate';
import { sealKeyRepository } from './seal-keys.repository';

export type SealKeyConfig =
  | { kind: 'configured'; p12Path: string; password: string }
  | { kind: 'generated'; commonName: string };

export class SealKeyError extends Error {
  override name = 'SealKeyError';
}

const DEFAULT_ID = 'default';
const CONTEXT = 'seal-key:default';
/** Test mode's seal (issue 31): always generated, named for what it is, never the configured one. */
const TEST_ID = 'test';
const TEST_CONTEXT = 'seal-key:test';
export const TEST_SEAL_NAME = 'ActionDesk TEST seal - no legal value';

/**
 * The key documents are sealed with: the configured PKCS#12 file (SIGNING_CERT_P12 and
 * SIGNING_CERT_PASSWORD), or else the service's own self-signed key, generated on first start and kept
 * in the database, sealed with ENCRYPTION_KEYS. Several processes starting at once agree on one.
 */
export async function loadSealKey(
  deps: { database: Database; box: SecretBox; clock: Clock },
  config: SealKeyConfig,
): Promise<LoadedSealKey> {
  if (config.kind === 'configured') {
    let p12: Buffer;
    try {
      p12 = fs.readFileSync(config.p12Path);
    } catch (err) {
      throw new SealKeyError(
        `SIGNING_CERT_P12: cannot read ${config.p12Path} (${(err as NodeJS.ErrnoException).code})`,
      );
    }
    const key = { p12, passphrase: config.password };
    try {
      return { key, certificate: certificateFacts(key), source: 'configured' };
    } catch (err) {
      throw new SealKeyError(
        `SIGNING_CERT_P12: ${config.p12Path} does not open with SIGNING_CERT_PASSWORD, or holds no key and certificate (${(err as Error).message})`,
      );
    }
  }
  return generatedSealKey(deps, DEFAULT_ID, CONTEXT, config.commonName);
}

/** A self-signed seal key kept in the database under `id`: made on first use. */
async function generatedSealKey(
  deps: { database: Database; box: SecretBox; clock: Clock },
  id: string,
  context: string,
  commonName: string,
): Promise<LoadedSealKey> {
  const repo = sealKeyRepository(deps.database.db);
  let row = await repo.find(id);
  if (!row) {
    const generated = generateSealKey(commonName, deps.clock.now());
    const facts = certificateFacts(generated);
    await repo.insertIfAbsent({
      id,
      sealedP12: deps.box.seal(generated.p12.toString('base64'), context),
      sealedPassphrase: deps.box.seal(generated.passphrase, context),
      subject: facts.subject,
      fingerprint: facts.fingerprint,
      createdAt: deps.clock.now(),
    });
    row = await repo.find(id);
    if (!row) throw new SealKeyError('the generated seal key could not be stored');
  }
  const key = {
    p12: Buffer.from(deps.box.open(row.sealedP12, context), 'base64'),
    passphrase: deps.box.open(row.sealedPassphrase, context),
  };
  return { key, certificate: certificateFacts(key), source: 'generated' };
}

/** The seal key when it is needed, loaded once (what loadSealKey answers). */
export interface LoadedSealKey {
  key: SealKey;
  certificate: CertificateFacts;
  source: 'configured' | 'generated' | 'organisation';
}
/** The live seal, or (`test`) test mode's. */
export type SealKeySource = (mode?: 'live' | 'test') => Promise<LoadedSealKey>;

export function sealKeySource(
  deps: { database: Database; box: SecretBox; clock: Clock },
  config: SealKeyConfig,
): SealKeySource {
  const loading: { live?: Promise<LoadedSealKey>; test?: Promise<LoadedSealKey> } = {};
  return (mode = 'live') => {
    loading[mode] ??= (
      mode === 'test'
        ? generatedSealKey(deps, TEST_ID, TEST_CONTEXT, TEST_SEAL_NAME)
        : loadSealKey(deps, config)
    ).catch((err) => {
      loading[mode] = undefined;
      throw err;
    });
    return loading[mode];
  };
}

const testFingerprints = new WeakMap<Database, string>();

/**
 * The fingerprint of test mode's seal, without making it (a service that never signed in test mode
 * has none: null). What verification compares a signature's certificate with.
 */
export async function testSealFingerprint(database: Database): Promise<string | null> {
  const known = testFingerprints.get(database);
  if (known) return known;
  const found = (await sealKeyRepository(database.db).find(TEST_ID))?.fingerprint;
  if (found) testFingerprints.set(database, found);
  return found ?? null;
}
