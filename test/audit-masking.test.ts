// The audit trail (actiondesk_audit_row, migration 0027) copies every changed column's value into
// audit_events unless the table's audit trigger names the column as secret (recorded only as set,
// replaced or removed) or as not recorded. A column added later is recorded in full by default: this
// test reads the catalogue and fails when a column whose name says it holds a secret is recorded in full.
import { sql } from 'drizzle-orm';
import {
  AUDIT_FUNCTION,
  auditSettings,
  type Catalogue,
  readCatalogue,
} from '../scripts/support/database-catalogue';
import type { Database } from '../src/platform/db/database';
import { openTestDatabase } from './support/harness';

/**
 * Column names that say "this holds a secret or a credential". A hash of a credential counts too: a
 * stolen hash lets one test guesses offline, and the trail is read by every administrator.
 */
const SECRET_NAMES: RegExp[] = [
  /_hash$/, // secret_hash, token_hash, code_hash, password_hash, browser_hash
  /secret/, // secrets, client_secret_sealed
  /sealed/, // encrypted with the service's key
  /password|passphrase/,
  /^token|_token$/, // token_hash, lease_token
  /^code$|_code$/, // one-time codes and action links' codes
  /_challenge$/, // PKCE code challenges
  /^(sid|sess)$/, // express-session's store: the id is the session cookie's value
];
/**
 * Types that say when, whether or how many, never what: such a column cannot hold the secret its name
 * mentions (secret_rotated_at, password_sign_in, code_attempts).
 */
const SAYS_NOTHING =
  /^(boolean|smallint|integer|bigint|numeric|real|double precision|date|xid8|timestamp with(out)? time zone)$/;

/** Tables that hold secret-looking columns and carry no audit trigger, each with why that is fine. */
const NOT_AUDITED: Record<string, string> = {
  jobs: 'the work queue, not a record of the organisation; lease_token is a worker’s hold on a job it runs',
  idempotency_keys: 'request_hash fingerprints a request so a retry gets the stored answer; kept 24 hours',
  oauth_authorization_requests:
    'consent pages in flight (the hash of the page’s request id, the PKCE challenge); consents are audited on oauth_codes',
  seal_keys:
    'the service’s own signing keys, sealed; they belong to no organisation, so there is no trail to write to',
  staff_sessions:
    'express-session’s store: sid is the session cookie’s value, sess its data; not an organisation’s record',
  test_messages:
    'the test inbox: messages a test organisation would have sent; code is a test signer’s one-time code, shown to the integrator on purpose',
};
/** Audited columns masked as secret although their names do not look secret, each with why. */
const MASKED_ON_PURPOSE: Record<string, string> = {
  'signers.signature': 'a contact’s drawn signature: personal data, not copied into the trail',
  'signers.evidence': 'the signing evidence (addresses, devices): personal data',
  'signers.trail': 'the signing trail: personal data',
  'signers.decline_reason': 'a contact’s own words',
  'organisation_logos.bytes':
    'an image of up to 200 KB: recorded as set or replaced, not copied into the trail',
};

const looksSecret = (name: string, type: string) =>
  SECRET_NAMES.some((p) => p.test(name)) && !SAYS_NOTHING.test(type);

/** Everything wrong with the audit masking of `catalogue`, one line each; empty when all is well. */
function maskingProblems(catalogue: Catalogue): string[] {
  const problems: string[] = [];
  const allowed = new Set(Object.keys(NOT_AUDITED));
  for (const table of catalogue.tables) {
    const secrets = table.columns.filter((c) => looksSecret(c.name, c.type)).map((c) => c.name);
    const audits = table.triggers
      .map((t) => ({ trigger: t.name, settings: auditSettings(t) }))
      .filter((a) => a.settings !== null);
    if (audits.length === 0) {
      if (secrets.length > 0 && !allowed.has(table.name)) {
        problems.push(
          `${secrets.map((c) => `${table.name}.${c}`).join(', ')}: looks secret in a table without the audit trigger; audit it, or add ${table.name} to NOT_AUDITED with why`,
        );
      }
      if (allowed.has(table.name) && secrets.length === 0) {
        problems.push(`NOT_AUDITED names ${table.name}, which holds no secret-looking column: remove it`);
      }
      allowed.delete(table.name);
      continue;
    }
    if (allowed.delete(table.name)) {
      problems.push(`NOT_AUDITED names ${table.name}, which carries the audit trigger now: remove it`);
    }
    const columns = new Set(table.columns.map((c) => c.name));
    for (const { trigger, settings } of audits) {
      if (!settings) continue;
      for (const name of [...settings.secret, ...settings.ignored]) {
        if (!columns.has(name)) {
          problems.push(
            `${table.name}: ${trigger} names ${JSON.stringify(name)}, which is not one of its columns (a typo or a renamed column)`,
          );
        }
      }
      for (const column of secrets) {
        if (!settings.secret.includes(column) && !settings.ignored.includes(column)) {
          problems.push(
            `${table.name}.${column}: looks secret, but ${trigger} records its value in full; name it in the secret columns of actiondesk_audit_table('${table.name}', '${settings.target}', …)`,
          );
        }
      }
      for (const column of settings.secret) {
        const key = `${table.name}.${column}`;
        if (columns.has(column) && !secrets.includes(column) && !Object.hasOwn(MASKED_ON_PURPOSE, key)) {
          problems.push(
            `${key}: masked, but its name does not look secret; add it to MASKED_ON_PURPOSE with why`,
          );
        }
      }
    }
  }
  for (const name of allowed) problems.push(`NOT_AUDITED names ${name}, which is not a table: remove it`);
  return problems;
}

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** Thrown to roll back a transaction whose changes were only there to be looked at. */
class RollBack extends Error {}

/** The catalogue as `changes` leave it, read in the owner's transaction, which is then rolled back. */
async function catalogueAfter(...changes: string[]): Promise<Catalogue> {
  let seen: Catalogue | undefined;
  await database
    .ownerTransaction(async (tx) => {
      for (const change of changes) await tx.execute(sql.raw(change));
      seen = await readCatalogue(tx);
      throw new RollBack();
    })
    .catch((err: unknown) => {
      if (!(err instanceof RollBack)) throw err;
    });
  if (!seen) throw new Error('the catalogue was not read');
  return seen;
}

it('when the migrations ran, then every secret-looking column of an audited table is masked or not recorded', async () => {
  const catalogue = await readCatalogue(database.db);
  // The check has something to check: the audit trigger is there, on the tables that hold credentials.
  const audited = catalogue.tables.filter((t) => t.triggers.some((tr) => tr.function === AUDIT_FUNCTION));
  expect(audited.map((t) => t.name)).toEqual(expect.arrayContaining(['api_keys', 'users', 'oauth_tokens']));
  expect(maskingProblems(catalogue)).toEqual([]);
});

it('when an audited table gains a secret column the trigger does not mask, then the check names it', async () => {
  const catalogue = await catalogueAfter(
    'ALTER TABLE api_keys ADD COLUMN recovery_token text',
    'CREATE TABLE scratch_secrets (id uuid, signing_secret text)',
  );
  expect(maskingProblems(catalogue)).toEqual([
    expect.stringMatching(
      /^api_keys\.recovery_token: looks secret, but audit_rows records its value in full/,
    ),
    expect.stringMatching(
      /^scratch_secrets\.signing_secret: looks secret in a table without the audit trigger/,
    ),
  ]);
  // The change was rolled back: the database the other tests see is as migrated.
  const after = await readCatalogue(database.db);
  expect(after.tables.find((t) => t.name === 'api_keys')?.columns.map((c) => c.name)).not.toContain(
    'recovery_token',
  );
  expect(maskingProblems(after)).toEqual([]);
});

it('when the audit trigger names a column the table does not have, then the check names both', async () => {
  const catalogue = await catalogueAfter(
    'DROP TRIGGER audit_rows ON users',
    "SELECT actiondesk_audit_table('users', 'user', 'pasword_hash', 'auth_version,updated_at,password_changed_at,change_txid,sessions_ended_at')",
  );
  expect(maskingProblems(catalogue)).toEqual([
    'users: audit_rows names "pasword_hash", which is not one of its columns (a typo or a renamed column)',
    expect.stringMatching(/^users\.password_hash: looks secret, but audit_rows records its value in full/),
  ]);
});
