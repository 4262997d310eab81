import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { TestOrg } from './fixtures';
import type { Harness } from './harness';

export const STAFF_PASSWORD = 'staff test passphrase';

/** The hidden fields of a page's forms, by name, their HTML entities decoded. */
export function hiddenFields(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      (m[2] ?? '')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&'),
    ]),
  );
}

/** A page without what differs from one answer to the next (CSRF tokens, script nonces): to compare two. */
export const withoutTokens = (text: string) =>
  text.replace(/value="[A-Za-z0-9_\-.%=+/]{20,}"/g, 'value="…"').replace(/nonce="[^"]+"/g, 'nonce="…"');

/** The CSRF token of the first form of a page. */
export const csrfIn = (text: string) => /name="_csrf" value="([^"]+)"/.exec(text)?.[1] ?? '';

/** A staff user of the organisation with a password, made through the admin API. */
export async function staffUser(h: Harness, org: TestOrg, groups: string[], name?: string) {
  const email = `staff-${randomBytes(4).toString('hex')}@example.test`;
  const user = await h
    .api()
    .post('/api/v1/admin/users')
    .set('x-api-key', org.adminKey)
    .send({ email, name: name ?? `Staff ${email.slice(6, 10)}`, groups });
  if (user.status !== 201) throw new Error(`user: ${user.status} ${JSON.stringify(user.body)}`);
  const set = await h
    .api()
    .put(`/api/v1/admin/users/${user.body._id}/password`)
    .set('x-api-key', org.adminKey)
    .send({ password: STAFF_PASSWORD });
  if (set.status !== 200) throw new Error(`password: ${set.status}`);
  return { id: user.body._id as string, email, name: user.body.name as string };
}

/** A browser (cookie-keeping agent) signed in as `email`; `next` is followed as the sign-in page would. */
export async function signedIn(h: Harness, email: string, next?: string) {
  const agent = request.agent(h.server);
  const page = await agent.get(`/signin${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  const res = await agent
    .post('/signin')
    .type('form')
    .send({ _csrf: csrfIn(page.text), email, password: STAFF_PASSWORD, ...(next ? { next } : {}) });
  if (res.status !== 303) throw new Error(`sign-in: ${res.status}`);
  return { agent, res };
}
