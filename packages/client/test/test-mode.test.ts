// Issue 31: an integrator's script in test mode, through the client only (the signer's phone aside): a
// quicksign sent, signed with the link and code read from the test inbox, completed, fast-forwarded and
// wiped — no message leaving the service.
import request from 'supertest';
import { samplePdf } from '../../../test/support/binary';
import { createOrg, type TestOrg } from '../../../test/support/fixtures';
import { type Harness, startHarness } from '../../../test/support/harness';
import { startSmtpServer } from '../../../test/support/peers';
import { type ActionDeskClient, ActionDeskError, createClient } from '../src/index.js';

let h: Harness;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let live: ActionDeskClient;
let test: ActionDeskClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({ SMTP_URL: smtp.url });
  org = await createOrg(h, 'Kantoor Sandbox');
  live = createClient({ baseUrl: h.baseUrl, apiKey: org.adminKey });
  const key = await live.users.createApiKey(org.adminId, { name: 'sandbox', mode: 'test' });
  expect(key).toMatchObject({ livemode: false, apiKey: expect.stringMatching(/^adk_test_/) });
  test = createClient({ baseUrl: h.baseUrl, apiKey: key.apiKey! });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

it('when a script sends a quicksign with a test key and signs it with the test inbox’s link and code, then it completes and no e-mail leaves', async () => {
  const contact = await test.customers.create({ data: { Voornaam: 'Sam', Email: 'sam@example.test' } });
  const file = await test.files.upload({
    file: { data: await samplePdf('Sandbox', 1), name: 'sandbox.pdf' },
  });
  const action = await test.sessionRequests.create({
    type: 'quicksign',
    customerId: contact._id,
    document: { fileId: file._id, title: 'Sandbox contract' },
    language: 'en',
    notificationEmail: { send: true },
  });
  await h.jobs.drain();
  const [invitation] = (await test.testMessages.list({ subjectId: action._id })).messages;
  expect(invitation).toMatchObject({ kind: 'notification', to: 'sam@example.test', links: [action.url] });

  // The signer's phone: the forms of the page the link opens.
  const path = new URL(invitation!.links[0]!).pathname;
  const phone = request.agent(h.server);
  let csrf = '';
  const open = async () => {
    csrf = /name="_csrf" value="([^"]+)"/.exec((await phone.get(`${path}?lang=en`)).text)?.[1] ?? csrf;
  };
  const post = (to: string, fields: [string, string][]) =>
    phone
      .post(`${path}${to}?lang=en`)
      .type('form')
      .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
  await open();
  expect((await post('/sign/code', [['channel', 'email']])).status).toBe(303);
  await h.jobs.drain();
  const { messages } = await test.testMessages.list({ to: 'sam@example.test' });
  const code = messages.find((m) => m.kind === 'signing-code')?.code;
  expect(code).toMatch(/^\d{6}$/);
  expect((await post('/sign/verify', [['code', code!]])).status).toBe(303);
  await open();
  expect(
    (
      await post('/sign', [
        ['mark', 'typed'],
        ['typedName', 'Sam'],
        ['consent', 'yes'],
      ])
    ).status,
  ).toBe(303);
  await h.jobs.drain();

  expect((await test.sessionRequests.get(action._id)).status).toBe('completed');
  const [session] = (await test.sessions.list({ sessionRequestId: action._id })).sessions;
  const verification = await test.files.getVerification(session!.documents[0]!.fileId);
  expect(verification).toMatchObject({ valid: true, livemode: false });
  expect(smtp.received).toEqual([]);
  // The live key sees none of it.
  await expect(live.sessionRequests.get(action._id)).rejects.toMatchObject({ status: 404 });
});

it('when a script fast-forwards an action and wipes its test data, then the reminder is in the inbox and the records are gone', async () => {
  const contact = await test.customers.create({ data: { Voornaam: 'Rita', Email: 'rita@example.test' } });
  const [template] = await test.questionLists.list();
  const made =
    template ??
    (await test.questionLists.create({
      name: 'Vragen',
      supportedLanguages: ['en'],
      sections: [
        { id: 's', title: { en: 'S' }, questions: [{ id: 'q', type: 'short_text', title: { en: 'Q' } }] },
      ],
    } as never));
  const action = await test.sessionRequests.create({
    type: 'qlist',
    customerId: contact._id,
    questionListIds: [made._id],
    notificationEmail: { send: true },
    reminderSchedule: { reminder1Days: 2 },
  });
  await h.jobs.drain();
  const moved = await test.test.fastForward(action._id, { to: 'next-reminder' });
  expect(moved.notifications.filter((n) => n.purpose === 'reminder1').map((n) => n.status)).toEqual([
    'pending',
  ]);
  await h.jobs.drain();
  expect((await test.testMessages.list({ subjectId: action._id })).messages).toHaveLength(2);

  const wiped = await test.test.deleteData();
  expect(wiped.deleted.customers).toBeGreaterThan(0);
  expect((await test.customers.list()).customers).toEqual([]);
  const refused = await live.test.deleteData().catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ActionDeskError);
  expect(refused).toMatchObject({ status: 403 });
});
