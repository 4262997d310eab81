import { z } from './zod';

/** A path id: any string; ids that are malformed, unknown or another organisation's all answer 404. */
export const idParam = (name: string) =>
  z
    .string()
    .max(200)
    .meta({ param: { name, in: 'path' }, description: 'Opaque identifier' });

/**
 * A query parameter that filters a list by the id of a record: an id as the API gives it out (a UUID);
 * the routes answer anything else with 400 naming the parameter, and the document says so.
 */
export const idFilter = (description: string) =>
  z
    .string()
    .max(200)
    .meta({
      format: 'uuid',
      description: `${description} (an id as the API gives it out; anything else → 400)`,
    });

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
