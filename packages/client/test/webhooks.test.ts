// verifyWebhook against real deliveries: the service signs and sends an event to a receiver on
// 127.0.0.1, and the client's verification accepts it as sent, and refuses it altered or late.
import { createOrg, type TestOrg } from '../../../test/support/fixtures';
import { type Harness, startHarness } from '../../../test/support/harness';
import { startWebhookReceiver } from '../../../test/support/peers';
import { until } from '../../../test/support/until';
import {
  type ActionDeskClient,
  createClient,
  type EventOf,
  verifyWebhook,
  WebhookVerificationError,
} from '../src/index.js';

let h: Harness;
let org: TestOrg;
let client: ActionDeskClient;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  org = await createOrg(h);
  client = createClient({ baseUrl: h.baseUrl, apiKey: org.adminKey });
  receiver = await startWebhookReceiver(() => h.clock.now());
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});

/** The service's clock: its deliveries are stamped with it. */
const serviceNow = () => h.clock.now().getTime();

async function delivery(type: string) {
  await h.jobs.drain();
  await until(() => receiver.received.some((r) => r.body.type === type));
  const req = receiver.received.find((r) => r.body.type === type);
  if (!req) throw new Error(`no ${type} delivery`);
  return { headers: req.headers, raw: req.raw };
}

describe('verifyWebhook', () => {
  let secret: string;
  let contactId: string;
  let delivered: { headers: Record<string, string | string[] | undefined>; raw: string };

  beforeAll(async () => {
    const webhook = await client.webhooks.create({ url: receiver.url, events: ['customer.created'] });
    secret = webhook.secret as string;
    expect(secret).toMatch(/^whsec_/);
    contactId = (await client.customers.create({ thirdpartyId: 'HOOK-1', data: { Voornaam: 'Hook' } }))._id;
    delivered = await delivery('customer.created');
  });

  it('when a delivery is verified as received, then it answers the typed event', () => {
    const event = verifyWebhook(delivered.headers, delivered.raw, secret, { now: serviceNow });
    expect(event.type).toBe('customer.created');
    if (event.type !== 'customer.created') throw new Error('narrowing');
    const created: EventOf<'customer.created'> = event;
    expect(created.data.customer._id).toBe(contactId);
    expect(created.data.customer.thirdpartyId).toBe('HOOK-1');
    expect(created.id).toBe(delivered.headers['webhook-id']);
  });

  it('when the body is given as bytes or the headers as a Headers object, then it verifies the same', () => {
    const headers = new Headers(delivered.headers as Record<string, string>);
    const event = verifyWebhook(headers, Buffer.from(delivered.raw), secret, { now: serviceNow });
    expect(event.id).toBe(delivered.headers['webhook-id']);
  });

  it('when one byte of the body is flipped, then it is refused', () => {
    const bytes = Buffer.from(delivered.raw);
    const at = bytes.indexOf('Hook');
    bytes[at] = (bytes[at] as number) ^ 0x01;
    expect(() => verifyWebhook(delivered.headers, bytes, secret, { now: serviceNow })).toThrow(
      new WebhookVerificationError('no signature matches: the body, headers or secret differ'),
    );
  });

  it('when it arrives more than 5 minutes after it was signed, then it is refused as too old; within, accepted', () => {
    const later = (ms: number) => () => serviceNow() + ms;
    expect(() => verifyWebhook(delivered.headers, delivered.raw, secret, { now: later(301_000) })).toThrow(
      /too old/,
    );
    expect(verifyWebhook(delivered.headers, delivered.raw, secret, { now: later(299_000) }).type).toBe(
      'customer.created',
    );
  });

  it('when another secret, another id or no signature is given, then it is refused', () => {
    const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() => verifyWebhook(delivered.headers, delivered.raw, other, { now: serviceNow })).toThrow(
      WebhookVerificationError,
    );
    const renamed = { ...delivered.headers, 'webhook-id': 'msg_other' };
    expect(() => verifyWebhook(renamed, delivered.raw, secret, { now: serviceNow })).toThrow(
      WebhookVerificationError,
    );
    const unsigned = { ...delivered.headers, 'webhook-signature': undefined };
    expect(() => verifyWebhook(unsigned, delivered.raw, secret, { now: serviceNow })).toThrow(/missing/);
    // During a rotation the receiver may hold both secrets.
    expect(verifyWebhook(delivered.headers, delivered.raw, [other, secret], { now: serviceNow }).type).toBe(
      'customer.created',
    );
  });
});
