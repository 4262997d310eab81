import { isId, newId } from '../../src/platform/kernel/ids';
import { escapeLike, foldForSearch } from '../../src/platform/kernel/text';
import { plural } from '../../src/platform/kernel/words';

describe('search folding (foldForSearch)', () => {
  it.each([
    ['Élodie', 'elodie'],
    ['FRANÇOIS', 'francois'],
    ['Łukasz Żółć', 'lukasz zolc'],
    ['Søren Ødegård', 'soren odegard'],
    ['Straße', 'strasse'],
    ['Æsir Œuvre', 'aesir oeuvre'],
    ['Đorđe', 'dorde'],
    ['Þór', 'thor'],
    ['ðe', 'de'],
    ['Işık', 'isik'],
    ['Ångström', 'angstrom'],
    ['ﬁne', 'fine'],
    ['plain text 123', 'plain text 123'],
  ])('when %s is searched, then it compares as %s', (text, folded) => {
    expect(foldForSearch(text)).toBe(folded);
  });

  it('when two spellings differ only in accents or case, then they fold to the same text', () => {
    expect(foldForSearch('Dvořák')).toBe(foldForSearch('dvorak'));
    expect(foldForSearch('ÉLODIE')).toBe(foldForSearch('élodie'));
  });

  it('when text is in another script, then its letters are kept, lower-cased and without diacritics (й as и, like é as e)', () => {
    expect(foldForSearch('Ελένη')).toBe('ελενη');
    expect(foldForSearch('Иванов')).toBe('иванов');
    expect(foldForSearch('Дмитрий')).toBe(foldForSearch('дмитрии'));
  });
});

describe('LIKE patterns (escapeLike)', () => {
  it('when user input holds %, _ or a backslash, then each is escaped to match literally', () => {
    expect(escapeLike('100%')).toBe('100\\%');
    expect(escapeLike('a_b')).toBe('a\\_b');
    expect(escapeLike('C:\\dir')).toBe('C:\\\\dir');
    expect(escapeLike('%_\\')).toBe('\\%\\_\\\\');
    expect(escapeLike('plain')).toBe('plain');
  });
});

describe('counts in words (plural)', () => {
  it('when the count is one, then the noun is singular; otherwise plural (regular or given)', () => {
    expect(plural(1, 'action')).toBe('1 action');
    expect(plural(0, 'action')).toBe('0 actions');
    expect(plural(3, 'action')).toBe('3 actions');
    expect(plural(1n, 'key')).toBe('1 key');
    expect(plural(2n, 'key')).toBe('2 keys');
    expect(plural(2, 'address', 'addresses')).toBe('2 addresses');
    expect(plural(1, 'address', 'addresses')).toBe('1 address');
    expect(plural(-1, 'day')).toBe('-1 days');
  });
});

describe('ids (newId, isId)', () => {
  it('when an id is made, then it is a UUIDv7 (version 7, RFC 9562 variant) in lower case', () => {
    for (let i = 0; i < 100; i++) {
      const id = newId();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(isId(id)).toBe(true);
    }
  });

  it('when an id is made at a moment, then its first 48 bits are that moment in milliseconds', () => {
    const at = Date.UTC(2030, 0, 1);
    const id = newId(at);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('when many ids are made, also in the same millisecond or with the clock going back, then each is greater than the one before', () => {
    const ids: string[] = [];
    const base = Date.UTC(2031, 0, 1);
    for (let i = 0; i < 1000; i++) ids.push(newId(base));
    ids.push(newId(base - 60_000));
    for (let i = 0; i < 100; i++) ids.push(newId());
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each([
    '',
    '0190A5B2-7C3D-7E4F-8A1B-2C3D4E5F6A7B',
    '0190a5b27c3d7e4f8a1b2c3d4e5f6a7b',
    '{0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b}',
    '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7',
    '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7bb',
    '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7g',
    ' 0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b',
    '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b\n',
    "1' OR '1'='1",
  ])('when %j is given as an id, then it is not one (answered 404 without a query)', (text) => {
    expect(isId(text)).toBe(false);
  });

  it('when a UUID of another version has our shape, then it is accepted (ids are opaque)', () => {
    expect(isId('123e4567-e89b-42d3-a456-426614174000')).toBe(true);
    expect(isId('00000000-0000-0000-0000-000000000000')).toBe(true);
  });
});
