import { z } from './zod';

/** A path id: any string; ids that are malformed, unknown or another organisation's all answer 404. */
export const idParam = (name: string) =>
  z
    .string()
    .max(200)
    .meta({ param: { name, in: 'path' }, description: 'Opaque identifier' });

export const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 timestamp, UTC' });

export const iso = (d: Date) => d.toISOString();

/** The one way to ask a DELETE to take what depends on its target along (`?cascade=true`). */
export const cascadeParam = (description: string) =>
  z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description });
