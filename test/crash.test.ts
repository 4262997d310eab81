import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { templateBody } from './support/fixtures';
import { freePort } from './support/harness';
import { startWebhookReceiver } from './support/peers';
import { serverDatabases } from './support/server-databases';
import { processes } from './support/spawned';
import { until } from './support/until';

// The real server, killed with SIGKILL right after the contact's completions committed: what it had
// told the contact succeeded must still reach the CRM once it runs again.

let dir: string;
let database: { url: string; drop: () => Promise<void> } | undefined;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let run: ReturnType<typeof processes>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-crash-'));
  if (process.env.DATABASE_URL) database = await serverDatabases(process.env.DATABASE_URL).copy();
  receiver = await startWebhookReceiver();
  run = processes({ dataDir: dir, databaseUrl: database?.url ?? '' });
});
afterAll(async () => {
  run.killAll();
  await receiver.close();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Answers and submits an action through the public pages, as the contact does. */
async function completeAsContact(base: string, code: string) {
  const agent = request.agent(base);
  const first = await agent.get(`/action/${code}`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(first.text)?.[1] ?? '';
  const post = (fields: [string, string][], suffix = '') =>
    agent
      .post(`/action/${code}${suffix}?lang=nl`)
      .type('form')
      .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
  expect(
    (
      await post([
        ['step', '0'],
        ['nav', 'next'],
        ['q.q', 'Marie'],
      ])
    ).status,
  ).toBe(303);
  expect((await post([], '/submit')).status).toBe(303);
}

it('when the process is killed with SIGKILL just after completions committed, then after the restart each is delivered exactly once to a de-duplicating receiver', async () => {
  const boot = run.cli(['bootstrap', '--org', 'Crash', '--email', 'a@crash.test', '--json']);
  expect(boot.status).toBe(0);
  const { apiKey } = JSON.parse(boot.stdout) as { apiKey: string };

  // First life: the API only, so nothing is delivered before the kill.
  const port = await freePort();
  const first = await run.server(port, { JOB_WORKER: 'false' });
  const api = request(first.base);
  const hook = await api
    .post('/api/v1/webhooks')
    .set('x-api-key', apiKey)
    .send({ url: receiver.url, events: ['sessionrequest.completed'] });
  expect(hook.status).toBe(201);
  const template = await api
    .post('/api/v1/questionlists')
    .set('x-api-key', apiKey)
    .send(
      templateBody({
        supportedLanguages: ['nl'],
        sections: [
          {
            id: 's',
            title: { nl: 'Vraag' },
            questions: [{ id: 'q', type: 'short_text', title: { nl: 'Naam' }, required: true }],
          },
        ],
      }),
    );
  expect(template.status).toBe(201);
  const actions: string[] = [];
  for (let i = 0; i < 3; i++) {
    const contact = await api
      .post('/api/v1/customers')
      .set('x-api-key', apiKey)
      .send({ thirdpartyId: `KILL-${i}`, data: { Voornaam: `Kim ${i}` } });
    const action = await api
      .post('/api/v1/sessionrequests')
      .set('x-api-key', apiKey)
      .send({ type: 'qlist', customerId: contact.body._id, questionListIds: [template.body._id] });
    await completeAsContact(first.base, action.body.code);
    actions.push(action.body._id);
  }
  first.child.kill('SIGKILL');
  await first.exit;
  expect(receiver.received).toHaveLength(0);

  // Second life: the worker picks up what the first committed.
  const second = await run.server(port, { JOB_WORKER: 'true', JOB_POLL_SECONDS: '1' });
  await until(() => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size >= 3, 60_000);
  second.child.kill('SIGTERM');
  await second.exit;

  const unique = new Map(receiver.received.map((r) => [r.headers['webhook-id'], r.body]));
  expect(unique.size).toBe(3);
  expect(receiver.received.length).toBeGreaterThanOrEqual(3);
  const delivered = [...unique.values()] as {
    type: string;
    data: { sessionRequest: { _id: string }; customer: { thirdpartyId: string } };
  }[];
  expect(delivered.map((e) => e.type)).toEqual(Array(3).fill('sessionrequest.completed'));
  expect(delivered.map((e) => e.data.sessionRequest._id).sort()).toEqual([...actions].sort());
  expect(delivered.map((e) => e.data.customer.thirdpartyId).sort()).toEqual(['KILL-0', 'KILL-1', 'KILL-2']);
});
