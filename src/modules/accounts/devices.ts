import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Clock } from '../../platform/kernel/clock';
import { appendCookie, cookie } from '../../platform/web/cookies';

/**
 * Device cookies (OWASP's "device cookies" against account lockout): a browser that signed in to an
 * account is remembered for it, so that failures from elsewhere never slow that browser down. The
 * cookie names no account: each entry is a random nonce, the time it was made and a MAC (a key derived
 * from ENCRYPTION_KEYS) over the lower-cased e-mail, the nonce and the time — so an entry is valid only
 * for the e-mail typed in, and a forged or edited one is worth nothing. Failures are counted per
 * nonce on the server (sign_in_failures.device); the nonce alone is not a credential.
 */
const DEVICE_COOKIE = 'adk_device';
/** An entry is trusted this long after the sign-in that made it (the cookie's lifetime too). */
const DEVICE_DAYS = 365;
/** Accounts one browser is remembered for: the most recent sign-ins (the cookie stays under 1 KB). */
const DEVICE_ACCOUNTS = 5;

const PURPOSE = 'device-cookie';
const DAY_MS = 86_400_000;
const ENTRY = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{1,32}\.[0-9a-f]{64})$/;

interface Entry {
  nonce: string;
  /** Epoch seconds. */
  issued: number;
  /** `<key id>.<HMAC hex>` (SecretBox.mac): still valid after a key rotation while the key is listed. */
  mac: string;
  text: string;
}

const normal = (email: string) => email.trim().toLowerCase();
const signed = (email: string, nonce: string, issued: number) => `v1\n${email}\n${nonce}\n${issued}`;

/** The cookie's entries that are well formed and not expired (at most DEVICE_ACCOUNTS are read). */
function entriesOf(value: string | undefined, now: Date): Entry[] {
  if (!value || value.length > 2000) return [];
  return value
    .split('~')
    .slice(0, DEVICE_ACCOUNTS)
    .flatMap((text) => {
      const m = ENTRY.exec(text);
      if (!m) return [];
      const issued = Number(m[2]);
      if (now.getTime() - issued * 1000 >= DEVICE_DAYS * DAY_MS) return [];
      return [{ nonce: m[1]!, issued, mac: m[3]!, text }];
    });
}

const validFor = (box: SecretBox, entry: Entry, email: string) =>
  box.macMatches(PURPOSE, signed(email, entry.nonce, entry.issued), entry.mac);

/** The nonce of the browser's entry for this account (e-mail), when it has a valid, unexpired one. */
export function trustedDevice(
  box: SecretBox,
  value: string | undefined,
  email: string,
  now: Date,
): string | undefined {
  const account = normal(email);
  return entriesOf(value, now).find((entry) => validFor(box, entry, account))?.nonce;
}

/**
 * The cookie after a sign-in to the account: a new entry for it first (a new nonce: the device's
 * failures start again), then the browser's other entries, the oldest dropped past DEVICE_ACCOUNTS.
 */
function rememberDevice(box: SecretBox, value: string | undefined, email: string, now: Date): string {
  const account = normal(email);
  const nonce = randomBytes(16).toString('base64url');
  const issued = Math.floor(now.getTime() / 1000);
  const entry = `${nonce}.${issued}.${box.mac(PURPOSE, signed(account, nonce, issued))}`;
  const others = entriesOf(value, now)
    .filter((e) => !validFor(box, e, account))
    .map((e) => e.text);
  return [entry, ...others].slice(0, DEVICE_ACCOUNTS).join('~');
}

const cookieName = (secure: boolean) => (secure ? `__Host-${DEVICE_COOKIE}` : DEVICE_COOKIE);

/** This browser's device cookie (undefined: none). */
export function deviceCookie(req: Request, secure: boolean): string | undefined {
  return cookie(req, cookieName(secure));
}

export interface DeviceDeps {
  box: SecretBox;
  clock: Clock;
  /** Over HTTPS: `__Host-` prefixed and Secure. */
  secureCookies: boolean;
}

/**
 * Remembers this browser for the account it just signed in to (password, password link or single
 * sign-on). HttpOnly; SameSite=Strict, as only this site's own sign-in form needs it back.
 */
export function rememberBrowser(deps: DeviceDeps, req: Request, res: Response, email: string): void {
  const value = rememberDevice(deps.box, deviceCookie(req, deps.secureCookies), email, deps.clock.now());
  appendCookie(
    res,
    `${cookieName(deps.secureCookies)}=${value}; Path=/; Max-Age=${DEVICE_DAYS * 86_400}; HttpOnly; SameSite=Strict${deps.secureCookies ? '; Secure' : ''}`,
  );
}
