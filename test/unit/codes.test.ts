import {
  API_KEY_PREFIX,
  apiKeyMatches,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  lookupPrefixOf,
} from '../../src/platform/crypto/api-keys';
import { newActionCode, normaliseActionCode } from '../../src/platform/crypto/codes';

const CROCKFORD = /^[0-9abcdefghjkmnpqrstvwxyz]{20}$/;

describe('action codes (newActionCode, normaliseActionCode)', () => {
  it('when codes are made, then each is 20 characters of lower-case Crockford base32, and they do not repeat', () => {
    const codes = Array.from({ length: 500 }, newActionCode);
    for (const code of codes) expect(code).toMatch(CROCKFORD);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('when many codes are made, then every one of the 32 characters appears at every position (no bias to a few)', () => {
    const seen = Array.from({ length: 20 }, () => new Set<string>());
    for (let i = 0; i < 2000; i++) {
      const code = newActionCode();
      for (let at = 0; at < code.length; at++) seen[at]!.add(code[at]!);
    }
    for (const set of seen) expect(set.size).toBe(32);
  });

  it('when a code is typed back as it is, then it is the code', () => {
    const code = newActionCode();
    expect(normaliseActionCode(code)).toBe(code);
  });

  it('when a code is typed in capitals, with spaces or hyphens, then it is still the code', () => {
    const code = 'abcd0123efgh4567jkmn';
    expect(normaliseActionCode('ABCD0123EFGH4567JKMN')).toBe(code);
    expect(normaliseActionCode('abcd-0123-efgh-4567-jkmn')).toBe(code);
    expect(normaliseActionCode(' abcd 0123\tefgh 4567 jkmn ')).toBe(code);
  });

  it('when i or l is typed for 1 and o for 0, then they are read as the digits', () => {
    expect(normaliseActionCode('abcdo123efgh4567jkmn')).toBe('abcd0123efgh4567jkmn');
    expect(normaliseActionCode('abcd0i23efgh4567jkmn')).toBe('abcd0123efgh4567jkmn');
    expect(normaliseActionCode('abcd0L23efgh4567jkmn')).toBe('abcd0123efgh4567jkmn');
    expect(normaliseActionCode('ABCDO1I3EFGH4567JKMN')).toBe('abcd0113efgh4567jkmn');
  });

  it.each([
    ['too short', 'abcd0123efgh4567jkm'],
    ['too long', 'abcd0123efgh4567jkmnp'],
    ['empty', ''],
    ['a u (not in the alphabet)', 'abcd0123efgh4567jkmu'],
    ['punctuation', 'abcd0123efgh4567jkm!'],
    ['an underscore', 'abcd0123_efgh4567jkm'],
    ['a letter with an accent', 'abcd0123efgh4567jkmé'],
  ])('when what is typed is %s, then it is no code', (_what, input) => {
    expect(normaliseActionCode(input)).toBeNull();
  });
});

describe('API keys (generateApiKey, isWellFormedApiKey)', () => {
  it('when a key is made, then it is adk_ + 38 base62 characters, with its lookup prefix and SHA-256', () => {
    const { key, lookupPrefix, secretHash } = generateApiKey();
    expect(key).toMatch(/^adk_[0-9A-Za-z]{38}$/);
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(lookupPrefix).toBe(key.slice(0, 12));
    expect(lookupPrefixOf(key)).toBe(lookupPrefix);
    expect(secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(secretHash).toBe(hashApiKey(key));
  });

  it('when keys are made, then they are well formed and all different', () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey().key);
    for (const key of keys) expect(isWellFormedApiKey(key)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('when one character of a key is mistyped, then its checksum fails without a query', () => {
    const { key } = generateApiKey();
    let caught = 0;
    for (let at = API_KEY_PREFIX.length; at < key.length; at++) {
      const c = key[at]!;
      const other = c === 'a' ? 'b' : 'a';
      const typo = key.slice(0, at) + other + key.slice(at + 1);
      if (!isWellFormedApiKey(typo)) caught++;
    }
    // CRC32 catches every single-character change.
    expect(caught).toBe(key.length - API_KEY_PREFIX.length);
  });

  it.each([
    ['another prefix', (k: string) => `adt_${k.slice(4)}`],
    ['one character short', (k: string) => k.slice(0, -1)],
    ['one character more', (k: string) => `${k}0`],
    ['a character outside base62', (k: string) => `${k.slice(0, 10)}-${k.slice(11)}`],
    ['spaces around it', (k: string) => ` ${k} `],
    ['swapped checksum and body', (k: string) => `adk_${k.slice(36)}${k.slice(4, 36)}`],
  ])('when a key has %s, then it is not well formed', (_what, change) => {
    const { key } = generateApiKey();
    expect(isWellFormedApiKey(change(key))).toBe(false);
  });

  it('when a key is compared with a stored hash, then only its own hash matches', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(apiKeyMatches(a.key, a.secretHash)).toBe(true);
    expect(apiKeyMatches(b.key, a.secretHash)).toBe(false);
    expect(apiKeyMatches(a.key, '')).toBe(false);
    expect(apiKeyMatches(a.key, 'zz')).toBe(false);
    expect(apiKeyMatches(a.key, a.secretHash.slice(0, 62))).toBe(false);
  });
});
