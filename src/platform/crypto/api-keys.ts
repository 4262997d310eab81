import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API keys look like `adk_` + 32 random base62 characters + a 6-character base62 CRC32 of them:
 * secret scanners recognise the prefix, and a mistyped key fails the checksum without a query.
 * The first 12 characters (prefix + 8 random) find the row; the whole key is stored only as SHA-256.
 */
export const API_KEY_PREFIX = 'adk_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const LOOKUP_LENGTH = API_KEY_PREFIX.length + 8;
const KEY_RE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, width: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

function checksum(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

export interface GeneratedApiKey {
  key: string;
  lookupPrefix: string;
  secretHash: string;
}

export function generateApiKey(): GeneratedApiKey {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(62)];
  const key = `${API_KEY_PREFIX}${random}${checksum(random)}`;
  return { key, lookupPrefix: lookupPrefixOf(key), secretHash: hashApiKey(key) };
}

/** True when the key has our format and its checksum matches: checked before any database work. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_RE.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length);
  return checksum(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

export function lookupPrefixOf(key: string): string {
  return key.slice(0, LOOKUP_LENGTH);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time comparison of a presented key with a stored hash. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashApiKey(key), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
