import { type Algorithm, hash, verify } from '@node-rs/argon2';
import type { PasswordRule } from '../../i18n/staff-password';

/** argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane): about 35 ms here. */
// Algorithm is a const enum (nothing at run time): 2 is Argon2id.
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** Which rule a new password breaks, or null. Length is what counts (NIST SP 800-63B); no composition rules. */
export function passwordRule(password: string, email: string): PasswordRule | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return 'short';
  if (length > PASSWORD_MAX) return 'long';
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'email';
  if (new Set(password).size < 4) return 'repetitive';
  return null;
}

/** The API's words for a broken rule (the password pages say it in the browser's language). */
const ruleTexts: Record<PasswordRule, string> = {
  short: `must be at least ${PASSWORD_MIN} characters`,
  long: `must be at most ${PASSWORD_MAX} characters`,
  email: 'must not be your e-mail address',
  repetitive: 'must not repeat the same few characters',
};

/** Why a new password is refused, in the API's words, or null. */
export function passwordProblem(password: string, email: string): string | null {
  const rule = passwordRule(password, email);
  return rule ? ruleTexts[rule] : null;
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
