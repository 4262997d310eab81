import fs from 'node:fs';
import path from 'node:path';
import {
  createContact,
  createInvitedAction,
  createOrg,
  createTemplate,
  type TestOrg,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { until } from './support/until';

// An API-only instance and a worker-only instance on one database: the worker hears of the API's new
// jobs from the database (NOTIFY on commit), not from its poll, which here comes once an hour.

let api: Harness;
let worker: Harness;
let org: TestOrg;

beforeAll(async () => {
  api = await startHarness({ JOB_WORKER: 'false' });
  worker = await startHarness({ JOB_POLL_SECONDS: '3600' }, { database: api.database, startWorker: true });
  org = await createOrg(api);
});
afterAll(async () => {
  await worker.close();
  await api.close();
});

const outbox = (h: Harness) => {
  const dir = path.join(h.dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
};

it('when an API-only instance commits new actions, then a worker in another instance sends their invitations at once, without waiting for its poll', async () => {
  const template = await createTemplate(api, org);
  for (const n of [1, 2, 3]) {
    const contact = await createContact(api, org, { Voornaam: `Noor ${n}`, Email: `noor${n}@example.test` });
    await createInvitedAction(api, org, contact, template);
    // Each one is sent before the next is made: the worker is woken by every commit, not only the first.
    await until(() => outbox(worker).length === n, 60_000);
  }
  expect(outbox(api)).toEqual([]);
  const sent = outbox(worker).map((f) => fs.readFileSync(path.join(worker.dataDir, 'outbox', f), 'utf8'));
  for (const n of [1, 2, 3]) expect(sent.some((m) => m.includes(`noor${n}@example.test`))).toBe(true);
});
