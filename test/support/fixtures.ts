import { randomBytes } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { bootstrapOrganisation } from '../../src/modules/organisations/bootstrap.service';
import { createApiKey, createUser } from '../../src/modules/organisations/organisations.service';
import { completeSessionRequest } from '../../src/modules/sessionrequests/sessionrequests.service';
import { queryRows } from '../../src/platform/db/database';
import { inTenant } from '../../src/platform/db/tenant';
import { systemContext } from '../../src/platform/kernel/context';
import type { Group } from '../../src/platform/kernel/permissions';
import type { Harness } from './harness';
import { until } from './until';

export interface TestOrg {
  organisationId: string;
  adminId: string;
  adminKey: string;
  portfolioId: string;
}

const unique = () => randomBytes(4).toString('hex');

/** A new organisation with an administrator, a default portfolio and the administrator's key. */
export async function createOrg(h: Harness, name = `Org ${unique()}`): Promise<TestOrg> {
  const r = await bootstrapOrganisation(h, { organisation: name, email: `admin-${unique()}@example.test` });
  return {
    organisationId: r.organisationId,
    adminId: r.userId,
    adminKey: r.apiKey,
    portfolioId: r.portfolioId,
  };
}

/** A user of the organisation in the given groups, with one API key. */
export async function createUserWithKey(
  h: Harness,
  org: TestOrg,
  groups: Group[],
  kind: 'staff' | 'service' = 'staff',
  name = 'Test user',
) {
  const ctx = systemContext(org.organisationId, h.clock.now());
  const user = await createUser(h, ctx, {
    email: `${unique()}@example.test`,
    name,
    kind,
    groups,
  });
  const key = await createApiKey(h, ctx, user._id, { name: 'test key', mode: 'live' });
  return { userId: user._id, key: key.apiKey, keyId: key._id };
}

/** An id with the right shape that names nothing. */
export const unknownId = '01900000-0000-7000-8000-000000000000';

/** A valid three-section template in nl/fr/en with a condition; override any field. */
export function templateBody(overrides: Record<string, unknown> = {}) {
  const t = (nl: string, fr: string, en: string) => ({ nl, fr, en });
  return {
    name: `Intake ${unique()}`,
    description: 'Yearly intake',
    supportedLanguages: ['nl', 'fr', 'en'],
    hasReportSpec: true,
    sections: [
      {
        id: 'you',
        title: t('Over u', 'À propos de vous', 'About you'),
        questions: [
          { id: 'name', type: 'short_text', title: t('Naam', 'Nom', 'Name'), required: true },
          {
            id: 'married',
            type: 'yes_no',
            title: t('Gehuwd?', 'Marié ?', 'Married?'),
            required: true,
          },
          {
            id: 'partner',
            type: 'short_text',
            title: t('Naam partner', 'Nom du partenaire', 'Partner’s name'),
            condition: { questionId: 'married', equals: true },
          },
        ],
      },
      {
        id: 'money',
        title: t('Financieel', 'Finances', 'Money'),
        questions: [
          {
            id: 'income',
            type: 'single_choice',
            title: t('Inkomen', 'Revenu', 'Income'),
            options: [
              { value: 'low', label: t('Laag', 'Bas', 'Low') },
              { value: 'high', label: t('Hoog', 'Élevé', 'High') },
            ],
          },
          { id: 'amount', type: 'number', title: t('Bedrag', 'Montant', 'Amount') },
        ],
      },
      {
        id: 'end',
        title: t('Afronding', 'Fin', 'Wrap-up'),
        questions: [{ id: 'remarks', type: 'long_text', title: t('Opmerkingen', 'Remarques', 'Remarks') }],
      },
    ],
    ...overrides,
  };
}

/** Creates a template through the API as the organisation's administrator; returns its id. */
export async function createTemplate(h: Harness, org: TestOrg, overrides: Record<string, unknown> = {}) {
  const res = await h
    .api()
    .post('/api/v1/questionlists')
    .set('x-api-key', org.adminKey)
    .send(templateBody(overrides));
  if (res.status !== 201) throw new Error(`template: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body._id as string;
}

/** Creates a contact through the API; returns its id. */
export async function createContact(h: Harness, org: TestOrg, data: Record<string, string>) {
  const res = await h.api().post('/api/v1/customers').set('x-api-key', org.adminKey).send({ data });
  if (res.status !== 201) throw new Error(`contact: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body._id as string;
}

/** Creates a questionnaire action for a contact with an e-mail invitation, through the API; returns its id. */
export async function createInvitedAction(h: Harness, org: TestOrg, contactId: string, templateId: string) {
  const res = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({
      type: 'qlist',
      customerId: contactId,
      questionListIds: [templateId],
      notificationEmail: { send: true },
    });
  if (res.status !== 201) throw new Error(`action: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body._id as string;
}

/** Subscribes a webhook endpoint at `url` to `events`, through the API; returns its id. */
export async function createWebhook(h: Harness, org: TestOrg, url: string, events: string[]) {
  const res = await h.api().post('/api/v1/webhooks').set('x-api-key', org.adminKey).send({ url, events });
  if (res.status !== 201) throw new Error(`webhook: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body._id as string;
}

/** Rows of a query run inside the organisation's tenant (row-level security lets it see its rows). */
export function tenantRows<T>(h: Harness, organisationId: string, query: SQL): Promise<T[]> {
  return inTenant(h.database, systemContext(organisationId, h.clock.now()), (tx) => queryRows<T>(tx, query));
}

/**
 * Waits until every transaction running now has ended (on a server, other tests' too): a sync
 * (`updatedSince`), which lists only changes of finished transactions, then lists every change so far.
 */
export async function untilSettled(h: Harness, organisationId: string): Promise<void> {
  const [mark] = await tenantRows<{ x: string }>(
    h,
    organisationId,
    sql`SELECT pg_current_xact_id()::text AS x`,
  );
  await until(async () => {
    const [row] = await tenantRows<{ done: boolean }>(
      h,
      organisationId,
      sql`SELECT pg_snapshot_xmin(pg_current_snapshot()) > ${mark!.x}::xid8 AS done`,
    );
    return row?.done === true;
  }, 30_000);
}

/** The HTTP Basic Authorization header (RFC 7617) of an OAuth client. */
export const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** Completes an action as its contact's submission would, without the pages (for a finished action). */
export function completeAsContact(h: Harness, organisationId: string, actionId: string) {
  const ctx = systemContext(organisationId, h.clock.now());
  return inTenant(h.database, ctx, (tx) =>
    completeSessionRequest(h, tx, ctx, actionId, { actor: 'contact', userId: null }),
  );
}

/**
 * Sets what a user hears of the actions they send (users.notify): tests that count the contacts' mail
 * turn the notices of the organisation's administrator (who sends their actions) off.
 */
export async function setNotices(
  h: Harness,
  org: TestOrg,
  userId: string,
  notify: 'each' | 'digest' | 'none',
) {
  await h.database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('app.organisation_id', ${org.organisationId}, true)`);
    await tx.execute(sql`UPDATE users SET notify = ${notify} WHERE id = ${userId}::uuid`);
  });
}
