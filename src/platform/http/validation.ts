import type { ZodError } from 'zod';
import { BadRequest, type FieldError } from '../errors';

export type Location = 'path' | 'query' | 'body';

/** An error body stays small whatever was sent: at most this many problems, each of bounded length. */
export const MAX_PROBLEMS = 20;
const MAX_FIELD = 200;
const MAX_MESSAGE = 300;
const SUMMARISED = 5;

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function join(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/**
 * The one 400 for invalid input: its message names the first problems, `details` holds up to
 * MAX_PROBLEMS of them (fields and messages clipped), and says how many more there were.
 */
export function invalid(location: Location, problems: FieldError[]): BadRequest {
  const kept = problems.slice(0, MAX_PROBLEMS).map((p) => ({
    ...p,
    field: clip(p.field, MAX_FIELD),
    message: clip(p.message, MAX_MESSAGE),
  }));
  const more = problems.length - SUMMARISED;
  const summary =
    kept
      .slice(0, SUMMARISED)
      .map((d) => `${d.field}: ${d.message}`)
      .join('; ') + (more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : '');
  if (problems.length > MAX_PROBLEMS) {
    kept.push({
      field: `(${location})`,
      in: location,
      message: `${problems.length - MAX_PROBLEMS} more problems are not listed`,
    });
  }
  return new BadRequest(`Invalid ${location}: ${summary}`, kept);
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
  const problems: FieldError[] = [];
  const unknown = location === 'query' ? 'is not a known query parameter' : 'is not a known field';
  for (const issue of error.issues) {
    if (problems.length > MAX_PROBLEMS) break;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push({ field: join([...under, ...issue.path, key]), in: location, message: unknown });
      }
      continue;
    }
    problems.push({
      field: join([...under, ...issue.path]) || `(${location})`,
      in: location,
      message: issue.message,
    });
  }
  return invalid(location, problems);
}
