import type { ZodError } from 'zod';
import { BadRequest, type FieldError } from '../kernel/errors';

export type Location = 'path' | 'query' | 'body';

/** An error body stays small whatever was sent: at most this many problems, each of bounded length. */
export const MAX_PROBLEMS = 20;
const MAX_FIELD = 200;
const MAX_MESSAGE = 300;
const SUMMARISED = 5;

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** A field path as the error bodies name it: `customers[0].email`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/**
 * The one 400 for invalid input: its message names the first problems, `details` holds up to
 * MAX_PROBLEMS of them (fields and messages clipped), and says how many more there were.
 */
export function invalid(
  location: Location,
  problems: FieldError[],
  total: number = problems.length,
): BadRequest {
  const kept = problems.slice(0, MAX_PROBLEMS).map((p) => ({
    ...p,
    field: clip(p.field, MAX_FIELD),
    message: clip(p.message, MAX_MESSAGE),
  }));
  const more = total - SUMMARISED;
  const summary =
    kept
      .slice(0, SUMMARISED)
      .map((d) => `${d.field}: ${d.message}`)
      .join('; ') + (more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : '');
  if (total > MAX_PROBLEMS) {
    const unlisted = total - MAX_PROBLEMS;
    kept.push({
      field: `(${location})`,
      in: location,
      message: `${unlisted} more problem${unlisted === 1 ? ' is' : 's are'} not listed`,
    });
  }
  return new BadRequest(`Invalid ${location}: ${summary}`, kept);
}

type Issue = ZodError['issues'][number];

/**
 * The issues in the order found, with one bound problem per field: a huge number breaks two "at most"
 * bounds (the safe-integer one and the field's own), and only the tighter is named.
 */
function distinct(issues: Issue[], under: readonly PropertyKey[]): Issue[] {
  const chosen = new Map<string, Issue>();
  for (const issue of issues) {
    if (issue.code !== 'too_big' && issue.code !== 'too_small') {
      chosen.set(`\u0001${chosen.size}`, issue);
      continue;
    }
    const key = `${fieldPath([...under, ...issue.path])}\u0000${issue.code}`;
    const earlier = chosen.get(key);
    if (!earlier) chosen.set(key, issue);
    else if (
      issue.code === 'too_big' &&
      earlier.code === 'too_big' &&
      Number(issue.maximum) < Number(earlier.maximum)
    )
      chosen.set(key, issue);
  }
  return [...chosen.values()];
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
  let total = 0;
  for (const issue of distinct(error.issues, under)) {
    if (issue.code === 'unrecognized_keys') {
      total += issue.keys.length;
      for (const key of issue.keys.slice(0, Math.max(0, MAX_PROBLEMS - problems.length))) {
        problems.push({ field: fieldPath([...under, ...issue.path, key]), in: location, message: unknown });
      }
      continue;
    }
    total++;
    if (problems.length >= MAX_PROBLEMS) continue;
    problems.push({
      field: fieldPath([...under, ...issue.path]) || `(${location})`,
      in: location,
      message: issue.message,
    });
  }
  return invalid(location, problems, total);
}
