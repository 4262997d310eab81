import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane): about 35 ms here. */
// Algorithm is a const enum (nothing at run time): 2 is Argon2id.
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** Why a new password is refused, or null. Length is what counts (NIST SP 800-63B); no composition rules. */
export function passwordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'must not be your e-mail address';
  if (new Set(password).size < 4) return 'must not repeat the same few characters';
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize('NFC'), OPTIONS);
}

/** A hash of nothing anyone can type: verified against when no account matches, so timing tells nothing. */
let decoy: Promise<string> | undefined;

/** Whether `password` is the one `stored` was made of; a null or broken hash never matches. */
export async function passwordMatches(password: string, stored: string | null): Promise<boolean> {
  if (!stored) {
    decoy ??= hashPassword(`decoy-${Math.random()}`);
    await verify(await decoy, password.normalize('NFC')).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password.normalize('NFC'));
  } catch {
    return false;
  }
}
