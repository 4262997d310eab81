import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API keys look like `adk_` + 32 random base62 characters + a 6-character base62 CRC32 of them; test keys
 * (issue 31) `adk_test_` + the same: secret scanners recognise the prefix, and a mistyped key fails the
 * checksum without a query. The prefix and 8 random characters find the row; the whole key is stored
 * only as SHA-256.
 */
export const API_KEY_PREFIX = 'adk_';
export const TEST_API_KEY_PREFIX = 'adk_test_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const LOOKUP_RANDOM = 8;
const KEY_RE = new RegExp(
  `^(?:${TEST_API_KEY_PREFIX}|${API_KEY_PREFIX})([0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}})$`,
);

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

/** A new key; `test`: a test key (`adk_test_…`), for a test organisation's users. */
export function generateApiKey(mode: 'live' | 'test' = 'live'): GeneratedApiKey {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(62)];
  const key = `${mode === 'test' ? TEST_API_KEY_PREFIX : API_KEY_PREFIX}${random}${checksum(random)}`;
  return { key, lookupPrefix: lookupPrefixOf(key), secretHash: hashApiKey(key) };
}

/** True when the key has our format and its checksum matches: checked before any database work. */
export function isWellFormedApiKey(key: string): boolean {
  const body = KEY_RE.exec(key)?.[1];
  return body !== undefined && checksum(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

/** True for a test key's prefix or the key itself (`adk_test_…`). */
export function isTestApiKey(keyOrPrefix: string): boolean {
  return keyOrPrefix.startsWith(TEST_API_KEY_PREFIX);
}

export function lookupPrefixOf(key: string): string {
  const prefix = isTestApiKey(key) ? TEST_API_KEY_PREFIX : API_KEY_PREFIX;
  return key.slice(0, prefix.length + LOOKUP_RANDOM);
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
