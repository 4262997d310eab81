import type { FailureTally } from './accounts.repository';

/**
 * How failed password sign-ins slow guessing down without locking anyone out (OWASP Authentication
 * Cheat Sheet: throttling, device cookies). Failures count over a sliding window, per key: per account
 * (e-mail) and per address for a browser the account does not know, per device for one that signed in
 * to it before. A key's first failures are free; after them each attempt waits twice as long as the
 * one before, from the key's last failure, up to a minute at most. Nothing is ever locked for longer.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Failures in the window before attempts must wait, per key. */
export const FREE_FAILURES = { account: 5, address: 20, device: 5 } as const;
/** The longest wait: a minute after the key's last failure. */
export const MAX_WAIT_MS = 60_000;
/** A device cookie with this many failures in the window is not trusted until they age out. */
export const DEVICE_DISTRUST_AFTER = 10;

/** How long an attempt must still wait (ms, 0: none) given a key's failures and how many are free. */
export function waitFor(tally: FailureTally, free: number, now: Date): number {
  if (tally.count < free || !tally.last) return 0;
  const delay = Math.min(MAX_WAIT_MS, 1000 * 2 ** Math.min(tally.count - free, 30));
  return Math.max(0, tally.last.getTime() + delay - now.getTime());
}
