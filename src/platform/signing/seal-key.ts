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

/**
 * The key documents are sealed with: the configured PKCS#12 file (SIGNING_CERT_P12 and
 * SIGNING_CERT_PASSWORD), or else the service's own self-signed key, generated on first start and kept
 * in the database, sealed with ENCRYPTION_KEYS. Several processes starting at once agree on one.
 */
export async function loadSealKey(
  deps: { database: Database; box: SecretBox; clock: Clock },
  config: SealKeyConfig,
): Promise<{ key: SealKey; certificate: CertificateFacts; source: 'configured' | 'generated' }> {
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
  const repo = sealKeyRepository(deps.database.db);
  let row = await repo.find(DEFAULT_ID);
  if (!row) {
    const generated = generateSealKey(config.commonName, deps.clock.now());
    const facts = certificateFacts(generated);
    await repo.insertIfAbsent({
      id: DEFAULT_ID,
      sealedP12: deps.box.seal(generated.p12.toString('base64'), CONTEXT),
      sealedPassphrase: deps.box.seal(generated.passphrase, CONTEXT),
      subject: facts.subject,
      fingerprint: facts.fingerprint,
      createdAt: deps.clock.now(),
    });
    row = await repo.find(DEFAULT_ID);
    if (!row) throw new SealKeyError('the generated seal key could not be stored');
  }
  const key = {
    p12: Buffer.from(deps.box.open(row.sealedP12, CONTEXT), 'base64'),
    passphrase: deps.box.open(row.sealedPassphrase, CONTEXT),
  };
  return { key, certificate: certificateFacts(key), source: 'generated' };
}

/** The seal key when it is needed, loaded once (what loadSealKey answers). */
export type LoadedSealKey = Awaited<ReturnType<typeof loadSealKey>>;
export type SealKeySource = () => Promise<LoadedSealKey>;

export function sealKeySource(
  deps: { database: Database; box: SecretBox; clock: Clock },
  config: SealKeyConfig,
): SealKeySource {
  let loading: Promise<LoadedSealKey> | undefined;
  return () => {
    loading ??= loadSealKey(deps, config).catch((err) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}
