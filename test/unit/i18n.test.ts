import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dateTimeSeconds, dateTimeWithZone, longDateTime, utcDay, utcMinute } from '../../src/i18n/dates';
import { type Language, languageName, languages } from '../../src/i18n/languages';

// Every table in src/i18n keyed by language (an export with an `nl`, `fr` or `en` key) is found here by
// itself, so a new table is checked without being listed.

const dir = join(__dirname, '../../src/i18n');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

/** The exports of src/i18n that are text tables by language, as [file:export, table]. */
function textTables(): [string, Record<string, unknown>][] {
  const found: [string, Record<string, unknown>][] = [];
  for (const file of files) {
    const exports = require(join(dir, file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
      if (!Object.keys(value).some((k) => (languages as readonly string[]).includes(k))) continue;
      found.push([`${file}:${name}`, value as Record<string, unknown>]);
    }
  }
  return found;
}

/** Arguments a text function is tried with: words and numbers (1 and 2, for singular and plural). */
const tries: unknown[][] = [
  ['Ann', 'Org', 'Title', 'x'],
  [1, 1, 1, 1],
  [2, 5, 2, 5],
];

/**
 * One language's texts flattened to `path → what it says`: a string as itself, a function as what it
 * answers for each of `tries`, an array by index. Problems (empty texts) are collected in `empty`.
 */
function flatten(value: unknown, path: string, out: Map<string, string>, empty: string[]): void {
  if (typeof value === 'string') {
    if (value.trim() === '') empty.push(path);
    out.set(path, value);
  } else if (typeof value === 'function') {
    for (const args of tries) {
      const said = (value as (...a: unknown[]) => unknown)(...args);
      if (typeof said !== 'string' || said.trim() === '') empty.push(`${path}(${args.join(', ')})`);
    }
    out.set(path, 'function');
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, `${path}.${k}`, out, empty);
    if (Object.keys(value).length === 0) empty.push(path);
  } else {
    empty.push(`${path} (${String(value)})`);
  }
}

describe('the texts in nl, fr and en (src/i18n)', () => {
  const tables = textTables();

  it('when src/i18n is read, then the text tables of every audience are found', () => {
    const names = tables.map(([name]) => name);
    for (const expected of [
      'code-messages.ts:codeMessageTexts',
      'languages.ts:languageNames',
      'messages.ts:messageTexts',
      'report.ts:reportTexts',
      'respondent.ts:respondentTexts',
      'signed-document.ts:signedDocumentTexts',
      'signing.ts:signingTexts',
    ])
      expect(names).toContain(expected);
  });

  it.each(tables)('when %s is read, then every language has the same texts, none empty', (_name, table) => {
    expect(Object.keys(table).sort()).toEqual([...languages].sort());
    const flat = new Map<Language, Map<string, string>>();
    const empty: string[] = [];
    for (const language of languages) {
      const out = new Map<string, string>();
      flatten(table[language], language, out, empty);
      flat.set(language, out);
    }
    // The same keys in every language, and the same kind of text (a string where another has a string, …).
    const shape = (l: Language) =>
      new Set(
        [...(flat.get(l) ?? [])].map(
          ([path, said]) => `${path.slice(l.length)}${said === 'function' ? '()' : ''}`,
        ),
      );
    const missing: string[] = [];
    for (const language of languages)
      for (const other of languages)
        for (const key of shape(other))
          if (!shape(language).has(key)) missing.push(`${language}${key} (${other} has it)`);
    expect([...empty.map((p) => `${p} is empty`), ...missing]).toEqual([]);
  });
});

describe('dates and times for people (src/i18n/dates)', () => {
  const at = new Date('2026-03-02T09:00:00Z');

  it('when a moment is written long, then it is in the language and the organisation’s time zone', () => {
    expect(longDateTime(at, 'nl', 'Europe/Brussels')).toBe('2 maart 2026 om 10:00');
    expect(longDateTime(at, 'fr', 'Europe/Brussels')).toBe('2 mars 2026 à 10:00');
    expect(longDateTime(at, 'en', 'Europe/Brussels')).toBe('2 March 2026 at 10:00');
  });

  it('when a moment is written the ISO way, then the time zone is applied and named where the page shows it', () => {
    expect(dateTimeSeconds(at, 'UTC')).toBe('2026-03-02 09:00:00');
    expect(dateTimeSeconds(at, 'Europe/Brussels')).toBe('2026-03-02 10:00:00');
    expect(dateTimeWithZone(at, 'Europe/Brussels')).toBe('2026-03-02 10:00 (Europe/Brussels)');
  });

  it('when the staff side shows a moment, then it is UTC to the minute, from a Date or a stored string, or a dash', () => {
    expect(utcMinute(at)).toBe('2026-03-02 09:00');
    expect(utcMinute('2026-03-02T09:00:00.000Z')).toBe('2026-03-02 09:00');
    expect(utcMinute(null)).toBe('—');
    expect(utcDay(new Date('2026-03-02T23:30:00Z'))).toBe('2026-03-02');
  });

  it('when a language code is named, then ours get their own name and any other stays as it is', () => {
    expect(['nl', 'fr', 'en', 'de', 'constructor'].map(languageName)).toEqual([
      'Nederlands',
      'Français',
      'English',
      'de',
      'constructor',
    ]);
  });
});
