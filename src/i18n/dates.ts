// The one place dates and times are formatted for people: e-mails, SMS, the contact's and the staff
// pages, PDFs. The API itself answers ISO 8601 UTC (docs/api.md) and does not come through here.
import type { Language } from './languages';

/** The locale a language's long dates are written in (Belgian Dutch and French, British English). */
const locales: Record<Language, string> = { nl: 'nl-BE', fr: 'fr-BE', en: 'en-GB' };

/** `2 maart 2026 om 10:00`, `2 mars 2026 à 10:00`, `2 March 2026 at 10:00`: a long date and time in `timeZone`. */
export function longDateTime(at: Date, language: Language, timeZone: string): string {
  return new Intl.DateTimeFormat(locales[language], {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone,
  }).format(at);
}

/** `2026-03-02 09:00:00` in `timeZone` (sv-SE formats dates the ISO way). */
export function dateTimeSeconds(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(at);
}

/** `2026-03-02 10:00 (Europe/Brussels)`: to the minute in `timeZone`, which is named. */
export function dateTimeWithZone(at: Date, timeZone: string): string {
  return `${dateTimeSeconds(at, timeZone).slice(0, 16)} (${timeZone})`;
}

/**
 * `2 Mar 2026, 10:00 CET`, `2 mrt 2026, 10:00 CET`, `2 mars 2026, 10:00 UTC+1`: a moment as the staff
 * pages show it, in the organisation's `timeZone`, with the zone named as the language names it.
 */
export function staffDateTime(at: Date, language: Language, timeZone: string): string {
  return new Intl.DateTimeFormat(locales[language], {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  }).format(at);
}

/**
 * `2026-03-02 09:00` (UTC, not named): a moment as the staff pages and staff e-mails show it, from a
 * Date or a stored ISO string; a dash when there is none.
 */
export function utcMinute(at: Date | string | null | undefined): string {
  const iso = at instanceof Date ? at.toISOString() : at;
  return iso ? iso.replace('T', ' ').slice(0, 16) : '—';
}

/** `2026-03-02`: the UTC day, as file names carry it. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The first moment of `day` (`2026-03-02`) in `timeZone`: where a staff page's "from" date starts. */
export function dayStartIn(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // The zone's offset at a moment: its wall clock read as UTC, less the moment.
  const offset = (at: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })
        .formatToParts(new Date(at))
        .map((p) => [p.type, Number(p.value)]),
    ) as Record<string, number>;
    return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour, parts.minute, parts.second) - at;
  };
  const first = guess - offset(guess);
  return new Date(guess - offset(first));
}
