import { z } from './zod';

/** A path id: any string; ids that are malformed, unknown or another organisation's all answer 404. */
export const idParam = (name: string) =>
  z
    .string()
    .max(200)
    .meta({ param: { name, in: 'path' }, description: 'Opaque identifier' });

export const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 timestamp, UTC' });

export const iso = (d: Date) => d.toISOString();

export const isoOrNull = (d: Date | null) => (d ? iso(d) : null);

/**
 * A moment a client gives (a query filter): ISO 8601 with an offset, whose instant falls in the years
 * 0001–9999 (what PostgreSQL's timestamptz and a Date both hold).
 */
export const instantParam = (description: string) =>
  z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
    .refine((s) => {
      const year = new Date(s).getUTCFullYear();
      return year >= 1 && year <= 9999;
    }, 'must fall between the years 0001 and 9999')
    .meta({ description });

/** The one way to ask a DELETE to take what depends on its target along (`?cascade=true`). */
export const cascadeParam = (description: string) =>
  z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description });
