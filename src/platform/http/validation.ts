import type { ZodError } from 'zod';
import { BadRequest, type FieldError } from '../errors';

export type Location = 'path' | 'query' | 'body';

function join(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/**
 * A 400 whose message and details name every failing field; `under` prefixes the paths when the
 * schema checked only part of the input (e.g. `['data']`).
 */
export function fromZodError(
  error: ZodError,
  location: Location,
  under: readonly PropertyKey[] = [],
): BadRequest {
  const details: (FieldError & { in: Location })[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        details.push({
          field: join([...under, ...issue.path, key]),
          message: 'is not a known field',
          in: location,
        });
      }
      continue;
    }
    details.push({
      field: join([...under, ...issue.path]) || `(${location})`,
      message: issue.message,
      in: location,
    });
  }
  const summary = details.map((d) => `${d.field}: ${d.message}`).join('; ');
  return new BadRequest(`Invalid ${location === 'path' ? 'path' : location}: ${summary}`, details);
}
