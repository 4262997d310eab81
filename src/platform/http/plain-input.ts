import type { FieldError } from '../kernel/errors';
import { invalid, type Location, MAX_PROBLEMS } from './validation';

/** Deeper than any shape the API takes; far below what would exhaust the stack of a recursive reader. */
const MAX_DEPTH = 32;

function badString(s: string): string | null {
  if (s.includes('\u0000')) return 'contains a NUL character (\\u0000), which cannot be stored';
  if (!s.isWellFormed()) return 'contains an unpaired UTF-16 surrogate, which cannot be stored';
  return null;
}

/**
 * Checks what a client sent before any schema sees it, without recursion: nesting at most MAX_DEPTH
 * levels, no `__proto__` key (it would be silently dropped or change an object's prototype), no NUL
 * character and no lone surrogate in keys or values (PostgreSQL cannot store the one and would
 * silently replace the other). Every other key, `constructor` included, is plain data.
 */
function plainInputProblems(value: unknown, location: Location): FieldError[] {
  const problems: FieldError[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0 && problems.length <= MAX_PROBLEMS) {
    const { value: v, path, depth } = stack.pop()!;
    const field = path || `(${location})`;
    if (typeof v === 'string') {
      const message = badString(v);
      if (message) problems.push({ field, in: location, message });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) {
      problems.push({ field, in: location, message: `is nested more than ${MAX_DEPTH} levels deep` });
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const child = path ? `${path}.${key}` : key;
      const keyProblem = badString(key);
      if (keyProblem) {
        problems.push({ field: child, in: location, message: `field name ${keyProblem}` });
        continue;
      }
      if (key === '__proto__') {
        problems.push({ field: child, in: location, message: 'is not allowed as a field name' });
        continue;
      }
      stack.push({ value: (v as Record<string, unknown>)[key], path: child, depth: depth + 1 });
    }
  }
  return problems;
}

/** Throws the one 400 when `plainInputProblems` finds anything. */
export function assertPlainInput(value: unknown, location: Location): void {
  const problems = plainInputProblems(value, location);
  if (problems.length > 0) throw invalid(location, problems);
}
