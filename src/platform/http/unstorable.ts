import { BadRequest } from '../errors';

function badString(s: string): string | null {
  if (s.includes('\u0000')) return 'contains a NUL character (\\u0000), which cannot be stored';
  if (!s.isWellFormed()) return 'contains an unpaired UTF-16 surrogate, which cannot be stored';
  return null;
}

function find(value: unknown, path: string): { field: string; message: string } | null {
  if (typeof value === 'string') {
    const message = badString(value);
    return message ? { field: path || '(body)', message } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = find(value[i], `${path}[${i}]`);
      if (hit) return hit;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const field = path ? `${path}.${k}` : k;
      const keyProblem = badString(k);
      if (keyProblem) return { field, message: `field name ${keyProblem}` };
      const hit = find(v, field);
      if (hit) return hit;
    }
  }
  return null;
}

/**
 * PostgreSQL cannot store NUL characters, and a lone surrogate would be silently replaced on the way
 * in: both are refused up front with a 400 naming the field, so they never reach the database.
 */
export function assertStorable(value: unknown, root = ''): void {
  const hit = find(value, root);
  if (hit) throw new BadRequest(`${hit.field}: ${hit.message}`, [hit]);
}
