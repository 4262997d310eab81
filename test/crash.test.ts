import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { templateBody } from './support/fixtures';
import { startWebhookReceiver } from './support/peers';
import { serverDatabases } from './support/server-databases';
import { until } from './support/until';

// The real server, killed with SIGKILL right after the contact's completions committed: what it had
// told the contact succeeded must still reach the CRM once it runs again.

const root = path.resolve(__dirname, '..');
const serverEntry = path.join(root, 'dist/src/server.js');
const cliEntry = path.join(root, 'dist/src/cli/index.js');

let dir: string;
let database: { url: string; drop: () => Promise<void> } | undefined;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-crash-'));
  if (process.env.DATABASE_URL) database = await serverDatabases(process.env.DATABASE_URL).copy();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await receiver.close();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const env = (extra: Record<string, string>) => ({
  ...process.env,
  DATABASE_URL: database?.url ?? '',
  DATA_DIR: dir,
  LOG_LEVEL: 'warn',
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  SMTP_URL: '',
  ...extra,
});

async function startServer(port: number, extra: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [serverEntry], {
    env: env({ PORT: String(port), HOST: '127.0.0.1', ...extra }),
    stdio: 'ignore',
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  await until(async () => {
    const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
    return res?.status === 200;
  }, 30_000);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve() : child.on('exit', () => resolve()),
  );

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
  const boot = spawnSync(
    process.execPath,
    [cliEntry, 'bootstrap', '--org', 'Crash', '--email', 'a@crash.test', '--json'],
    {
      env: env({}),
      encoding: 'utf8',
    },
  );
  expect(boot.status).toBe(0);
  const { apiKey } = JSON.parse(boot.stdout) as { apiKey: string };

  // First life: the API only, so nothing is delivered before the kill.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const first = await startServer(port, { JOB_WORKER: 'false' });
  const api = request(base);
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
    await completeAsContact(base, action.body.code);
    actions.push(action.body._id);
  }
  first.kill('SIGKILL');
  await exited(first);
  expect(receiver.received).toHaveLength(0);

  // Second life: the worker picks up what the first committed.
  const second = await startServer(port, { JOB_WORKER: 'true', JOB_POLL_SECONDS: '1' });
  await until(() => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size >= 3, 30_000);
  second.kill('SIGTERM');
  await exited(second);

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
