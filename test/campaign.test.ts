import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { Customer } from '../src/modules/customers/customers.schemas';
import { SessionList } from '../src/modules/sessions/sessions.schemas';
import { queryRows } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { systemContext } from '../src/platform/kernel/context';
import { createContact, createOrg, createTemplate, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let template: string;
let branch: string;

beforeAll(async () => {
  // Files on disk: a test breaks the files directory to make a report fail to store.
  h = await startHarness({ FILE_STORAGE: 'disk' });
  org = await createOrg(h, 'Kantoor Peeters');
  template = await createTemplate(h, org, { name: 'Tevredenheid' });
  const portfolio = await h
    .api()
    .post('/api/v1/portfolios')
    .set('x-api-key', org.adminKey)
    .send({ name: 'Campagne Gent' });
  branch = portfolio.body._id;
});
afterAll(() => h.close());

async function newCampaign(body: Record<string, unknown> = {}) {
  const res = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({ type: 'campaign', questionListIds: [template], portfolioId: branch, ...body });
  expect(res.status).toBe(201);
  return res.body as { _id: string; code: string; portfolioId: string | null };
}

/** One browser: its own cookie jar (CSRF and visitor cookies), reading the CSRF token from the page. */
async function browserOn(code: string) {
  const agent = request.agent(h.server);
  const first = await agent.get(`/action/${code}`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(first.text)?.[1] ?? '';
  const post = (fields: [string, string][], suffix = '') =>
    agent
      .post(`/action/${code}${suffix}?lang=nl`)
      .type('form')
      .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
  return {
    agent,
    first,
    post,
    start: (firstName: string, lastName: string, email: string) =>
      post(
        [
          ['firstName', firstName],
          ['lastName', lastName],
          ['email', email],
        ],
        '/start',
      ),
    step: (step: number, nav: string, answers: [string, string][]) =>
      post([['step', String(step)], ['nav', nav], ...answers]),
    page: (query = '') => agent.get(`/action/${code}${query}`),
  };
}

const setCookies = (res: { headers: Record<string, unknown> }): string[] =>
  ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);

async function sessionsOf(actionId: string) {
  const res = await h
    .api()
    .get(`/api/v1/sessions?sessionRequestId=${actionId}`)
    .set('x-api-key', org.adminKey);
  expect(res.status).toBe(200);
  return SessionList.parse(res.body);
}

async function customer(id: string) {
  const res = await h.api().get(`/api/v1/customers/${id}`).set('x-api-key', org.adminKey);
  return Customer.parse(res.body);
}

describe('campaign links', () => {
  it('when two strangers open one campaign link, then each gets a start page, their own draft and their own session, and the campaign stays open', async () => {
    const campaign = await newCampaign();
    expect(campaign.portfolioId).toBe(branch);
    const anna = await browserOn(campaign.code);
    expect(anna.first.status).toBe(200);
    expect(anna.first.text).toContain('Vul eerst uw naam en e-mailadres in.');
    expect(anna.first.text).toContain(`action="/action/${campaign.code}/start?lang=nl#result"`);

    const started = await anna.start('Anna', 'Janssens', 'anna@example.test');
    expect(started.status).toBe(303);
    const cookie = setCookies(started).find((c: string) => c.startsWith('adk_visitor='));
    expect(cookie).toMatch(
      new RegExp(
        `^adk_visitor=[A-Za-z0-9_-]{43}; Path=/action/${campaign.code}; Max-Age=7776000; HttpOnly; SameSite=Lax$`,
      ),
    );
    expect(
      (
        await anna.step(0, 'next', [
          ['q.name', 'Anna Janssens'],
          ['q.married', 'yes'],
          ['q.partner', 'Piet'],
        ])
      ).status,
    ).toBe(303);

    // A stranger on the same link: a start page, never Anna's answers.
    const bert = await browserOn(campaign.code);
    expect(bert.first.text).toContain('Vul eerst uw naam en e-mailadres in.');
    expect(bert.first.text).not.toContain('Anna Janssens');
    await bert.start('Bert', 'Peeters', 'bert@example.test');
    const bertsFirstPage = await bert.page();
    expect(bertsFirstPage.text).toContain('Stap 1 van 3');
    expect(bertsFirstPage.text).toContain('later in deze browser verdergaan');
    expect(bertsFirstPage.text).not.toContain('Anna Janssens');
    expect(bertsFirstPage.text).not.toContain('Piet');
    const bertsReview = await bert.page('?step=review');
    expect(bertsReview.text).not.toContain('Anna Janssens');

    // Anna submits; Bert still answers, and sees no thank-you page.
    await anna.step(1, 'next', [['q.income', 'high']]);
    await anna.step(2, 'next', []);
    expect((await anna.post([], '/submit')).status).toBe(303);
    await h.jobs.drain(); // the report, and with it the completion
    expect((await anna.page()).text).toContain('Bedankt!');
    const bertAfter = await bert.page();
    expect(bertAfter.text).not.toContain('Bedankt!');
    expect(bertAfter.text).toContain('Stap 1 van 3');
    await bert.step(0, 'next', [
      ['q.name', 'Bert Peeters'],
      ['q.married', 'no'],
    ]);
    await bert.step(1, 'next', [['q.income', 'low']]);
    await bert.step(2, 'next', []);
    expect((await bert.post([], '/submit')).status).toBe(303);
    await h.jobs.drain(); // the report, and with it the completion

    // A third browser still gets the start page: submissions do not complete a campaign.
    const third = await browserOn(campaign.code);
    expect(third.first.text).toContain('Vul eerst uw naam en e-mailadres in.');
    const action = await h
      .api()
      .get(`/api/v1/sessionrequests/${campaign._id}`)
      .set('x-api-key', org.adminKey);
    expect(action.body.status).toBe('opened');
    expect(action.body.history.map((e: { to: string }) => e.to)).toEqual(['created', 'opened']);

    const list = await sessionsOf(campaign._id);
    expect(list.total).toBe(2);
    const byName = new Map(list.sessions.map((s) => [s.responses[0]?.response, s]));
    const annas = byName.get('Anna Janssens')!;
    const berts = byName.get('Bert Peeters')!;
    expect(annas.responses.map((r) => r.response)).toEqual(['Anna Janssens', 'Ja', 'Piet', 'Hoog']);
    expect(berts.responses.map((r) => r.response)).toEqual(['Bert Peeters', 'Nee', 'Laag']);
    expect(annas.customer).not.toBe(berts.customer);
    expect(await customer(annas.customer!)).toMatchObject({
      portfolio: branch,
      data: { Voornaam: 'Anna', Achternaam: 'Janssens', Email: 'anna@example.test' },
    });
    expect((await customer(berts.customer!)).data.Email).toBe('bert@example.test');
  });

  it('when a visitor gives the e-mail of a contact of the portfolio, then the session is that contact’s and the contact is not changed', async () => {
    const created = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', org.adminKey)
      .send({
        portfolioId: branch,
        data: { Voornaam: 'Clara', Achternaam: 'Maes', Email: 'Clara@Example.test' },
      });
    expect(created.status).toBe(201);
    const known = created.body._id as string;
    // The same address in another portfolio is not the campaign's contact.
    await createContact(h, org, { Voornaam: 'Other', Email: 'clara@example.test' });
    const campaign = await newCampaign();
    const visitor = await browserOn(campaign.code);
    await visitor.start('Someone', 'Else', 'clara@example.TEST');
    await visitor.step(0, 'next', [
      ['q.name', 'C'],
      ['q.married', 'no'],
    ]);
    await visitor.post([], '/submit');
    await h.jobs.drain(); // the report, and with it the completion
    const list = await sessionsOf(campaign._id);
    expect(list.sessions.map((s) => s.customer)).toEqual([known]);
    expect((await customer(known)).data).toEqual({
      Voornaam: 'Clara',
      Achternaam: 'Maes',
      Email: 'Clara@Example.test',
    });
  });

  it('when the start form misses a field or has a bad e-mail, then 400 names each problem and nothing is created', async () => {
    const campaign = await newCampaign();
    const visitor = await browserOn(campaign.code);
    const res = await visitor.start('', 'Peeters', 'not-an-address');
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/id="e-firstName">Dit antwoord is verplicht\./);
    expect(res.text).toMatch(/id="e-email">Vul een geldig e-mailadres in\./);
    expect(res.text).toContain('value="Peeters"');
    expect(res.headers['set-cookie'] ?? []).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^adk_visitor=/)]),
    );
    // Without a visitor, a step post saves nothing and leads back to the start page.
    const step = await visitor.step(0, 'next', [
      ['q.name', 'X'],
      ['q.married', 'no'],
    ]);
    expect(step.status).toBe(303);
    expect((await visitor.page()).text).toContain('Vul eerst uw naam en e-mailadres in.');
    const [row] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ n: string }>(
        tx,
        sql`SELECT count(*)::text AS n FROM campaign_visitors WHERE session_request_id = ${campaign._id}`,
      ),
    );
    expect(row?.n).toBe('0');
  });

  it('when a visitor starts, then only the SHA-256 of the cookie’s token is stored', async () => {
    const campaign = await newCampaign();
    const visitor = await browserOn(campaign.code);
    const res = await visitor.start('Dirk', 'Wouters', 'dirk@example.test');
    const token = /adk_visitor=([^;]+)/.exec(
      setCookies(res).find((c: string) => c.startsWith('adk_visitor=')) ?? '',
    )?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ token_hash: string }>(
        tx,
        sql`SELECT token_hash FROM campaign_visitors WHERE session_request_id = ${campaign._id}`,
      ),
    );
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(token!).digest('hex') }]);
    // A forged token of the right shape finds nobody.
    const forged = await request(h.server)
      .get(`/action/${campaign.code}`)
      .set('Cookie', `adk_visitor=${'A'.repeat(43)}`);
    expect(forged.text).toContain('Vul eerst uw naam en e-mailadres in.');
  });

  it('when the campaign is withdrawn, then every visitor gets 410', async () => {
    const campaign = await newCampaign();
    const visitor = await browserOn(campaign.code);
    await visitor.start('Eva', 'Claes', 'eva@example.test');
    await h.api().post(`/api/v1/sessionrequests/${campaign._id}/deactivate`).set('x-api-key', org.adminKey);
    expect((await visitor.page()).status).toBe(410);
    expect((await visitor.start('Fien', 'Claes', 'fien@example.test')).status).toBe(410);
  });

  it('when a campaign’s expiry passes, then its visitors get 410 at once and the expiry job records it', async () => {
    h.clock.set('2026-03-02T09:00:00.000Z');
    const campaign = await newCampaign({ expiresAt: '2026-03-03T09:00:00.000Z' });
    const visitor = await browserOn(campaign.code);
    expect((await visitor.start('Gust', 'Claes', 'gust@example.test')).status).toBe(303);
    expect((await visitor.page()).status).toBe(200);
    h.clock.set('2026-03-03T09:00:01.000Z');
    expect((await visitor.page()).status).toBe(410);
    expect((await visitor.step(0, 'next', [['q.name', 'Gust']])).status).toBe(410);
    expect((await browserOn(campaign.code)).first.status).toBe(410);
    await h.jobs.drain();
    const action = await h
      .api()
      .get(`/api/v1/sessionrequests/${campaign._id}`)
      .set('x-api-key', org.adminKey);
    expect(action.body.status).toBe('expired');
  });

  it('when portfolioId is sent for another type or names no portfolio of the organisation, then 400 names portfolioId', async () => {
    const contact = await createContact(h, org, { Voornaam: 'G' });
    const forQlist = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({ type: 'qlist', customerId: contact, questionListIds: [template], portfolioId: branch });
    expect(forQlist.status).toBe(400);
    expect(forQlist.body.details).toEqual([expect.objectContaining({ field: 'portfolioId' })]);
    const other = await createOrg(h);
    const theirs = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', other.adminKey)
      .send({ type: 'campaign', questionListIds: [await createTemplate(h, other)], portfolioId: branch });
    expect(theirs.status).toBe(400);
    expect(theirs.body.details).toEqual([expect.objectContaining({ field: 'portfolioId' })]);
  });

  it('when a campaign has no portfolio, then its visitors become contacts of the default portfolio', async () => {
    const campaign = await newCampaign({ portfolioId: undefined });
    expect(campaign.portfolioId).toBeNull();
    const visitor = await browserOn(campaign.code);
    await visitor.start('Hanne', 'Smets', 'hanne@example.test');
    await visitor.step(0, 'next', [
      ['q.name', 'H'],
      ['q.married', 'no'],
    ]);
    await visitor.post([], '/submit');
    await h.jobs.drain(); // the report, and with it the completion
    const [session] = (await sessionsOf(campaign._id)).sessions;
    expect((await customer(session!.customer!)).portfolio).toBe(org.portfolioId);
  });

  it('when the report cannot be stored, then the submission still counts, the failing job is logged without the code, and the retried job attaches the report', async () => {
    const campaign = await newCampaign();
    const visitor = await browserOn(campaign.code);
    await visitor.start('Jan', 'Wouters', 'jan@example.test');
    await visitor.step(0, 'next', [
      ['q.name', 'J'],
      ['q.married', 'no'],
    ]);
    // The report cannot be stored: a file stands where the files directory should be.
    const filesDir = path.join(h.dataDir, 'files');
    fs.rmSync(filesDir, { recursive: true, force: true });
    fs.writeFileSync(filesDir, '');
    try {
      expect((await visitor.post([], '/submit')).status).toBe(303);
      await h.jobs.drain();
    } finally {
      fs.rmSync(filesDir, { force: true });
    }
    const mine = async () =>
      (await sessionsOf(campaign._id)).sessions.find((s) => s.responses[0]?.response === 'J')!;
    expect(await mine()).toMatchObject({ documents: [], documentsPending: true });
    expect(h.logs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ msg: 'job failed; will retry', kind: 'session-report' }),
      ]),
    );
    for (const line of h.logs) expect(JSON.stringify(line)).not.toContain(campaign.code);

    h.clock.advance(60_000);
    await h.jobs.drain();
    expect(await mine()).toMatchObject({ documentsPending: false, documents: [expect.anything()] });
  });

  it('when one address starts more than 20 visitors in ten minutes, then 429 until the window passes', async () => {
    h.clock.advance(10 * 60_000); // a fresh window: the tests above started visitors from this address
    const campaign = await newCampaign();
    const visitor = await browserOn(campaign.code);
    for (let i = 0; i < 20; i++)
      expect((await visitor.start('I', `${i}`, `i${i}@example.test`)).status).toBe(303);
    const refused = await visitor.start('I', 'x', 'ix@example.test');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    h.clock.advance(10 * 60_000);
    expect((await visitor.start('I', 'y', 'iy@example.test')).status).toBe(303);
  });
});

describe('deleting what campaign visitors made', () => {
  /** A visitor who starts, answers every step and submits; answers their session. */
  async function visitorSubmits(code: string, actionId: string, name: string, email: string) {
    const visitor = await browserOn(code);
    await visitor.start(name, 'Test', email);
    await visitor.step(0, 'next', [
      ['q.name', name],
      ['q.married', 'no'],
    ]);
    await visitor.step(1, 'next', [['q.income', 'low']]);
    await visitor.step(2, 'next', []);
    expect((await visitor.post([], '/submit')).status).toBe(303);
    await h.jobs.drain(); // the report, and with it the completion
    const mine = (await sessionsOf(actionId)).sessions.find((s) => s.responses[0]?.response === name);
    expect(mine?.documents).toHaveLength(1);
    return mine!;
  }
  const fileStatus = async (id: string) =>
    (await h.api().get(`/api/v1/files/${id}`).set('x-api-key', org.adminKey)).status;

  it('when one visitor’s report is deleted with cascade, then only that visitor’s session goes; the campaign and the other visitors stay', async () => {
    const campaign = await newCampaign();
    const bob = await visitorSubmits(campaign.code, campaign._id, 'Bob', 'bob@example.test');
    const carol = await visitorSubmits(campaign.code, campaign._id, 'Carol', 'carol@example.test');
    const report = bob.documents[0]!.fileId;

    const refused = await h.api().delete(`/api/v1/files/${report}`).set('x-api-key', org.adminKey);
    expect(refused.status).toBe(409);
    expect(refused.body.details).toContainEqual({
      field: 'sessions',
      in: 'state',
      message: `session ${bob._id} of campaign ${campaign._id} (one visitor's answers) lists this file in its documents; cascade deletes that visitor's session, not the campaign`,
      value: bob._id,
    });

    const res = await h.api().delete(`/api/v1/files/${report}?cascade=true`).set('x-api-key', org.adminKey);
    expect(res.status).toBe(204);
    expect(await fileStatus(report)).toBe(404);
    const left = await sessionsOf(campaign._id);
    expect(left.sessions.map((s) => s._id)).toEqual([carol._id]);
    expect(await fileStatus(carol.documents[0]!.fileId)).toBe(200);
    const action = await h
      .api()
      .get(`/api/v1/sessionrequests/${campaign._id}`)
      .set('x-api-key', org.adminKey);
    expect(action.body.status).toBe('opened');
    expect((await browserOn(campaign.code)).first.status).toBe(200);
  });

  it('when a contact who answered a campaign is erased, then their campaign session and its report go, and the other visitors stay', async () => {
    const campaign = await newCampaign();
    const dora = await visitorSubmits(campaign.code, campaign._id, 'Dora', 'dora@example.test');
    const eric = await visitorSubmits(campaign.code, campaign._id, 'Eric', 'eric@example.test');
    const report = dora.documents[0]!.fileId;

    const refused = await h.api().delete(`/api/v1/customers/${dora.customer}`).set('x-api-key', org.adminKey);
    expect(refused.status).toBe(409);
    expect(refused.body.details).toContainEqual(
      expect.objectContaining({ field: 'sessions.total', in: 'state', value: '1' }),
    );
    expect(await fileStatus(report)).toBe(200);

    const res = await h
      .api()
      .delete(`/api/v1/customers/${dora.customer}?cascade=true`)
      .set('x-api-key', org.adminKey);
    expect(res.status).toBe(204);
    expect(await fileStatus(report)).toBe(404);
    const storedReports = await inTenant(h.database, systemContext(org.organisationId, h.clock.now()), (tx) =>
      queryRows<{ id: string }>(tx, sql`SELECT id FROM files WHERE id = ${report}::uuid`),
    );
    expect(storedReports).toEqual([]);
    expect((await sessionsOf(campaign._id)).sessions.map((s) => s._id)).toEqual([eric._id]);
    expect(await fileStatus(eric.documents[0]!.fileId)).toBe(200);
  });
});
