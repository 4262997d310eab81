import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
  newWebhookSecret,
  pingMessage,
  signedHeaders,
  signingSecrets,
} from '../../src/modules/webhooks/webhooks.signatures';
import { SecretBox } from '../../src/platform/crypto/sealed';
import { isId } from '../../src/platform/kernel/ids';

const body = JSON.stringify({ id: 'evt_1', type: 'sessionrequest.completed', data: { amount: 12.5 } });
const MESSAGE_ID = '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b';

describe('webhook signatures (Standard Webhooks)', () => {
  it('when a message is signed, then a receiver using the standardwebhooks package verifies it with the secret', () => {
    const secret = newWebhookSecret();
    const now = new Date();
    const headers = signedHeaders([secret], MESSAGE_ID, now, body);
    expect(headers['webhook-id']).toBe(MESSAGE_ID);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('when the body, the id or the timestamp is changed on the way, then verification fails', () => {
    const secret = newWebhookSecret();
    const now = new Date();
    const headers = signedHeaders([secret], MESSAGE_ID, now, body);
    const receiver = new Webhook(secret);
    expect(() => receiver.verify(body.replace('12.5', '125'), headers)).toThrow(WebhookVerificationError);
    expect(() => receiver.verify(`${body} `, headers)).toThrow(WebhookVerificationError);
    expect(() => receiver.verify(body, { ...headers, 'webhook-id': `${MESSAGE_ID}x` })).toThrow(
      WebhookVerificationError,
    );
    expect(() =>
      receiver.verify(body, {
        ...headers,
        'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1),
      }),
    ).toThrow(WebhookVerificationError);
  });

  it('when another secret verifies, then it fails', () => {
    const headers = signedHeaders([newWebhookSecret()], MESSAGE_ID, new Date(), body);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('when a message was signed long ago, then a receiver refuses it as a replay', () => {
    const secret = newWebhookSecret();
    const old = new Date(Date.now() - 10 * 60_000);
    expect(() => new Webhook(secret).verify(body, signedHeaders([secret], MESSAGE_ID, old, body))).toThrow(
      /too old/,
    );
  });

  it('when a secret is being rotated, then the message carries one signature per secret and either verifies it', () => {
    const [current, previous, stranger] = [newWebhookSecret(), newWebhookSecret(), newWebhookSecret()];
    const headers = signedHeaders([current, previous], MESSAGE_ID, new Date(), body);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(stranger).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('when a secret is made, then it is whsec_ and 32 random bytes in base64, new each time', () => {
    const secrets = new Set(Array.from({ length: 20 }, newWebhookSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    }
  });
});

describe('the secrets that sign now (signingSecrets)', () => {
  const box = new SecretBox([{ id: 'k1', key: Buffer.alloc(32, 1) }]);
  const otherBox = new SecretBox([{ id: 'gone', key: Buffer.alloc(32, 2) }]);
  const endpointId = '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b';
  const now = new Date('2026-03-02T09:00:00Z');
  const stored = (sealed: string, expiresAt: string | null) => ({
    id: 'sec',
    sealed,
    createdAt: '2026-01-01T00:00:00Z',
    expiresAt,
  });

  it('when secrets are stored, then the current one and those still in their overlap sign; expired ones do not', () => {
    const { secrets, problems } = signingSecrets(
      { box },
      {
        id: endpointId,
        secrets: [
          stored(box.seal('whsec_current', endpointId), null),
          stored(box.seal('whsec_overlap', endpointId), '2026-03-02T09:00:01Z'),
          stored(box.seal('whsec_expired', endpointId), '2026-03-02T09:00:00Z'),
        ],
      },
      now,
    );
    expect(secrets).toEqual(['whsec_current', 'whsec_overlap']);
    expect(problems).toEqual([]);
  });

  it('when a secret does not open (its key is gone, or it belongs to another endpoint), then it is left out and named', () => {
    const { secrets, problems } = signingSecrets(
      { box },
      {
        id: endpointId,
        secrets: [
          stored(otherBox.seal('whsec_a', endpointId), null),
          stored(box.seal('whsec_b', 'another-endpoint'), null),
          stored(box.seal('whsec_c', endpointId), null),
        ],
      },
      now,
    );
    expect(secrets).toEqual(['whsec_c']);
    expect(problems).toEqual([
      'a secret is sealed with key gone, which ENCRYPTION_KEYS no longer lists',
      'a secret sealed with key k1 does not open: wrong key or altered value',
    ]);
  });
});

describe('a ping (pingMessage)', () => {
  it('when a webhook is pinged, then the body is a webhook.test message whose id is the message id', () => {
    const at = new Date('2026-03-02T09:00:00Z');
    const ping = pingMessage('w1', 'o1', at);
    expect(isId(ping.id)).toBe(true);
    expect(JSON.parse(ping.body)).toEqual({
      id: ping.id,
      type: 'webhook.test',
      createdAt: '2026-03-02T09:00:00.000Z',
      organisationId: 'o1',
      livemode: true,
      data: { webhookId: 'w1', message: 'This is a test delivery from ActionDesk.' },
    });
    expect(pingMessage('w1', 'o1', at).id).not.toBe(ping.id);
    expect(JSON.parse(pingMessage('w1', 'o1', at, false).body).livemode).toBe(false);
  });
});
