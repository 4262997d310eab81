import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets the service must read back (webhook signing secrets; later SSO client secrets and the signing
 * certificate) are stored sealed: AES-256-GCM with a key from configuration (ENCRYPTION_KEYS), never in
 * the database. A sealed value is `v1.<key id>.<iv>.<ciphertext+tag>` (base64url), and it is bound to
 * what it belongs to (`context`, e.g. the webhook's id): moved to another row it does not open.
 *
 * Key rotation (docs/operations.md#encryption-keys): put a new key first in ENCRYPTION_KEYS and keep the
 * old ones after it; new values are sealed with the first key, and values sealed with any listed key
 * still open. A value is resealed with the first key when it is next written (e.g. a webhook secret
 * rotation); an old key may be removed once nothing sealed with it is left.
 */
export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export class SealedSecretError extends Error {
  override name = 'SealedSecretError';
}

const VERSION = 'v1';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Reads `id:base64key,id:base64key` (32-byte keys); the first one seals. Throws naming the problem. */
export function parseEncryptionKeys(text: string): EncryptionKey[] {
  const keys = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part, i) => {
      const colon = part.indexOf(':');
      const id = colon > 0 ? part.slice(0, colon) : '';
      if (!KEY_ID.test(id))
        throw new Error(
          `key ${i + 1} must look like <id>:<base64 key>, with an id of letters, digits, - or _`,
        );
      const key = Buffer.from(part.slice(colon + 1), 'base64');
      if (key.length !== 32)
        throw new Error(`key ${id} must be 32 bytes in base64 (openssl rand -base64 32), not ${key.length}`);
      return { id, key };
    });
  if (keys.length === 0) throw new Error('must name at least one key');
  const ids = new Set(keys.map((k) => k.id));
  if (ids.size !== keys.length) throw new Error('names a key id twice');
  return keys;
}

export class SecretBox {
  private readonly byId: Map<string, Buffer>;

  constructor(private readonly keys: readonly EncryptionKey[]) {
    if (keys.length === 0) throw new Error('SecretBox needs at least one key');
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  /** The id of the key new values are sealed with. */
  get currentKeyId(): string {
    return this.keys[0]!.id;
  }

  seal(plaintext: string, context: string): string {
    const { id, key } = this.keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(`${VERSION}.${id}.${context}`));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, id, iv.toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, id = '', iv = '', body = ''] = sealed.split('.');
    if (version !== VERSION) throw new SealedSecretError('a sealed secret has an unknown format');
    const key = this.byId.get(id);
    if (!key)
      throw new SealedSecretError(`a secret is sealed with key ${id}, which ENCRYPTION_KEYS no longer lists`);
    const bytes = Buffer.from(body, 'base64url');
    if (bytes.length < 16) throw new SealedSecretError('a sealed secret is truncated');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(`${VERSION}.${id}.${context}`));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - 16)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SealedSecretError(`a secret sealed with key ${id} does not open: wrong key or altered value`);
    }
  }

  /**
   * A keyed hash of a short secret (a one-time code): `<key id>.<HMAC-SHA256 hex>` with a key derived
   * from the current key for `purpose`. Without the key, a stolen hash cannot be tried offline.
   */
  mac(purpose: string, value: string): string {
    const { id, key } = this.keys[0]!;
    return `${id}.${this.hmac(key, purpose, value)}`;
  }

  /** Whether `value` is the one `stored` (from mac) was made of; false when its key is gone. */
  macMatches(purpose: string, value: string, stored: string): boolean {
    const dot = stored.indexOf('.');
    const key = this.byId.get(stored.slice(0, dot));
    if (dot < 0 || !key) return false;
    const a = Buffer.from(this.hmac(key, purpose, value));
    const b = Buffer.from(stored.slice(dot + 1));
    return a.length === b.length && timingSafeEqual(a, b);
  }

  private hmac(key: Buffer, purpose: string, value: string): string {
    const derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `actiondesk mac ${purpose}`, 32));
    return createHmac('sha256', derived).update(value, 'utf8').digest('hex');
  }

  /** Whether a sealed value was sealed with another key than the current one (to reseal). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.currentKeyId;
  }
}

/**
 * The secret box for the configured keys; with none configured (development and tests only: production
 * refuses to start), a key kept in a file of DATA_DIR, created on first start, readable by its owner only.
 */
export function openSecretBox(
  config: { kind: 'keys'; keys: readonly EncryptionKey[] } | { kind: 'file'; path: string },
): SecretBox {
  if (config.kind === 'keys') return new SecretBox(config.keys);
  fs.mkdirSync(path.dirname(config.path), { recursive: true });
  try {
    fs.writeFileSync(config.path, `local:${randomBytes(32).toString('base64')}\n`, {
      flag: 'wx',
      mode: 0o600,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return new SecretBox(parseEncryptionKeys(fs.readFileSync(config.path, 'utf8')));
}
