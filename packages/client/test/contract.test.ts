// Issue 31: the client's contract with the real service (in-process, embedded database), in test mode.
// Every operation of the OpenAPI document is called through the client at least once and its answer
// checked; the last case fails, naming them, when an operation was never answered 2xx (a new route
// without a call here). The staff and sign-in routes refuse test credentials (403): they are called with
// the live client after the test client's refusal is checked.
import { generateSealKey } from '../../../src/platform/signing/certificate';
import { samplePdf, samplePng } from '../../../test/support/binary';
import { createOrg, type TestOrg, unknownId } from '../../../test/support/fixtures';
import { type Harness, startHarness } from '../../../test/support/harness';
import { startHttpReceiver, startSmtpServer, startWebhookReceiver } from '../../../test/support/peers';
import { submitAsContact } from '../../../test/support/submissions';
import { type ActionDeskClient, createClient, operationSpecs, verifyWebhook } from '../src/index.js';

let h: Harness;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let sms: Awaited<ReturnType<typeof startHttpReceiver>>;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
let live: ActionDeskClient;
let sandbox: ActionDeskClient;

/** Every answer the service gave either client, by operationId. */
const answered: { id: string; status: number }[] = [];
const routes = Object.values(operationSpecs).map((spec) => ({
  id: spec.id,
  method: spec.method,
  pattern: new RegExp(`^${spec.path.replace(/\{\w+\}/g, '[^/]+')}$`),
}));
const recording: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const path = new URL(String(input)).pathname;
  const route = routes.find((r) => r.method === init?.method && r.pattern.test(path));
  if (route) answered.push({ id: route.id, status: res.status });
  return res;
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  sms = await startHttpReceiver();
  hooks = await startWebhookReceiver();
  h = await startHarness({
    SMTP_URL: smtp.url,
    SMS_PROVIDER_URL: sms.url,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  org = await createOrg(h, 'Kantoor Contract');
  live = createClient({ baseUrl: h.baseUrl, apiKey: org.adminKey, fetch: recording });
  const key = await live.users.createApiKey(org.adminId, { name: 'contract', mode: 'test' });
  sandbox = createClient({ baseUrl: h.baseUrl, apiKey: key.apiKey!, fetch: recording });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await sms.close();
  await hooks.close();
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (e: { status?: number }) => e.status,
  );

/** A one-question Dutch template (what submitAsContact answers). */
const templateInput = (name: string) => ({
  name,
  supportedLanguages: ['nl' as const],
  hasReportSpec: true,
  sections: [
    {
      id: 's',
      title: { nl: 'Vraag' },
      questions: [{ id: 'q', type: 'short_text' as const, title: { nl: 'Naam' }, required: true }],
    },
  ],
});

describe('the client against the service, in test mode', () => {
  it('contacts and portfolios: made, read, changed, listed and deleted', async () => {
    const portfolio = await sandbox.portfolios.create({ name: 'Contract North' });
    expect((await sandbox.portfolios.list()).portfolios.map((p) => p.name)).toContain('Contract North');
    const made = await sandbox.customers.create({
      thirdpartyId: 'CRM-9',
      portfolioId: portfolio._id,
      data: { Voornaam: 'Lotte', Email: 'lotte@example.test' },
    });
    expect(await sandbox.customers.get(made._id)).toEqual(made);
    const changed = await sandbox.customers.update(made._id, { data: { Gemeente: 'Gent' } });
    expect(changed.data).toMatchObject({ Voornaam: 'Lotte', Gemeente: 'Gent' });
    const found = await sandbox.customers.list({ thirdpartyId: 'CRM-9' });
    expect(found.customers.map((c) => c._id)).toEqual([made._id]);
    await sandbox.customers.delete(made._id);
    expect(await refusal(sandbox.customers.get(made._id))).toBe(404);
    // A live key sees none of it.
    expect((await live.portfolios.list()).portfolios.map((p) => p.name)).not.toContain('Contract North');
  });

  it('templates: made, read, renamed and listed', async () => {
    const made = await sandbox.questionLists.create(templateInput('Contract intake'));
    expect((await sandbox.questionLists.get(made._id)).name).toBe('Contract intake');
    const renamed = await sandbox.questionLists.update(made._id, { name: 'Contract intake 2' });
    expect(renamed.name).toBe('Contract intake 2');
    expect((await sandbox.questionLists.list()).map((q) => q._id)).toContain(made._id);
  });

  it('files: uploaded, read, verified (not signed) and deleted', async () => {
    const pdf = await samplePdf('Contract', 1);
    const file = await sandbox.files.upload({ file: { data: pdf, name: 'contract.pdf' } });
    expect(await sandbox.files.get(file._id)).toMatchObject({
      _id: file._id,
      contentType: 'application/pdf',
      size: pdf.length,
    });
    expect(await sandbox.files.getVerification(file._id)).toMatchObject({ signed: false });
    expect(await sandbox.files.verifyUploaded({ file: { data: pdf, name: 'contract.pdf' } })).toMatchObject({
      signed: false,
    });
    await sandbox.files.delete(file._id);
    expect(await refusal(sandbox.files.get(file._id))).toBe(404);
  });

  it('an action: sent into the test inbox, answered by the contact, reopened, withdrawn; another fast-forwarded to expiry', async () => {
    const contact = await sandbox.customers.create({
      data: { Voornaam: 'Bram', Email: 'bram@example.test' },
    });
    const template = await sandbox.questionLists.create(templateInput('Contract yearly'));
    const action = await sandbox.sessionRequests.create({
      type: 'qlist',
      customerId: contact._id,
      questionListIds: [template._id],
      notificationEmail: { send: true },
    });
    await h.jobs.drain();
    const { messages } = await sandbox.testMessages.list({ subjectId: action._id });
    expect(messages).toEqual([expect.objectContaining({ kind: 'notification', to: 'bram@example.test' })]);
    expect(await sandbox.testMessages.get(messages[0]!._id)).toEqual(messages[0]);
    expect(messages[0]!.links).toEqual([action.url]);

    await submitAsContact(h, new URL(action.url).pathname.split('/').pop()!);
    expect((await sandbox.sessionRequests.get(action._id)).status).toBe('completed');
    const { sessions } = await sandbox.sessions.list({ sessionRequestId: action._id });
    expect(sessions).toHaveLength(1);
    expect((await sandbox.sessions.get(sessions[0]!._id)).sessionRequest).toBe(action._id);
    expect((await sandbox.sessionRequests.reopen(action._id)).status).toBe('reopened');
    expect((await sandbox.sessionRequests.deactivate(action._id)).status).toBe('deactivated');
    expect((await sandbox.sessionRequests.list()).sessionRequests.map((a) => a._id)).toContain(action._id);

    const later = await sandbox.sessionRequests.create({
      type: 'qlist',
      customerId: contact._id,
      questionListIds: [template._id],
      expiresAt: new Date(h.clock.now().getTime() + 7 * 86_400_000).toISOString(),
    });
    const moved = await sandbox.test.fastForward(later._id, { to: 'expiry' });
    expect(moved.expiresAt).toBe(h.clock.now().toISOString());
    // Nothing left the service.
    expect(smtp.received).toEqual([]);
    expect(sms.received).toEqual([]);
  });

  it('setups: a quick-signing setup and an action setup, made and read back', async () => {
    const file = await sandbox.files.upload({
      file: { data: await samplePdf('Setup', 1), name: 'setup.pdf' },
    });
    const quick = await sandbox.setups.createQuickSigningSetup({
      customer: { firstname: 'Marie', lastname: 'Claes', email: 'marie.setup@example.test' },
      document: { fileid: file._id, title: 'Contract' },
    });
    expect(await sandbox.setups.getQuickSigningSetup(quick.setupId)).toMatchObject({
      customer: expect.objectContaining({ email: 'marie.setup@example.test' }),
    });
    const setup = await sandbox.setups.createActionSetup({ customers: [{ email: 'setup@example.test' }] });
    expect(JSON.stringify(await sandbox.setups.getActionSetup(setup.actionSetupId))).toContain(
      'setup@example.test',
    );
  });

  it('webhooks and events: a test endpoint gets signed events saying livemode false, redelivered on request', async () => {
    h.clock.set(new Date()); // the signature's time is checked against the real clock
    const hook = await sandbox.webhooks.create({ url: hooks.url, events: ['customer.created'] });
    expect((await sandbox.webhooks.get(hook._id)).url).toBe(hooks.url);
    expect((await sandbox.webhooks.update(hook._id, { description: 'Contract CRM' })).description).toBe(
      'Contract CRM',
    );
    expect((await sandbox.webhooks.list()).webhooks.map((w) => w._id)).toContain(hook._id);
    const rotated = await sandbox.webhooks.rotateSecret(hook._id);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(await sandbox.webhooks.test(hook._id)).toMatchObject({ delivered: true, responseStatus: 200 });

    await sandbox.customers.create({ data: { Voornaam: 'Hooked' } });
    await h.jobs.drain();
    const created = hooks.received.find((r) => r.body.type === 'customer.created')!;
    const event = await verifyWebhook(
      created.headers as Record<string, string>,
      created.raw,
      rotated.secret!,
    );
    expect(event).toMatchObject({ type: 'customer.created', livemode: false });
    const { deliveries } = await sandbox.webhooks.listDeliveries(hook._id);
    expect(deliveries[0]).toMatchObject({ status: 'succeeded' });
    expect((await sandbox.webhooks.redeliverDelivery(deliveries[0]!._id)).status).toBe('pending');
    const { events } = await sandbox.events.list();
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.livemode === false)).toBe(true);
    await sandbox.webhooks.delete(hook._id);
    expect(await refusal(sandbox.webhooks.get(hook._id))).toBe(404);
  });

  it('the organisation as a test administrator sees it: limits, brand and logo, keys, users, audit, sign-in settings', async () => {
    expect(await sandbox.rateLimits.update({ apiPerMinute: 900 })).toMatchObject({ apiPerMinute: 900 });
    expect(await sandbox.rateLimits.get()).toMatchObject({ apiPerMinute: 900 });
    expect((await live.rateLimits.get()).apiPerMinute).not.toBe(900);
    expect(await sandbox.organisation.updateBrand({ brandName: 'Contract Sandbox' })).toMatchObject({
      brandName: 'Contract Sandbox',
    });
    expect((await sandbox.organisation.getBrand()).brandName).toBe('Contract Sandbox');
    expect(
      (await sandbox.organisation.setLogo({ file: { data: await samplePng(8, 8), name: 'logo.png' } })).logo,
    ).not.toBeNull();
    await sandbox.organisation.deleteLogo();
    expect((await sandbox.organisation.getBrand()).logo).toBeNull();

    const extra = await sandbox.users.createApiKey(org.adminId, { name: 'second sandbox key' });
    expect(extra).toMatchObject({ livemode: false, apiKey: expect.stringMatching(/^adk_test_/) });
    expect((await sandbox.users.listApiKeys(org.adminId)).apiKeys.map((k) => k._id)).toContain(extra._id);
    expect((await sandbox.apiKeys.list()).apiKeys.every((k) => k.livemode === false)).toBe(true);
    await sandbox.users.deleteApiKey(org.adminId, extra._id);
    expect((await sandbox.users.list()).users.map((u) => u._id)).toContain(org.adminId);
    expect((await sandbox.users.get(org.adminId)).groups).toEqual(['administrator']);
    const audit = await sandbox.auditEvents.list({ action: 'customer.created' });
    expect(audit.events.length).toBeGreaterThan(0);
    expect(await sandbox.sso.getSettings()).toMatchObject({ passwordSignIn: true });
    expect((await sandbox.sso.listProviders()).providers).toEqual([]);
  });

  it('a test OAuth client: registered, its tokens issued, introspected, revoked; disabled and enabled', async () => {
    const client = await sandbox.oauth.createClient({
      name: 'Contract partner',
      grants: ['client_credentials'],
      scopes: ['read'],
    });
    expect(client.livemode).toBe(false);
    expect((await sandbox.oauth.getClient(client._id)).name).toBe('Contract partner');
    expect((await sandbox.oauth.listClients()).clients.map((c) => c._id)).toContain(client._id);
    const { clientSecret } = await sandbox.oauth.rotateClientSecret(client._id);
    const credentials = { client_id: client.clientId, client_secret: clientSecret ?? '' };
    const first = await sandbox.oauth.token({ grant_type: 'client_credentials', ...credentials });
    expect(await sandbox.oauth.introspect({ token: first.access_token, ...credentials })).toMatchObject({
      active: true,
      client_id: client.clientId,
    });
    const { tokens } = await sandbox.oauth.listClientTokens(client._id);
    expect(tokens).toHaveLength(1);
    await sandbox.oauth.revokeClientToken(client._id, tokens[0]!._id);
    expect(await sandbox.oauth.introspect({ token: first.access_token, ...credentials })).toEqual({
      active: false,
    });
    const second = await sandbox.oauth.token({ grant_type: 'client_credentials', ...credentials });
    await sandbox.oauth.revoke({ token: second.access_token, ...credentials });
    expect(await sandbox.oauth.introspect({ token: second.access_token, ...credentials })).toEqual({
      active: false,
    });
    await sandbox.oauth.token({ grant_type: 'client_credentials', ...credentials });
    expect(await sandbox.oauth.revokeClientTokens(client._id)).toMatchObject({ revoked: 1 });
    expect((await sandbox.oauth.disableClient(client._id)).disabledAt).not.toBeNull();
    expect((await sandbox.oauth.enableClient(client._id)).disabledAt).toBeNull();
  });

  it('staff and sign-in: refused to the test client, managed with the live one', async () => {
    const someone = unknownId;
    expect(
      await refusal(sandbox.users.create({ email: 'x@example.test', name: 'X', groups: ['adviser'] })),
    ).toBe(403);
    expect(await refusal(sandbox.sso.updateSettings({ passwordSignIn: false }))).toBe(403);
    expect(await refusal(sandbox.users.sendPasswordLink(someone))).toBe(403);
    // The organisation's own seal signs live documents: set and removed with the live client only.
    const seal = generateSealKey('Contract seal', h.clock.now());
    const upload = { pkcs12: seal.p12.toString('base64'), password: seal.passphrase };
    expect(await refusal(sandbox.organisation.replaceSeal(upload))).toBe(403);
    expect((await live.organisation.replaceSeal(upload)).source).toBe('organisation');
    expect((await live.organisation.getSeal()).certificate.subject).toContain('CN=Contract seal');
    await live.organisation.deleteSeal();
    expect((await sandbox.organisation.getSeal()).source).toBe('service');

    const user = await live.users.create({
      email: 'contract-user@example.test',
      name: 'Eva',
      groups: ['adviser'],
    });
    expect((await live.users.update(user._id, { name: 'Eva P.' })).name).toBe('Eva P.');
    expect((await live.users.deactivate(user._id)).status).toBe('deactivated');
    expect((await live.users.reactivate(user._id)).status).toBe('active');
    expect(await live.users.signOut(user._id)).toMatchObject({ success: true });
    expect(await live.users.sendPasswordLink(user._id)).toMatchObject({ success: true });
    expect(await live.users.setPassword(user._id, { password: 'correct horse battery staple' })).toEqual({
      success: true,
    });
    // The user is the test organisation's too (the same id), and goes from both.
    expect((await sandbox.users.get(user._id)).name).toBe('Eva P.');
    await live.users.delete(user._id);
    expect(await refusal(sandbox.users.get(user._id))).toBe(404);

    expect(await live.sso.updateSettings({ passwordSignIn: true })).toMatchObject({ passwordSignIn: true });
    const provider = await live.sso.createProvider({
      type: 'microsoft',
      tenantId: 'contoso.onmicrosoft.com',
      clientId: 'app-123',
      clientSecret: 'contract-secret',
      directorySync: true,
    });
    expect((await live.sso.getProvider(provider._id)).tenantId).toBe('contoso.onmicrosoft.com');
    expect((await live.sso.updateProvider(provider._id, { name: 'Contoso' })).name).toBe('Contoso');
    expect(await live.sso.syncProvider(provider._id)).toMatchObject({ success: true });
    await live.sso.deleteProvider(provider._id);
    expect(await refusal(live.sso.getProvider(provider._id))).toBe(404);
  });

  it('the OpenAPI document, and the test data wiped in one call', async () => {
    const document = await sandbox.meta.getOpenApiDocument();
    expect(document).toMatchObject({ openapi: expect.stringMatching(/^3\.1/) });
    const wiped = await sandbox.test.deleteData();
    expect(wiped.deleted.customers).toBeGreaterThan(0);
    expect((await sandbox.customers.list()).customers).toEqual([]);
  });

  it('every operation of the document was called and answered 2xx at least once', () => {
    const ok = new Set(answered.filter((a) => a.status < 300).map((a) => a.id));
    const missing = Object.keys(operationSpecs).filter((id) => !ok.has(id));
    expect(missing).toEqual([]);
    expect(ok.size).toBe(Object.keys(operationSpecs).length);
  });
});
