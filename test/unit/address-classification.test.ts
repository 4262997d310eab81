import type { LookupFunction } from 'node:net';
import {
  addressProblem,
  addressRefusal,
  holdsLoopback,
  parseNetworks,
} from '../../src/platform/outbound/address-filter';
import {
  destinationProblem,
  listedNetworksPolicy,
  type SafeHttpPolicy,
} from '../../src/platform/outbound/safe-http';

// The tests' DNS: a name answers the addresses set here; any other does not resolve. No query leaves.
const names = new Map<string, string[]>([
  ['public.example.com', ['93.184.216.34', '2606:4700:4700::1111']],
  ['mixed.example.com', ['93.184.216.34', '10.0.0.1']],
  ['localhost', ['127.0.0.1', '::1']],
  ['metadata.example.com', ['169.254.169.254']],
  ['empty.example.com', []],
]);
const lookup = ((host: string, _options: unknown, cb: (...args: unknown[]) => void) => {
  const list = names.get(host);
  if (!list) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
  cb(
    null,
    list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  );
}) as unknown as LookupFunction;

describe('addresses (addressRefusal)', () => {
  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::1',
    '64:ff9b::8.8.8.8',
    '::ffff:8.8.8.8',
  ])('when %s is public, then it may be reached whatever the configuration', (address) => {
    expect(addressRefusal(address, false)).toBeNull();
    expect(addressRefusal(address, true)).toBeNull();
  });

  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.255.254', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['10.0.0.1', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['100.64.0.1', 'a shared (carrier-grade NAT) address'],
    ['fd12:3456::1', 'a private (unique local) address'],
    ['192.0.2.1', 'a documentation address'],
    ['2001:db8::1', 'a documentation address'],
    ['198.18.0.1', 'a benchmarking address'],
    ['240.0.0.1', 'a reserved address'],
    ['::ffff:127.0.0.1', 'a loopback address (IPv4-mapped 127.0.0.1)'],
    ['64:ff9b::a00:1', 'a private address (NAT64 10.0.0.1)'],
    ['2002:808:808::1', 'a 6to4 address'],
    ['5f00::1', 'not a global unicast address (outside 2000::/3)'],
  ])('when %s is inner, then it is refused as %s unless inner addresses are allowed', (address, why) => {
    expect(addressRefusal(address, false)).toBe(why);
    expect(addressRefusal(address, [])).toBe(why);
    expect(addressRefusal(address, true)).toBeNull();
  });

  it.each([
    ['0.0.0.0', 'an unspecified address (a connection to it reaches this machine)'],
    ['0.1.2.3', 'an unspecified address (a connection to it reaches this machine)'],
    ['::', 'the unspecified address (a connection to it reaches this machine)'],
    ['169.254.0.1', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['168.63.129.16', 'a cloud metadata address'],
    ['224.0.0.1', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['::ffff:169.254.169.254', 'a cloud metadata address (IPv4-mapped 169.254.169.254)'],
    [
      '::ffff:0.0.0.0',
      'an unspecified address (a connection to it reaches this machine) (IPv4-mapped 0.0.0.0)',
    ],
    ['2002:a9fe:a9fe::1', 'a 6to4 address carrying 169.254.169.254, a cloud metadata address'],
  ])(
    'when %s must never be reached, then it is refused as %s even with inner addresses allowed',
    (address, why) => {
      expect(addressRefusal(address, false)).toBe(why);
      expect(addressRefusal(address, true)).toBe(why);
      expect(addressRefusal(address, parseNetworks('127.0.0.0/8,10.0.0.0/8,::1/128,fc00::/7'))).toBe(why);
    },
  );

  it('when the address is not an IP address, then it is refused as such', () => {
    for (const text of ['localhost', '', '256.1.1.1', '1.2.3.4.5', 'example.com', '::g']) {
      expect(addressRefusal(text, true)).toBe('not an IP address');
    }
  });

  it('when an IPv4 address is written short, in decimal, hex or octal, then it is judged as the address it is (as a URL parser reads it)', () => {
    for (const text of ['2130706433', '0x7f.1', '0x7f000001', '017700000001', '0177.0.0.1', '127.1'])
      expect(addressRefusal(text, false)).toBe('a loopback address');
    expect(addressRefusal('10.1', false)).toBe('a private address');
    expect(addressRefusal('1.2.3', false)).toBeNull(); // 1.2.0.3
  });

  it('when networks are listed, then addresses in them may be reached, others inner ones not', () => {
    const listed = parseNetworks('10.1.0.0/16, fd12::/48, 127.0.0.0/8');
    expect(addressRefusal('10.1.2.3', listed)).toBeNull();
    expect(addressRefusal('10.2.0.1', listed)).toBe('a private address');
    expect(addressRefusal('fd12::1', listed)).toBeNull();
    expect(addressRefusal('fd13::1', listed)).toBe('a private (unique local) address');
    expect(addressRefusal('127.0.0.1', listed)).toBeNull();
    expect(addressRefusal('::1', listed)).toBe('a loopback address');
    // An IPv4 address written as IPv6 is matched as the IPv4 address it is.
    expect(addressRefusal('::ffff:10.1.2.3', listed)).toBeNull();
    expect(addressRefusal('64:ff9b::a01:203', listed)).toBeNull();
    expect(addressRefusal('::ffff:10.2.0.1', listed)).toBe('a private address (IPv4-mapped 10.2.0.1)');
  });

  it('when a refusal is put in a sentence, then it names the address', () => {
    expect(addressProblem('127.0.0.1', false)).toBe('127.0.0.1 is a loopback address');
    expect(addressProblem('8.8.8.8', false)).toBeNull();
  });
});

describe('listed networks (parseNetworks, holdsLoopback)', () => {
  it('when networks are listed, then they are read normalised, blanks and empty entries left out', () => {
    expect(parseNetworks(' 10.1.0.0/16, fd12:0::/48,,127.0.0.0/8 ,::1/128').map((n) => n.text)).toEqual([
      '10.1.0.0/16',
      'fd12::/48',
      '127.0.0.0/8',
      '::1/128',
    ]);
    expect(parseNetworks('')).toEqual([]);
  });

  it.each([
    ['banana', 'banana is not a network in CIDR notation (such as 10.1.0.0/16 or fd12::/48)'],
    ['10.1.0.0', '10.1.0.0 is not a network in CIDR notation'],
    ['10.1.0.0/33', '10.1.0.0/33 is not a network in CIDR notation'],
    ['10.1.2.3/16', '10.1.2.3/16 has address bits past its /16 prefix (the network is 10.1.0.0/16)'],
    ['8.8.8.0/24', '8.8.8.0/24 is not a loopback or private network'],
    ['10.0.0.0/7', '10.0.0.0/7 is not a loopback or private network'],
    ['169.254.0.0/16', '169.254.0.0/16 is not a loopback or private network'],
    ['fe80::/10', 'fe80::/10 is not a loopback or private network'],
    ['::/0', '::/0 is not a loopback or private network'],
  ])('when %s is listed, then it is refused saying why', (entry, why) => {
    expect(() => parseNetworks(`10.0.0.0/8,${entry}`)).toThrow(why);
  });

  it('when a listed network holds 127.0.0.1 or ::1, then it holds the loopback address', () => {
    expect(holdsLoopback(parseNetworks('127.0.0.0/8'))).toBe(true);
    expect(holdsLoopback(parseNetworks('127.0.0.1/32'))).toBe(true);
    expect(holdsLoopback(parseNetworks('::1/128'))).toBe(true);
    expect(holdsLoopback(parseNetworks('127.0.0.2/32'))).toBe(false);
    expect(holdsLoopback(parseNetworks('10.0.0.0/8,fc00::/7'))).toBe(false);
    expect(holdsLoopback([])).toBe(false);
  });
});

describe('destinations (destinationProblem)', () => {
  const strict: SafeHttpPolicy = { allowHttp: false, allowPrivate: false, lookup };
  const devHttp: SafeHttpPolicy = { allowHttp: true, allowPrivate: false, lookup };

  it('when a URL is https to a public address or a name resolving only to public ones, then it is accepted', async () => {
    expect(await destinationProblem('https://93.184.216.34/hook', strict)).toBeNull();
    expect(await destinationProblem('https://[2606:4700:4700::1111]:8443/hook', strict)).toBeNull();
    expect(await destinationProblem('https://public.example.com/hook?x=1', strict)).toBeNull();
  });

  it.each([
    ['not a url', 'is not a URL'],
    ['ftp://public.example.com/', 'must be an https URL'],
    ['http://public.example.com/', 'must be an https URL'],
    ['HTTPS://public.example.com/', 'must start with https://'],
    ['https:public.example.com/', 'must start with https://'],
    ['https:/public.example.com/', 'must start with https://'],
    ['https://user:pw@public.example.com/', 'must not contain a user name or password'],
    ['https://user@public.example.com/', 'must not contain a user name or password'],
    ['https://public.example.com/#x', 'must not contain a #fragment'],
    ['https://127.0.0.1/', 'is refused: 127.0.0.1 is a loopback address'],
    ['https://[::1]/', 'is refused: ::1 is a loopback address'],
    ['https://2130706433/', 'is refused: 127.0.0.1 is a loopback address'],
    ['https://0x7f.1/', 'is refused: 127.0.0.1 is a loopback address'],
    ['https://169.254.169.254/latest', 'is refused: 169.254.169.254 is a cloud metadata address'],
    ['https://mixed.example.com/', 'is refused: mixed.example.com resolves to 10.0.0.1, a private address'],
    ['https://localhost/', 'is refused: localhost resolves to 127.0.0.1, a loopback address'],
    ['https://unknown.example.com/', 'cannot be reached: unknown.example.com does not resolve (ENOTFOUND)'],
    ['https://empty.example.com/', 'cannot be reached: empty.example.com does not resolve (ENOTFOUND)'],
  ])('when the URL is %s, then it is refused: %s', async (url, problem) => {
    expect(await destinationProblem(url, strict)).toBe(problem);
  });

  it('when plain http is allowed (development), then http is accepted; other schemes still are not', async () => {
    expect(await destinationProblem('http://public.example.com/', devHttp)).toBeNull();
    expect(await destinationProblem('ftp://public.example.com/', devHttp)).toBe(
      'must be an http or https URL',
    );
    expect(await destinationProblem('http://10.0.0.1/', devHttp)).toBe(
      'is refused: 10.0.0.1 is a private address',
    );
    expect(await destinationProblem('http://10.0.0.1/', { ...devHttp, allowPrivate: true })).toBeNull();
    expect(await destinationProblem('http://169.254.169.254/', { ...devHttp, allowPrivate: true })).toBe(
      'is refused: 169.254.169.254 is a cloud metadata address',
    );
  });

  it('when a name does not resolve yet and that is accepted (sign-in providers), then it passes; a bad answer does not', async () => {
    expect(await destinationProblem('https://unknown.example.com/', strict, 'accept')).toBeNull();
    expect(await destinationProblem('https://metadata.example.com/', strict, 'accept')).toBe(
      'is refused: metadata.example.com resolves to 169.254.169.254, a cloud metadata address',
    );
  });

  it('when listed networks hold the loopback address, then plain http goes only to this machine', async () => {
    const policy = listedNetworksPolicy(['127.0.0.0/8', '::1/128', '10.1.0.0/16'], lookup);
    expect(policy).toMatchObject({ allowHttp: true, httpOnlyToLoopback: true });
    expect(await destinationProblem('http://127.0.0.1:8080/', policy)).toBeNull();
    expect(await destinationProblem('http://[::ffff:127.0.0.1]:8080/', policy)).toBeNull();
    expect(await destinationProblem('http://localhost:8080/', policy)).toBeNull();
    expect(await destinationProblem('http://10.1.0.5/', policy)).toBe(
      'must be an https URL (http only on the loopback address)',
    );
    expect(await destinationProblem('https://10.1.0.5/', policy)).toBeNull();
    expect(await destinationProblem('https://10.2.0.5/', policy)).toBe(
      'is refused: 10.2.0.5 is a private address',
    );
  });

  it('when listed networks do not hold the loopback address, then only https is allowed', async () => {
    const policy = listedNetworksPolicy(['10.1.0.0/16'], lookup);
    expect(policy).toMatchObject({ allowHttp: false, httpOnlyToLoopback: false });
    expect(await destinationProblem('http://10.1.0.5/', policy)).toBe('must be an https URL');
    expect(() => listedNetworksPolicy(['8.8.8.0/24'])).toThrow(
      '8.8.8.0/24 is not a loopback or private network',
    );
  });
});
