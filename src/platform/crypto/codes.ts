import { randomBytes } from 'node:crypto';

// Crockford's base32 in lower case: no i, l, o or u, so a code read aloud or retyped survives.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 20; // 20 × 5 = 100 random bits

/** A public action code: 20 characters, 100 bits from the CSPRNG (256 is a multiple of 32: no bias). */
export function newActionCode(): string {
  const bytes = randomBytes(LENGTH);
  let code = '';
  for (const b of bytes) code += ALPHABET[b & 31];
  return code;
}

/**
 * What a person may type for a code: any case, with spaces or hyphens, i/l for 1 and o for 0.
 * Returns the canonical code, or null when it cannot be one.
 */
export function normaliseActionCode(input: string): string | null {
  const code = input.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
  if (code.length !== LENGTH) return null;
  for (const c of code) if (!ALPHABET.includes(c)) return null;
  return code;
}
