import { createHash, randomBytes } from 'node:crypto';
import request, { type Response } from 'supertest';
import { generateSealKey } from '../src/platform/signing/certificate';
import { samplePdf, samplePng } from './support/binary';
import { basicAuth, completeAsContact, createContact, createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startSmtpServer, startWebhookReceiver } from './support/peers';
import { csrfIn, hiddenFields, signedIn, staffUser } from './support/staff';
import { createReportTemplate } from './support/submissions';

/**
 * The pages' half of the walk (test/audit-walk.test.ts walks the API): every form post of the pages
 * that changes something — the staff pages, the sign-in and password pages, the contact's action link
 * — is made once the way a browser makes it, and must leave an audit event under its request id.
 */
let h: Harness;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
type Agent = ReturnType<typeof request.agent>;
let admin: Agent;
let adminEmail: string;
let paulaKey: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'desk@example.test',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT_SECONDS: '1',
  });
  receiver = await startWebhookReceiver(() => h.clock.now());
  org = await createOrg(h, 'Kantoor Pagina');
  const me = await staffUser(h, org, ['administrator'], 'Paula Admin');
  adminEmail = me.email;
  admin = (await signedIn(h, me.email)).agent;
  // Setups belong to whoever made them: Paula's own key makes the ones she opens.
  const key = await api('post', `/api/v1/admin/users/${me.id}/apikeys`).send({ name: 'Paula’s CRM' });
  paulaKey = key.body.apiKey;
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await receiver.close();
});

/** Page posts that change no record of the organisation, and why. */
const changesNothing: Record<string, string> = {
  'POST /signout': 'ends this browser’s session; no record of the organisation changes',
  'POST /signin/sso': 'shows the single sign-on buttons for an address',
};

const ids: Record<string, string> = {};
const api = (method: 'get' | 'post', path: string) => h.api()[method](path).set('x-api-key', org.adminKey);

/** Opens `page` in `agent`, then posts its form to `to` with `fields` (and the page's CSRF token). */
async function formPost(agent: Agent, page: string, to: string, fields: [string, string][] = []) {
  const opened = await agent.get(page);
  return agent
    .post(to)
    .type('form')
    .send(new URLSearchParams([['_csrf', csrfIn(opened.text)], ...fields]).toString());
}

/** The contact's browser on an action link (its own cookies and CSRF token). */
async function contactOn(code: string) {
  const agent = request.agent(h.server);
  const first = await agent.get(`/action/${code}?lang=nl`);
  let csrf = /name="_csrf" value="([^"]+)"/.exec(first.text)?.[1] ?? '';
  return {
    agent,
    async refresh() {
      const page = await agent.get(`/action/${code}?lang=nl`);
      csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? csrf;
    },
    post: (suffix: string, fields: [string, string][]) =>
      agent
        .post(`/action/${code}${suffix}?lang=nl`)
        .type('form')
        .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString()),
  };
}

async function mailedCode(signer: Awaited<ReturnType<typeof contactOn>>): Promise<string> {
  const before = smtp.received.length;
  expect((await signer.post('/sign/code', [['channel', 'email']])).status).toBe(303);
  await h.jobs.drain();
  await smtp.waitFor(before + 1);
  return /\b(\d{6})\b/.exec(smtp.received.at(-1)?.text ?? '')?.[1] ?? '';
}

async function quicksign(): Promise<string> {
  const contact = await createContact(h, org, { Voornaam: 'Sien', Email: 'sien@example.test' });
  const file = await api('post', '/api/v1/files').attach('file', await samplePdf('Mandate'), 'mandate.pdf');
  const res = await api('post', '/api/v1/sessionrequests').send({
    type: 'quicksign',
    customerId: contact,
    document: { fileId: file.body._id, title: 'Mandate' },
    language: 'nl',
    notificationEmail: { send: true },
  });
  expect(res.status).toBe(201);
  await h.jobs.drain();
  return res.body.code as string;
}

async function clientToken() {
  const res = await h
    .api()
    .post('/api/v1/auth/oauth/token')
    .type('form')
    .set('Authorization', basicAuth(ids.clientId as string, ids.clientSecret as string))
    .send({ grant_type: 'client_credentials' });
  expect(res.status).toBe(200);
}

const signers = new Map<string, Awaited<ReturnType<typeof contactOn>>>();

const scenarios: [string, () => Promise<Response>][] = [
  ['POST /signin', async () => (await signedIn(h, adminEmail)).res],
  [
    'POST /password/forgot',
    () => formPost(request.agent(h.server), '/password/forgot', '/password/forgot', [['email', adminEmail]]),
  ],
  [
    'POST /password/{token}',
    async () => {
      await h.jobs.drain();
      await smtp.waitFor(1);
      const token = /\/password\/([A-Za-z0-9_-]{20,})/.exec(smtp.received.at(-1)?.text ?? '')?.[1];
      const link = `/password/${token}`;
      return formPost(request.agent(h.server), link, link, [
        ['password', 'a new staff passphrase'],
        ['confirm', 'a new staff passphrase'],
      ]);
    },
  ],
  [
    'POST /staff/users',
    async () => {
      const res = await formPost(admin, '/staff/users', '/staff/users', [
        ['name', 'Page User'],
        ['email', 'page.user@example.test'],
        ['kind', 'staff'],
        ['groups', 'adviser'],
      ]);
      ids.user = /\/staff\/users\/([0-9a-f-]{36})/.exec(String(res.headers.location))?.[1] ?? '';
      return res;
    },
  ],
  [
    'POST /staff/users/{userId}/groups',
    () =>
      formPost(admin, `/staff/users/${ids.user}`, `/staff/users/${ids.user}/groups`, [
        ['groups', 'read-only'],
      ]),
  ],
  [
    'POST /staff/users/{userId}/password-link',
    () => formPost(admin, `/staff/users/${ids.user}`, `/staff/users/${ids.user}/password-link`),
  ],
  [
    'POST /staff/users/{userId}/sign-out',
    () => formPost(admin, `/staff/users/${ids.user}`, `/staff/users/${ids.user}/sign-out`),
  ],
  [
    'POST /staff/users/{userId}/apikeys',
    () =>
      formPost(admin, `/staff/users/${ids.user}`, `/staff/users/${ids.user}/apikeys`, [['name', 'Page key']]),
  ],
  [
    'POST /staff/users/{userId}/apikeys/{keyId}/revoke',
    async () => {
      const keys = await api('get', `/api/v1/admin/apikeys?userId=${ids.user}`);
      const keyId = keys.body.apiKeys[0]._id;
      return formPost(admin, `/staff/users/${ids.user}`, `/staff/users/${ids.user}/apikeys/${keyId}/revoke`);
    },
  ],
  [
    'POST /staff/users/{userId}/status',
    () =>
      formPost(admin, `/staff/users/${ids.user}`, `/staff/users/${ids.user}/status`, [
        ['status', 'deactivated'],
      ]),
  ],
  [
    'POST /staff/integrations/clients',
    () =>
      formPost(admin, '/staff/integrations', '/staff/integrations/clients', [
        ['name', 'Page client'],
        ['type', 'confidential'],
        ['grants', 'client_credentials'],
        ['scopes', 'read'],
      ]),
  ],
  [
    'POST /staff/integrations/clients/{clientId}/rotate',
    async () => {
      const made = await api('post', '/api/v1/admin/oauth/clients').send({
        name: 'Token client',
        grants: ['client_credentials'],
        scopes: ['read'],
      });
      ids.client = made.body._id;
      ids.clientId = made.body.clientId;
      const res = await formPost(
        admin,
        `/staff/integrations/clients/${ids.client}`,
        `/staff/integrations/clients/${ids.client}/rotate`,
      );
      ids.clientSecret = /adcs_[A-Za-z0-9]{40}/.exec(res.text)?.[0] ?? '';
      return res;
    },
  ],
  [
    'POST /staff/integrations/clients/{clientId}/tokens/{tokenId}/revoke',
    async () => {
      await clientToken();
      const tokens = await api('get', `/api/v1/admin/oauth/clients/${ids.client}/tokens`);
      const tokenId = tokens.body.tokens[0]._id;
      return formPost(
        admin,
        `/staff/integrations/clients/${ids.client}`,
        `/staff/integrations/clients/${ids.client}/tokens/${tokenId}/revoke`,
      );
    },
  ],
  [
    'POST /staff/integrations/clients/{clientId}/revoke-tokens',
    async () => {
      await clientToken();
      return formPost(
        admin,
        `/staff/integrations/clients/${ids.client}`,
        `/staff/integrations/clients/${ids.client}/revoke-tokens`,
      );
    },
  ],
  [
    'POST /staff/integrations/clients/{clientId}/disable',
    () =>
      formPost(
        admin,
        `/staff/integrations/clients/${ids.client}`,
        `/staff/integrations/clients/${ids.client}/disable`,
      ),
  ],
  [
    'POST /staff/integrations/clients/{clientId}/enable',
    () =>
      formPost(
        admin,
        `/staff/integrations/clients/${ids.client}`,
        `/staff/integrations/clients/${ids.client}/enable`,
      ),
  ],
  [
    'POST /staff/integrations/webhooks',
    async () => {
      const res = await formPost(admin, '/staff/integrations', '/staff/integrations/webhooks', [
        ['url', receiver.url],
        ['events', 'customer.created'],
      ]);
      ids.webhook = /webhooks\/([0-9a-f-]{36})\/test/.exec(res.text)?.[1] ?? '';
      return res;
    },
  ],
  [
    'POST /staff/integrations/webhooks/{webhookId}',
    () =>
      formPost(
        admin,
        `/staff/integrations/webhooks/${ids.webhook}`,
        `/staff/integrations/webhooks/${ids.webhook}`,
        [
          ['url', receiver.url],
          ['description', 'CRM'],
          ['events', '*'],
        ],
      ),
  ],
  ...(['test', 'rotate', 'disable', 'enable'] as const).map(
    (step) =>
      [
        `POST /staff/integrations/webhooks/{webhookId}/${step}`,
        () =>
          formPost(
            admin,
            `/staff/integrations/webhooks/${ids.webhook}`,
            `/staff/integrations/webhooks/${ids.webhook}/${step}`,
          ),
      ] as [string, () => Promise<Response>],
  ),
  [
    'POST /staff/integrations/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    async () => {
      await createContact(h, org, { Voornaam: 'Hooked' });
      await h.jobs.drain();
      const page = await admin.get(`/staff/integrations/webhooks/${ids.webhook}`);
      const to = /action="(\/staff\/integrations\/webhooks\/[^"]+\/redeliver)"/.exec(page.text)![1]!;
      return formPost(admin, `/staff/integrations/webhooks/${ids.webhook}`, to);
    },
  ],
  [
    'POST /staff/integrations/webhooks/{webhookId}/delete',
    () =>
      formPost(
        admin,
        `/staff/integrations/webhooks/${ids.webhook}`,
        `/staff/integrations/webhooks/${ids.webhook}/delete`,
      ),
  ],
  [
    'POST /api/v1/auth/oauth/authorize',
    async () => {
      const app = await api('post', '/api/v1/admin/oauth/clients').send({
        name: 'Partner app',
        type: 'public',
        grants: ['authorization_code'],
        scopes: ['read'],
        redirectUris: ['http://127.0.0.1:9/callback'],
      });
      const challenge = createHash('sha256')
        .update(randomBytes(32).toString('base64url'))
        .digest('base64url');
      const page = await admin.get(
        `/api/v1/auth/oauth/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: app.body.clientId,
          redirect_uri: 'http://127.0.0.1:9/callback',
          scope: 'read',
          state: 's',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })}`,
      );
      return admin
        .post('/api/v1/auth/oauth/authorize')
        .type('form')
        .send({ ...hiddenFields(page.text), _csrf: csrfIn(page.text), decision: 'allow' });
    },
  ],
  [
    'POST /staff/integrations/providers',
    async () => {
      const res = await formPost(admin, '/staff/integrations/providers', '/staff/integrations/providers', [
        ['type', 'microsoft'],
        ['name', 'Contoso'],
        ['tenantId', 'contoso.onmicrosoft.com'],
        ['clientId', 'app-1'],
        ['clientSecret', 'page-secret'],
      ]);
      ids.provider =
        /\/staff\/integrations\/providers\/([0-9a-f-]{36})/.exec(String(res.headers.location))?.[1] ?? '';
      return res;
    },
  ],
  [
    'POST /staff/integrations/providers/{providerId}',
    () =>
      formPost(
        admin,
        `/staff/integrations/providers/${ids.provider}`,
        `/staff/integrations/providers/${ids.provider}`,
        [
          ['name', 'Contoso'],
          ['tenantId', 'contoso.onmicrosoft.com'],
          ['clientId', 'app-1'],
          ['enabled', 'on'],
          ['directorySync', 'on'],
        ],
      ),
  ],
  [
    'POST /staff/integrations/providers/{providerId}/sync',
    () =>
      formPost(
        admin,
        `/staff/integrations/providers/${ids.provider}`,
        `/staff/integrations/providers/${ids.provider}/sync`,
      ),
  ],
  [
    'POST /staff/integrations/providers/password-sign-in',
    async () => {
      const off = await formPost(
        admin,
        '/staff/integrations/providers',
        '/staff/integrations/providers/password-sign-in',
        [['passwordSignIn', 'off']],
      );
      expect(off.status).toBe(303);
      return formPost(
        admin,
        '/staff/integrations/providers',
        '/staff/integrations/providers/password-sign-in',
        [['passwordSignIn', 'on']],
      );
    },
  ],
  [
    'POST /staff/integrations/providers/{providerId}/delete',
    () =>
      formPost(
        admin,
        `/staff/integrations/providers/${ids.provider}`,
        `/staff/integrations/providers/${ids.provider}/delete`,
      ),
  ],
  [
    'POST /sessionrequests/new',
    async () => {
      ids.template = await createReportTemplate(h, org);
      ids.contact = await createContact(h, org, { Voornaam: 'Wim', Email: 'wim@example.test' });
      const options = await admin.get(`/sessionrequests/new?contact=${ids.contact}&step=options`);
      const res = await admin
        .post('/sessionrequests/new')
        .type('form')
        .send(
          new URLSearchParams([
            ['_csrf', csrfIn(options.text)],
            ['contact', ids.contact as string],
            ['questionListIds', ids.template as string],
            ['type', 'qlist'],
            ['email', 'yes'],
          ]).toString(),
        );
      ids.action = /id=([0-9a-f-]{36})/.exec(String(res.headers.location))?.[1] ?? '';
      return res;
    },
  ],
  [
    'POST /sessionrequests/new/upload',
    async () => {
      const step = await admin.get(`/sessionrequests/new?contact=${ids.contact}&step=document`);
      const to = /action="(\/sessionrequests\/new\/upload\?[^"]+)"/
        .exec(step.text)![1]!
        .replace(/&amp;/g, '&');
      const res = await admin.post(to).attach('file', await samplePdf('Desk'), 'desk.pdf');
      ids.deskFile = /file=([0-9a-f-]{36})/.exec(String(res.headers.location))?.[1] ?? '';
      return res;
    },
  ],
  [
    'POST /sessionrequests/new/document',
    async () => {
      const step = await admin.get(
        `/sessionrequests/new?contact=${ids.contact}&step=document&file=${ids.deskFile}`,
      );
      return admin
        .post('/sessionrequests/new/document')
        .type('form')
        .send(
          new URLSearchParams([
            ['_csrf', csrfIn(step.text)],
            ['fileId', ids.deskFile as string],
            ['title', 'Desk contract'],
            ['contact', ids.contact as string],
            ['email', 'yes'],
          ]).toString(),
        );
    },
  ],
  [
    'POST /sessionrequests/quicksigningrequest/{setupId}',
    async () => {
      const file = await api('post', '/api/v1/files').attach('file', await samplePdf('Setup'), 'setup.pdf');
      const setup = await h
        .api()
        .post('/api/v1/quicksigningsetup')
        .set('x-api-key', paulaKey)
        .send({
          customer: { firstname: 'Marie', lastname: 'Claes', email: 'marie.page@example.test' },
          document: { fileid: file.body._id, title: 'Contract' },
        });
      const link = `/sessionrequests/quicksigningrequest/${setup.body.setupId}`;
      return formPost(admin, link, link, [['email', 'yes']]);
    },
  ],
  [
    'POST /sessionrequests/{actionSetupId}',
    async () => {
      const setup = await h
        .api()
        .post('/api/v1/bc/actionsetup')
        .set('x-api-key', paulaKey)
        .send({
          customers: [{ email: 'page.setup@example.test' }],
        });
      const link = `/sessionrequests/${setup.body.actionSetupId}`;
      return formPost(admin, link, link, [
        ['include', '0'],
        ['type', 'qlist'],
        ['questionListIds', ids.template as string],
        ['email', 'yes'],
      ]);
    },
  ],
  [
    'POST /staff/actions/{id}/withdraw',
    () => formPost(admin, `/staff/actions/${ids.action}`, `/staff/actions/${ids.action}/withdraw`),
  ],
  [
    'POST /staff/actions/{id}/reopen',
    async () => {
      const made = await api('post', '/api/v1/sessionrequests').send({
        type: 'qlist',
        customerId: ids.contact,
        questionListIds: [ids.template],
      });
      await completeAsContact(h, org.organisationId, made.body._id);
      return formPost(admin, `/staff/actions/${made.body._id}`, `/staff/actions/${made.body._id}/reopen`);
    },
  ],
  [
    'POST /staff/actions/{id}/resend',
    async () => {
      const made = await api('post', '/api/v1/sessionrequests').send({
        type: 'qlist',
        customerId: ids.contact,
        questionListIds: [ids.template],
        notificationEmail: { send: true },
      });
      return formPost(admin, `/staff/actions/${made.body._id}`, `/staff/actions/${made.body._id}/resend`);
    },
  ],
  [
    'POST /staff/contacts/new',
    () =>
      formPost(admin, '/staff/contacts/new', '/staff/contacts/new', [
        ['firstName', 'Griet'],
        ['email', 'griet@example.test'],
      ]),
  ],
  [
    'POST /staff/contacts/{id}/edit',
    () =>
      formPost(admin, `/staff/contacts/${ids.contact}/edit`, `/staff/contacts/${ids.contact}/edit`, [
        ['firstName', 'Wim'],
        ['email', 'wim@example.test'],
        ['phone', '0475 12 34 56'],
      ]),
  ],
  [
    'POST /staff/settings',
    () =>
      formPost(admin, '/staff/settings', '/staff/settings', [
        ['language', 'fr'],
        ['notify', 'none'],
      ]),
  ],
  [
    'POST /staff/settings/organisation',
    () =>
      formPost(admin, '/staff/settings/organisation', '/staff/settings/organisation', [
        ['brandName', 'Pagina Advies'],
        ['colour', '#1a5e20'],
        ['requireCodeToDecline', 'yes'],
      ]),
  ],
  [
    'POST /staff/settings/organisation/logo',
    async () => {
      const page = await admin.get('/staff/settings/organisation');
      const to = /action="(\/staff\/settings\/organisation\/logo\?[^"]+)"/.exec(page.text)![1]!;
      return admin.post(to.replace(/&amp;/g, '&')).attach('file', await samplePng(8, 8), 'logo.png');
    },
  ],
  [
    'POST /staff/settings/organisation/logo/delete',
    () => formPost(admin, '/staff/settings/organisation', '/staff/settings/organisation/logo/delete'),
  ],
  [
    'POST /staff/settings/seal',
    async () => {
      const page = await admin.get('/staff/settings/seal');
      const to = /action="(\/staff\/settings\/seal\?[^"]+)"/.exec(page.text)![1]!;
      const seal = generateSealKey('Pagina seal', h.clock.now());
      return admin
        .post(to.replace(/&amp;/g, '&'))
        .field('password', seal.passphrase)
        .attach('file', seal.p12, 'seal.p12');
    },
  ],
  [
    'POST /staff/settings/seal/delete',
    () => formPost(admin, '/staff/settings/seal', '/staff/settings/seal/delete'),
  ],
  [
    'POST /action/{code}',
    async () => {
      const made = await api('post', '/api/v1/sessionrequests').send({
        type: 'qlist',
        customerId: ids.contact,
        questionListIds: [ids.template],
      });
      ids.code = made.body.code;
      const contact = await contactOn(made.body.code);
      return contact.post('', [
        ['step', '0'],
        ['nav', 'next'],
        ['q.q', 'Wim'],
      ]);
    },
  ],
  [
    'POST /action/{code}/submit',
    async () => {
      const contact = await contactOn(ids.code as string);
      return contact.post('/submit', []);
    },
  ],
  [
    'POST /action/{code}/start',
    async () => {
      const campaign = await api('post', '/api/v1/sessionrequests').send({
        type: 'campaign',
        questionListIds: [ids.template],
      });
      const visitor = await contactOn(campaign.body.code);
      return visitor.post('/start', [
        ['firstName', 'Vera'],
        ['lastName', 'Bezoeker'],
        ['email', 'vera@example.test'],
      ]);
    },
  ],
  [
    'POST /action/{code}/sign/code',
    async () => {
      ids.signCode = await quicksign();
      const signer = await contactOn(ids.signCode);
      return signer.post('/sign/code', [['channel', 'email']]);
    },
  ],
  [
    'POST /action/{code}/sign/verify',
    async () => {
      const signer = await contactOn(ids.signCode as string);
      const code = await mailedCode(signer);
      const res = await signer.post('/sign/verify', [['code', code]]);
      signers.set('sign', signer);
      return res;
    },
  ],
  [
    'POST /action/{code}/sign',
    async () => {
      const signer = signers.get('sign');
      if (!signer) throw new Error('no verified signer');
      await signer.refresh();
      h.clock.advance(60_000);
      return signer.post('/sign', [
        ['mark', 'typed'],
        ['typedName', 'Sien'],
        ['consent', 'yes'],
      ]);
    },
  ],
  [
    'POST /action/{code}/decline',
    async () => {
      const code = await quicksign();
      const signer = await contactOn(code);
      const res = await signer.post('/sign/verify', [['code', await mailedCode(signer)]]);
      expect(res.status).toBe(303);
      await signer.refresh();
      return signer.post('/decline', [['reason', 'The amount is wrong']]);
    },
  ],
];

describe('the audit trail, walked over the pages of the OpenAPI document', () => {
  it('when every form post of the pages that changes something is made, then each leaves an audit event under its request id', async () => {
    const doc = (await h.api().get('/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const pagePosts = Object.entries(doc.paths)
      .filter(([path]) => !path.startsWith('/api/v1/') || path === '/api/v1/auth/oauth/authorize')
      .flatMap(([path, methods]) =>
        Object.keys(methods)
          .filter((m) => m !== 'get')
          .map((m) => `${m.toUpperCase()} ${path}`),
      )
      .filter((op) => !(op in changesNothing))
      .sort();
    expect(scenarios.map(([op]) => op).sort()).toEqual(pagePosts);

    for (const [op, run] of scenarios) {
      const res = await run();
      expect([
        op,
        res.status < 400
          ? 'ok'
          : `${res.status} ${(/role="alert"[\s\S]*?<\/div>/.exec(res.text)?.[0] ?? res.text).slice(0, 400)}`,
      ]).toEqual([op, 'ok']);
      const requestId = String(res.headers['x-request-id']);
      const events = await h
        .api()
        .get(`/api/v1/audit-events?requestId=${encodeURIComponent(requestId)}`)
        .set('x-api-key', org.adminKey);
      expect([op, events.body.events.length > 0]).toEqual([op, true]);
    }
    // Nothing a person typed that is theirs alone went into the trail: passwords, a reason to decline,
    // answers; nor the codes of links, the client secret or the provider's.
    const all: unknown[] = [];
    for (let cursor = ''; ; ) {
      const page = await h
        .api()
        .get(`/api/v1/audit-events?limit=100${cursor ? `&startingAfter=${cursor}` : ''}`)
        .set('x-api-key', org.adminKey);
      all.push(...page.body.events);
      if (!page.body.nextCursor) break;
      cursor = page.body.nextCursor;
    }
    const trail = JSON.stringify(all);
    for (const secret of [
      'a new staff passphrase',
      'The amount is wrong',
      'page-secret',
      ids.clientSecret,
      ids.code,
      ids.signCode,
    ]) {
      expect([secret, trail.includes(String(secret))]).toEqual([secret, false]);
    }
  });
});
