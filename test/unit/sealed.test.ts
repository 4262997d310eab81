import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type EncryptionKey,
  openSecretBox,
  parseEncryptionKeys,
  SealedSecretError,
  SecretBox,
} from '../../src/platform/crypto/sealed';

const keyOf = (id: string, fill: number): EncryptionKey => ({ id, key: Buffer.alloc(32, fill) });
const base64Key = (fill: number) => Buffer.alloc(32, fill).toString('base64');

/** `sealed` with one character of its part `part` (0: version … 3: ciphertext) changed. */
function altered(sealed: string, part: number, at = 0): string {
  const parts = sealed.split('.');
  const text = parts[part]!;
  const c = text[at]!;
  parts[part] = text.slice(0, at) + (c === 'A' ? 'B' : 'A') + text.slice(at + 1);
  return parts.join('.');
}

describe('sealed secrets (SecretBox.seal, open)', () => {
  const box = new SecretBox([keyOf('k1', 1)]);

  it('when a secret is sealed, then it opens again for what it belongs to, and the text does not show it', () => {
    const sealed = box.seal('whsec_very-secret', 'webhook-1');
    expect(sealed).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('very-secret');
    expect(box.open(sealed, 'webhook-1')).toBe('whsec_very-secret');
  });

  it('when the same secret is sealed twice, then the two texts differ (a fresh IV each time) and both open', () => {
    const a = box.seal('same', 'ctx');
    const b = box.seal('same', 'ctx');
    expect(a).not.toBe(b);
    expect([box.open(a, 'ctx'), box.open(b, 'ctx')]).toEqual(['same', 'same']);
  });

  it('when secrets are empty or hold any Unicode, then they come back exactly', () => {
    for (const secret of ['', 'é€😀 \n\t', 'x'.repeat(10_000)])
      expect(box.open(box.seal(secret, 'c'), 'c')).toBe(secret);
  });

  it('when a sealed value is moved to another row (another context), then it does not open', () => {
    const sealed = box.seal('secret', 'webhook-1');
    expect(() => box.open(sealed, 'webhook-2')).toThrow(SealedSecretError);
    expect(() => box.open(sealed, 'webhook-2')).toThrow(
      'a secret sealed with key k1 does not open: wrong key or altered value',
    );
    expect(() => box.open(sealed, '')).toThrow(SealedSecretError);
  });

  it('when any part of a sealed value is altered, then it does not open', () => {
    const sealed = box.seal('a secret worth stealing', 'ctx');
    const ciphertext = sealed.split('.')[3]!;
    for (const at of [0, 5, ciphertext.length - 1])
      expect(() => box.open(altered(sealed, 3, at), 'ctx')).toThrow(SealedSecretError);
    expect(() => box.open(altered(sealed, 2), 'ctx')).toThrow(SealedSecretError);
  });

  it('when a sealed value is truncated, of another format or of an unknown key, then the error says which', () => {
    const sealed = box.seal('secret', 'ctx');
    const [, , iv] = sealed.split('.');
    expect(() => box.open(`v1.k1.${iv}.AAAA`, 'ctx')).toThrow('a sealed secret is truncated');
    expect(() => box.open(sealed.replace(/^v1/, 'v2'), 'ctx')).toThrow(
      'a sealed secret has an unknown format',
    );
    expect(() => box.open('not sealed at all', 'ctx')).toThrow('a sealed secret has an unknown format');
    expect(() => box.open(sealed.replace('.k1.', '.k9.'), 'ctx')).toThrow(
      'a secret is sealed with key k9, which ENCRYPTION_KEYS no longer lists',
    );
  });

  it('when a value sealed with one key id is relabelled with another listed key, then it does not open', () => {
    const two = new SecretBox([keyOf('k1', 1), keyOf('k2', 2)]);
    const sealed = two.seal('secret', 'ctx');
    expect(() => two.open(sealed.replace('.k1.', '.k2.'), 'ctx')).toThrow(SealedSecretError);
  });
});

describe('key rotation', () => {
  const oldBox = new SecretBox([keyOf('old', 1)]);
  const rotated = new SecretBox([keyOf('new', 2), keyOf('old', 1)]);

  it('when a new key is put first, then new values are sealed with it and old ones still open', () => {
    const before = oldBox.seal('secret', 'ctx');
    expect(rotated.open(before, 'ctx')).toBe('secret');
    const after = rotated.seal('secret', 'ctx');
    expect(after.split('.')[1]).toBe('new');
    expect(rotated.currentKeyId).toBe('new');
    expect(() => oldBox.open(after, 'ctx')).toThrow(
      'a secret is sealed with key new, which ENCRYPTION_KEYS no longer lists',
    );
  });

  it('when a value was sealed with another key than the current one, then it is stale (to reseal)', () => {
    expect(rotated.isStale(oldBox.seal('s', 'c'))).toBe(true);
    expect(rotated.isStale(rotated.seal('s', 'c'))).toBe(false);
  });

  it('when the box has no key, then it refuses to be made', () => {
    expect(() => new SecretBox([])).toThrow('SecretBox needs at least one key');
  });
});

describe('keyed hashes of short secrets (mac, macMatches)', () => {
  const box = new SecretBox([keyOf('k1', 1)]);

  it('when a code is hashed, then only that code for that purpose matches', () => {
    const stored = box.mac('sms-code', '123456');
    expect(stored).toMatch(/^k1\.[0-9a-f]{64}$/);
    expect(box.macMatches('sms-code', '123456', stored)).toBe(true);
    expect(box.macMatches('sms-code', '123457', stored)).toBe(false);
    expect(box.macMatches('email-code', '123456', stored)).toBe(false);
    expect(box.mac('sms-code', '123456')).toBe(stored);
  });

  it('when the hash is made with another key, then it differs; once that key is gone it no longer matches', () => {
    const other = new SecretBox([keyOf('k1', 9)]);
    expect(other.mac('p', 'v')).not.toBe(box.mac('p', 'v'));
    const rotated = new SecretBox([keyOf('k2', 2), keyOf('k1', 1)]);
    const stored = box.mac('p', 'v');
    expect(rotated.macMatches('p', 'v', stored)).toBe(true);
    expect(new SecretBox([keyOf('k2', 2)]).macMatches('p', 'v', stored)).toBe(false);
  });

  it('when the stored hash is malformed, then it does not match (and does not throw)', () => {
    const stored = box.mac('p', 'v');
    for (const bad of [
      '',
      'k1',
      'k1.',
      `${stored}0`,
      stored.slice(0, -1),
      stored.replace('k1.', 'k1:'),
      `.${stored}`,
    ])
      expect(box.macMatches('p', 'v', bad)).toBe(false);
  });
});

describe('configured keys (parseEncryptionKeys)', () => {
  it('when keys are listed, then each is read with its id, in order, blanks ignored', () => {
    const keys = parseEncryptionKeys(` k1:${base64Key(1)} ,, old_2:${base64Key(2)}`);
    expect(keys.map((k) => k.id)).toEqual(['k1', 'old_2']);
    expect(keys[0]!.key).toEqual(Buffer.alloc(32, 1));
    expect(keys[1]!.key).toEqual(Buffer.alloc(32, 2));
  });

  it.each([
    ['', 'must name at least one key'],
    [' , ', 'must name at least one key'],
    [base64Key(1), 'key 1 must look like <id>:<base64 key>, with an id of letters, digits, - or _'],
    [`:${base64Key(1)}`, 'key 1 must look like <id>:<base64 key>'],
    [`k1:${base64Key(1)},bad id:${base64Key(2)}`, 'key 2 must look like <id>:<base64 key>'],
    [`${'k'.repeat(33)}:${base64Key(1)}`, 'key 1 must look like <id>:<base64 key>'],
    ['k1:c2hvcnQ=', 'key k1 must be 32 bytes in base64 (openssl rand -base64 32), not 5'],
    [
      `k1:${Buffer.alloc(33).toString('base64')}`,
      'key k1 must be 32 bytes in base64 (openssl rand -base64 32), not 33',
    ],
    [`k1:${base64Key(1)},k1:${base64Key(2)}`, 'names a key id twice'],
  ])('when ENCRYPTION_KEYS is %j, then it is refused: %s', (text, problem) => {
    expect(() => parseEncryptionKeys(text)).toThrow(problem);
  });
});

describe('the development key file (openSecretBox)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-sealed-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('when no key is configured, then a key file is made once, readable by its owner only, and reused', () => {
    const file = path.join(dir, 'nested', 'encryption.key');
    const first = openSecretBox({ kind: 'file', path: file });
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^local:[A-Za-z0-9+/]{43}=\n$/);
    const sealed = first.seal('secret', 'ctx');
    const second = openSecretBox({ kind: 'file', path: file });
    expect(second.open(sealed, 'ctx')).toBe('secret');
    expect(second.currentKeyId).toBe('local');
  });

  it('when keys are configured, then they are used and no file is written', () => {
    const box = openSecretBox({ kind: 'keys', keys: [keyOf('k1', 1)] });
    expect(box.currentKeyId).toBe('k1');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
