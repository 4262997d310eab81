import { runCli } from '../src/cli/run';
import { monthPeriod, usageReport } from '../src/modules/organisations';
import {
  createContact,
  createInvitedAction,
  createOrg,
  createTemplate,
  type TestOrg,
  untilSettled,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

// Issue 31: the billing-like counts (`npm run cli -- usage`) read live organisations only; what a test key
// does is never counted.
let h: Harness;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Telling');
});
afterAll(() => h.close());

/** The CLI's input and output in this process, over a fresh embedded data directory of the harness. */
function cliIo() {
  const out: string[] = [];
  const write = { write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream;
  return { out, io: { env: { DATABASE_URL: '', DATA_DIR: h.dataDir }, stdout: write, stderr: write } };
}

describe('usage counts', () => {
  it('when a live key and a test key each send an action, then the month counts the live one and no test organisation', async () => {
    h.clock.set(new Date('2026-03-10T10:00:00Z'));
    const made = await h
      .api()
      .post(`/api/v1/admin/users/${org.adminId}/apikeys`)
      .set('x-api-key', org.adminKey)
      .send({ name: 'Sandbox', mode: 'test' });
    const sandbox = { ...org, adminKey: made.body.apiKey as string };
    for (const who of [org, sandbox, sandbox]) {
      const contact = await createContact(h, who, { Voornaam: 'Telling', Email: 'telling@example.test' });
      await createInvitedAction(h, who, contact, await createTemplate(h, who));
    }
    await h.jobs.drain();

    const march = monthPeriod('2026-03')!;
    expect(march).toEqual({ from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-04-01T00:00:00Z') });
    const rows = await usageReport(h.database, march.from, march.to);
    expect(rows.filter((r) => r.organisationId === org.organisationId)).toEqual([
      {
        organisationId: org.organisationId,
        name: 'Kantoor Telling',
        actionsCreated: 1,
        actionsSent: 1,
        actionsCompleted: 0,
        signatures: 0,
      },
    ]);
    // The test twin (its own organisation in the database, named by its events) is not listed at all.
    // Events are listed once no older transaction is open (on a shared server, any database's).
    await untilSettled(h, org.organisationId);
    const events = await h.api().get('/api/v1/events').set('x-api-key', sandbox.adminKey);
    const twinId = events.body.events[0].organisationId as string;
    expect(twinId).not.toBe(org.organisationId);
    expect(rows.map((r) => r.organisationId)).not.toContain(twinId);
    expect(rows.reduce((n, r) => n + r.actionsCreated, 0)).toBe(1);
    // Another month: nothing.
    const april = monthPeriod('2026-04')!;
    const none = await usageReport(h.database, april.from, april.to);
    expect(none.find((r) => r.organisationId === org.organisationId)?.actionsCreated).toBe(0);
  });

  it('when the month is not YYYY-MM, then the command stops with 2 naming the option', async () => {
    const { out, io } = cliIo();
    expect(await runCli(['usage', '--month', '2026-13'], io)).toBe(2);
    expect(out.join('')).toContain("actiondesk: --month must be a month as YYYY-MM, not '2026-13'");
    expect(monthPeriod('2026-3')).toBeUndefined();
    expect(monthPeriod('2026-12')).toEqual({
      from: new Date('2026-12-01T00:00:00Z'),
      to: new Date('2027-01-01T00:00:00Z'),
    });
  });

  it('when `cli usage` runs, then it prints a line per live organisation with its counts, or JSON', async () => {
    const { out, io } = cliIo();
    expect(await runCli(['usage', '--month', '2026-03', '--json'], io)).toBe(0);
    const json = JSON.parse(out.join(''));
    expect(json.month).toBe('2026-03');
    expect(Array.isArray(json.organisations)).toBe(true);
    out.length = 0;
    expect(await runCli(['usage', '--month', '2026-03'], io)).toBe(0);
    expect(out.join('')).toMatch(
      /^Usage in 2026-03 \(UTC\), live organisations only; actions:\norganisation +id +created +sent +completed +signatures\n/,
    );
  });
});
