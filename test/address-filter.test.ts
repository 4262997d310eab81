import http from 'node:http';
import net, { type AddressInfo, type LookupFunction } from 'node:net';
import { addressProblem } from '../src/platform/outbound/address-filter';
import {
  destinationProblem,
  listedNetworksPolicy,
  SafeHttpClient,
  SafeHttpError,
  type SafeHttpPolicy,
} from '../src/platform/outbound/safe-http';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

// The tests' DNS: each name answers the addresses set here; any other name does not resolve.
const answers = new Map<string, string[]>();
const lookup = ((host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
  const list = answers.get(host);
  if (!list) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
  const all = list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  if (options.all) cb(null, all);
  else cb(null, all[0]!.address, all[0]!.family);
}) as unknown as LookupFunction;

/**
 * Every form an inner address takes: [how the URL's host is written, the address it is (what a name
 * resolving to it answers), words of the refusal]. Names (localhost…) resolve through the tests' DNS.
 */
const FORMS: [string, string[], string][] = [
  // IPv4 written in decimal, hex, octal and short forms (the URL parser reads them all as 127.0.0.1)
  ['2130706433', ['127.0.0.1'], '127.0.0.1 is a loopback address'],
  ['0x7f.1', ['127.0.0.1'], '127.0.0.1 is a loopback address'],
  ['0x7f000001', ['127.0.0.1'], '127.0.0.1 is a loopback address'],
  ['017700000001', ['127.0.0.1'], '127.0.0.1 is a loopback address'],
  ['0177.0.0.1', ['127.0.0.1'], '127.0.0.1 is a loopback address'],
  ['127.1', ['127.0.0.1'], '127.0.0.1 is a loopback address'],
  ['127.0.0.1', ['127.0.0.1'], '127.0.0.1 is a loopback address'],
  ['127.255.255.254', ['127.255.255.254'], 'a loopback address'],
  ['[::1]', ['::1'], '::1 is a loopback address'],
  // unspecified: a connection to it reaches this machine
  ['0', ['0.0.0.0'], '0.0.0.0 is an unspecified address'],
  ['0.0.0.0', ['0.0.0.0'], '0.0.0.0 is an unspecified address'],
  ['0.1.2.3', ['0.1.2.3'], 'an unspecified address'],
  ['[::]', ['::'], ':: is the unspecified address'],
  // ::/96 (IPv4-compatible) and the rest of ::/8
  ['[::127.0.0.1]', ['::7f00:1'], 'an IPv4-compatible address carrying 127.0.0.1, a loopback address'],
  [
    '[::169.254.169.254]',
    ['::a9fe:a9fe'],
    'IPv4-compatible address carrying 169.254.169.254, a cloud metadata',
  ],
  ['[::10.0.0.1]', ['::a00:1'], 'an IPv4-compatible address carrying 10.0.0.1, a private address'],
  ['[::8.8.8.8]', ['::808:808'], 'an IPv4-compatible address'],
  ['[::1:0:0:1]', ['::1:0:0:1'], 'a reserved address (::/8)'],
  // ::ffff:0:0/96 (IPv4-mapped) and ::ffff:0:0:0/96 (IPv4-translated)
  ['[::ffff:127.0.0.1]', ['::ffff:7f00:1'], 'a loopback address (IPv4-mapped 127.0.0.1)'],
  [
    '[::ffff:169.254.169.254]',
    ['::ffff:a9fe:a9fe'],
    'a cloud metadata address (IPv4-mapped 169.254.169.254)',
  ],
  ['[::ffff:10.1.2.3]', ['::ffff:a01:203'], 'a private address (IPv4-mapped 10.1.2.3)'],
  ['[::ffff:0:127.0.0.1]', ['::ffff:0:7f00:1'], 'an IPv4-translated address carrying 127.0.0.1'],
  // NAT64: the well-known prefix is judged by the address it carries; the local-use one is never public
  ['[64:ff9b::127.0.0.1]', ['64:ff9b::7f00:1'], 'a loopback address (NAT64 127.0.0.1)'],
  ['[64:ff9b::169.254.169.254]', ['64:ff9b::a9fe:a9fe'], 'a cloud metadata address (NAT64 169.254.169.254)'],
  ['[64:ff9b::10.0.0.1]', ['64:ff9b::a00:1'], 'a private address (NAT64 10.0.0.1)'],
  ['[64:ff9b:1::808:808]', ['64:ff9b:1::808:808'], 'a local-use NAT64 address'],
  // 6to4 and Teredo (the client's address inverted: 80ff:fffe is 127.0.0.1)
  ['[2002:7f00:1::]', ['2002:7f00:1::'], 'a 6to4 address carrying 127.0.0.1, a loopback address'],
  ['[2002:a9fe:a9fe::1]', ['2002:a9fe:a9fe::1'], 'a 6to4 address carrying 169.254.169.254, a cloud metadata'],
  ['[2002:808:808::1]', ['2002:808:808::1'], 'a 6to4 address'],
  [
    '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
    ['2001:0:4136:e378:8000:63bf:80ff:fffe'],
    'a Teredo address carrying 127.0.0.1, a loopback address',
  ],
  ['[2001::1]', ['2001::1'], 'a Teredo address carrying 0.0.0.0'],
  // link-local and cloud metadata (AWS, ECS, GCP, Azure, Alibaba, Oracle)
  ['169.254.0.1', ['169.254.0.1'], '169.254.0.1 is a link-local address'],
  ['[fe80::1]', ['fe80::1'], 'fe80::1 is a link-local address'],
  ['169.254.169.254', ['169.254.169.254'], '169.254.169.254 is a cloud metadata address'],
  ['169.254.170.2', ['169.254.170.2'], 'a cloud metadata address'],
  ['[fd00:ec2::254]', ['fd00:ec2::254'], 'fd00:ec2::254 is a cloud metadata address'],
  ['[fd20:ce::254]', ['fd20:ce::254'], 'a cloud metadata address'],
  ['100.100.100.200', ['100.100.100.200'], 'a cloud metadata address'],
  ['168.63.129.16', ['168.63.129.16'], 'a cloud metadata address'],
  ['192.0.0.192', ['192.0.0.192'], 'a cloud metadata address'],
  // shared (CGNAT), private, unique local, site-local
  ['100.64.0.1', ['100.64.0.1'], 'a shared (carrier-grade NAT) address'],
  ['100.127.255.254', ['100.127.255.254'], 'a shared (carrier-grade NAT) address'],
  ['10.0.0.1', ['10.0.0.1'], '10.0.0.1 is a private address'],
  ['172.16.0.1', ['172.16.0.1'], 'a private address'],
  ['192.168.1.1', ['192.168.1.1'], 'a private address'],
  ['[fc00::1]', ['fc00::1'], 'a private (unique local) address'],
  ['[fd12:3456::1]', ['fd12:3456::1'], 'a private (unique local) address'],
  ['[fec0::1]', ['fec0::1'], 'a site-local address'],
  // benchmarking, documentation, multicast, broadcast, reserved, discard-only, ORCHID, not 2000::/3
  ['198.18.0.1', ['198.18.0.1'], 'a benchmarking address'],
  ['192.0.2.1', ['192.0.2.1'], 'a documentation address'],
  ['203.0.113.9', ['203.0.113.9'], 'a documentation address'],
  ['[2001:db8::1]', ['2001:db8::1'], 'a documentation address'],
  ['224.0.0.1', ['224.0.0.1'], 'a multicast address'],
  ['[ff02::1]', ['ff02::1'], 'a multicast address'],
  ['255.255.255.255', ['255.255.255.255'], 'the broadcast address'],
  ['240.0.0.1', ['240.0.0.1'], 'a reserved address'],
  ['192.88.99.1', ['192.88.99.1'], 'a 6to4 relay address'],
  ['[100::1]', ['100::1'], 'a discard-only address'],
  ['[2001:10::1]', ['2001:10::1'], 'an ORCHID address'],
  ['[2001:20::1]', ['2001:20::1'], 'an ORCHIDv2 address'],
  ['[5f00::1]', ['5f00::1'], 'not a global unicast address'],
  // names that resolve to inner addresses (one of several is enough)
  ['localhost', ['127.0.0.1'], 'localhost resolves to 127.0.0.1, a loopback address'],
  ['ip6-localhost', ['::1'], 'ip6-localhost resolves to ::1, a loopback address'],
  ['metadata.google.internal', ['169.254.169.254'], 'resolves to 169.254.169.254, a cloud metadata address'],
  [
    'mixed.example.com',
    ['93.184.216.34', '10.0.0.1'],
    'mixed.example.com resolves to 10.0.0.1, a private address',
  ],
  ['mapped.example.com', ['::ffff:127.0.0.1'], 'a loopback address (IPv4-mapped 127.0.0.1)'],
];
const isName = (host: string) => net.isIP(new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, '')) === 0;
// Besides the form itself, a name of the tests' DNS resolving to the same address(es).
const nameOf = (i: number) => `inner-${i}.example.com`;
FORMS.forEach(([host, addresses], i) => {
  if (isName(host)) answers.set(host, addresses);
  answers.set(nameOf(i), addresses);
});
answers.set('public.example.com', ['93.184.216.34', '2606:4700:4700::1111']);
answers.set('zero.example.com', ['0.0.0.0']);

const strict: SafeHttpPolicy = { allowHttp: true, allowPrivate: false, lookup };

// A real listener on every local address (0.0.0.0, :: and the loopback addresses reach it): a form the
// filter let through would connect here.
let listener: http.Server;
let port: number;
let connections = 0;
let h: Harness;
let org: TestOrg;
const clients: SafeHttpClient[] = [];

beforeAll(async () => {
  listener = http.createServer((_req, res) => res.end('ok'));
  listener.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => listener.listen(0, '::', resolve));
  port = (listener.address() as AddressInfo).port;
  h = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true' }, { lookup });
  org = await createOrg(h);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  listener.closeAllConnections();
  await new Promise((resolve) => listener.close(resolve));
  await h.close();
});

const client = (policy: SafeHttpPolicy) => {
  const c = new SafeHttpClient(policy);
  clients.push(c);
  return c;
};
const request = { headers: {}, timeoutMs: 2000, maxBodyBytes: 1024 };

/** Answers the refusal of a request through `c`, asserting the listener saw no connection. */
async function refusedAtConnect(c: SafeHttpClient, method: 'get' | 'post', url: string): Promise<string> {
  const before = connections;
  const err = await (method === 'get' ? c.get(url, request) : c.post(url, { ...request, body: '{}' })).then(
    () => new Error(`${url} was reached`),
    (e: Error) => e,
  );
  expect(err).toBeInstanceOf(SafeHttpError);
  expect(connections).toBe(before);
  return err.message;
}

describe('at registration (destinationProblem)', () => {
  it.each(FORMS.map((f, i) => [...f, i] as const))(
    'when a URL names %s, or a name resolving to it, then it is refused: %j … %s',
    async (host, _addresses, words, i) => {
      expect(await destinationProblem(`http://${host}:${port}/hook`, strict)).toContain(words);
      expect(await destinationProblem(`https://${host}/hook`, strict)).toContain(words);
      const named = await destinationProblem(`https://${nameOf(i)}/hook`, strict);
      expect(named).toMatch(new RegExp(`^is refused: ${nameOf(i)} resolves to `));
      expect(named).toContain(words.replace(/^.* resolves to /, '').replace(/^\S+ is /, ''));
    },
  );

  it('when a URL names public addresses, or a name resolving only to them, then it is accepted', async () => {
    for (const url of [
      'https://public.example.com/hook',
      'https://93.184.216.34/hook',
      'https://8.8.8.8/hook',
      'https://[2606:4700:4700::1111]/hook',
      'https://[2a00:1450:4001:80b::200e]/hook',
      'https://[64:ff9b::8.8.8.8]/hook',
      'https://[::ffff:8.8.8.8]/hook',
    ])
      expect([url, await destinationProblem(url, strict)]).toEqual([url, null]);
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '64:ff9b::808:808'])
      expect(addressProblem(address, false)).toBeNull();
  });

  it('when the scheme is not written as the document’s pattern says, then it is refused', async () => {
    expect(await destinationProblem('https://public.example.com/hook', strict)).toBeNull();
    expect(await destinationProblem('HTTPS://public.example.com/hook', strict)).toBe(
      'must start with https://',
    );
    expect(await destinationProblem('https:public.example.com/hook', strict)).toBe(
      'must start with https://',
    );
    expect(await destinationProblem('http://public.example.com/hook', { ...strict, allowHttp: false })).toBe(
      'must be an https URL',
    );
  });
});

describe('at registration through POST /api/v1/webhooks', () => {
  it.each(FORMS.map((f, i) => [...f, i] as const))(
    'when a webhook URL names %s, or a name resolving to it, then 400 names url and nothing is stored',
    async (host, _addresses, words, i) => {
      for (const [n, url] of [`http://${host}:${port}/hook`, `https://${nameOf(i)}/hook`].entries()) {
        const res = await h
          .api()
          .post('/api/v1/webhooks')
          .set('x-api-key', org.adminKey)
          .send({ url, events: ['*'] });
        expect({ url, status: res.status }).toEqual({ url, status: 400 });
        expect(res.body.details).toEqual([expect.objectContaining({ field: 'url' })]);
        expect(res.body.details[0].message).toMatch(/^is refused: /);
        if (n === 0) expect(res.body.details[0].message).toContain(words);
      }
    },
  );

  it('when a webhook URL names a public address, then it is registered; the list holds only it', async () => {
    const res = await h
      .api()
      .post('/api/v1/webhooks')
      .set('x-api-key', org.adminKey)
      .send({ url: 'https://public.example.com/hook', events: ['*'] });
    expect(res.status).toBe(201);
    const list = await h.api().get('/api/v1/webhooks').set('x-api-key', org.adminKey);
    expect(list.body.webhooks.map((w: { url: string }) => w.url)).toEqual([
      'https://public.example.com/hook',
    ]);
  });
});

describe('at registration of a sign-in provider (POST /api/v1/admin/sso/providers, PATCH)', () => {
  const add = (body: Record<string, unknown>) =>
    h.api().post('/api/v1/admin/sso/providers').set('x-api-key', org.adminKey).send(body);

  it.each(FORMS.map((f, i) => [...f, i] as const))(
    'when an issuer names %s, or a name resolving to it, then 400 names issuer and nothing is stored',
    async (host, _addresses, words, i) => {
      for (const [n, issuer] of [`https://${host}/`, `https://${nameOf(i)}/realm`].entries()) {
        const res = await add({ type: 'oidc', issuer, clientId: 'app', clientSecret: 'secret' });
        expect({ issuer, status: res.status }).toEqual({ issuer, status: 400 });
        expect(res.body.details).toEqual([expect.objectContaining({ field: 'issuer' })]);
        expect(res.body.details[0].message).toMatch(/^is refused: /);
        if (n === 0) expect(res.body.details[0].message).toContain(words);
      }
    },
  );

  it('when a directory or a changed issuer is inner, then 400 names it; a public or not yet resolvable name is taken (checked again at every connection)', async () => {
    const made = await add({
      type: 'microsoft',
      tenantId: 'contoso.onmicrosoft.com',
      clientId: 'app',
      clientSecret: 'secret',
      directoryUrl: 'https://graph.not-resolvable-here.example/v1.0',
    });
    expect(made.status).toBe(201);
    const id = made.body._id as string;
    const patch = (body: Record<string, unknown>) =>
      h.api().patch(`/api/v1/admin/sso/providers/${id}`).set('x-api-key', org.adminKey).send(body);
    const metadata = await patch({ directoryUrl: 'https://[fd00:ec2::254]/v1.0' });
    expect(metadata.status).toBe(400);
    expect(metadata.body.details).toEqual([
      expect.objectContaining({ field: 'directoryUrl', message: expect.stringContaining('metadata') }),
    ]);
    const compat = await patch({ issuer: 'https://[::169.254.169.254]/' });
    expect(compat.status).toBe(400);
    expect(compat.body.details).toEqual([expect.objectContaining({ field: 'issuer' })]);
    const kept = await h.api().get(`/api/v1/admin/sso/providers/${id}`).set('x-api-key', org.adminKey);
    expect(kept.body).toMatchObject({
      issuer: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0',
      directoryUrl: 'https://graph.not-resolvable-here.example/v1.0',
    });
  });
});

describe('at connection (SafeHttpClient)', () => {
  it.each(FORMS.map((f, i) => [...f, i] as const))(
    'when a request goes to %s, or to a name resolving to it, then it is refused before connecting',
    async (host, _addresses, words, i) => {
      const c = client(strict);
      const literal = await refusedAtConnect(c, 'get', `http://${host}:${port}/`);
      expect(literal).toMatch(/^refused: /);
      expect(literal).toContain(words);
      const named = await refusedAtConnect(c, 'post', `http://${nameOf(i)}:${port}/`);
      expect(named).toMatch(new RegExp(`^refused: ${nameOf(i)} resolves to `));
      expect(await refusedAtConnect(c, 'get', `http://${nameOf(i)}:${port}/`)).toBe(named);
    },
  );

  it('when the listed networks hold the loopback address, then a request there connects; other inner addresses are still refused', async () => {
    const sso = listedNetworksPolicy(['127.0.0.0/8'], lookup);
    expect(sso.allowHttp).toBe(true);
    const c = client({ ...sso, keepAlive: false });
    const before = connections;
    const res = await c.get(`http://localhost:${port}/`, request);
    expect(res).toMatchObject({ status: 200, body: 'ok' });
    expect(await c.post(`http://127.0.0.1:${port}/`, { ...request, body: '{}' })).toMatchObject({
      status: 200,
    });
    expect(connections).toBe(before + 2);
    expect(await refusedAtConnect(c, 'get', `http://[::1]:${port}/`)).toBe(
      'refused: ::1 is a loopback address',
    );
    // Elsewhere than this machine (https: plain http is refused there before anything else).
    expect(await refusedAtConnect(c, 'get', `https://ip6-localhost:${port}/`)).toContain(
      '::1, a loopback address',
    );
    expect(await refusedAtConnect(c, 'get', `https://10.1.2.3:${port}/`)).toContain('a private address');
    expect(await refusedAtConnect(c, 'get', `https://metadata.google.internal:${port}/`)).toContain(
      'cloud metadata',
    );
    expect(await refusedAtConnect(c, 'get', `https://0.0.0.0:${port}/`)).toContain('unspecified');
    expect(await destinationProblem(`http://127.0.0.1:${port}/`, sso)).toBeNull();
    expect(await destinationProblem('https://10.1.2.3/', sso)).toBe(
      'is refused: 10.1.2.3 is a private address',
    );
    // Listing 10.1.0.0/16 only: that network is reached, loopback is not, nor plain http.
    const office = listedNetworksPolicy(['10.1.0.0/16'], lookup);
    expect(office.allowHttp).toBe(false);
    expect(await destinationProblem('https://10.1.2.3/', office)).toBeNull();
    expect(await destinationProblem('https://[::ffff:10.1.2.3]/', office)).toBeNull();
    expect(await destinationProblem('https://10.2.0.1/', office)).toContain('a private address');
    expect(await destinationProblem('https://localhost/', office)).toContain('127.0.0.1, a loopback address');
    // Loopback and an office network listed: plain http still only to this machine.
    const both = client({
      ...listedNetworksPolicy(['127.0.0.0/8', '10.1.0.0/16'], lookup),
      keepAlive: false,
    });
    expect(await refusedAtConnect(both, 'get', `http://10.1.2.3:${port}/`)).toBe(
      'plain http is allowed only to the loopback address',
    );
    expect(
      await destinationProblem('http://10.1.2.3/', listedNetworksPolicy(['127.0.0.0/8', '10.1.0.0/16'])),
    ).toBe('must be an https URL (http only on the loopback address)');
  });
});

describe('with inner addresses allowed (WEBHOOK_ALLOW_PRIVATE)', () => {
  let open: Harness;
  let openOrg: TestOrg;
  const allowing: SafeHttpPolicy = { allowHttp: true, allowPrivate: true, lookup };
  beforeAll(async () => {
    open = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' }, { lookup });
    openOrg = await createOrg(open);
  });
  afterAll(() => open.close());

  const neverForms = FORMS.filter(([, , words]) =>
    /link-local|metadata|unspecified|multicast|broadcast/.test(words),
  );

  it('when a URL names a loopback or private address, then it is accepted and reached', async () => {
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::1]:${port}/`])
      expect([url, await destinationProblem(url, allowing)]).toEqual([url, null]);
    expect(await destinationProblem('https://10.0.0.1/', allowing)).toBeNull();
    expect(await destinationProblem('https://[::ffff:127.0.0.1]/', allowing)).toBeNull();
    const c = client({ ...allowing, keepAlive: false });
    const before = connections;
    expect(await c.get(`http://localhost:${port}/`, request)).toMatchObject({ status: 200 });
    expect(await c.get(`http://[::1]:${port}/`, request)).toMatchObject({ status: 200 });
    expect(connections).toBe(before + 2);
    const res = await open
      .api()
      .post('/api/v1/webhooks')
      .set('x-api-key', openOrg.adminKey)
      .send({ url: `http://localhost:${port}/hook`, events: ['*'] });
    expect(res.status).toBe(201);
  });

  it.each(neverForms.map((f) => [f[0], f[2]] as const))(
    'when a URL names %s, then it is still refused at registration, through the API and at connection: %s',
    async (host, words) => {
      expect(await destinationProblem(`http://${host}:${port}/`, allowing)).toContain(words);
      const res = await open
        .api()
        .post('/api/v1/webhooks')
        .set('x-api-key', openOrg.adminKey)
        .send({ url: `http://${host}:${port}/hook`, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'url' })]);
      expect(res.body.details[0].message).toContain(words);
      expect(await refusedAtConnect(client(allowing), 'get', `http://${host}:${port}/`)).toContain(words);
    },
  );

  it('when a name resolves to 0.0.0.0 (which reaches this machine), then it is refused, and the listener sees nothing', async () => {
    expect(neverForms.length).toBeGreaterThanOrEqual(20);
    expect(await destinationProblem(`http://zero.example.com:${port}/`, allowing)).toBe(
      'is refused: zero.example.com resolves to 0.0.0.0, an unspecified address (a connection to it reaches this machine)',
    );
    expect(await refusedAtConnect(client(allowing), 'post', `http://zero.example.com:${port}/`)).toContain(
      '0.0.0.0, an unspecified address',
    );
  });
});
