import ipaddr from 'ipaddr.js';

/**
 * The one rule for where outbound requests to addresses a client or an administrator chose (webhooks,
 * sign-in providers) may go: public (global unicast) addresses only; inner ones (loopback, private,
 * shared, reserved…) where the configuration allows them; link-local, cloud metadata, unspecified,
 * multicast and broadcast addresses never. The registration check and the connection check both call
 * `addressRefusal`, so they cannot disagree.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

/** A network an administrator listed (SSO_PRIVATE_NETWORKS), normalised: `10.1.0.0/16`. */
export interface Network {
  readonly text: string;
  readonly range: Cidr;
}

/**
 * Which inner addresses may be reached besides the public ones: none (false), every one (true:
 * WEBHOOK_ALLOW_PRIVATE, development and tests), or those in the listed networks.
 */
export type PrivateAccess = boolean | readonly Network[];

interface Verdict {
  kind: 'public' | 'inner' | 'never';
  what: string;
  /** The address a listed network is matched against: the IPv4 one for an IPv4-mapped or NAT64 address. */
  effective: Address;
}

const ranges = (rows: [string, string][]) =>
  rows.map(([text, what]) => ({ range: ipaddr.parseCIDR(text), what }));
const inRange = (a: Address, [net, bits]: Cidr) => a.kind() === net.kind() && a.match(net, bits);

// Where a cloud's metadata or host service answers the machine we run on (AWS, ECS/EKS, GCP, Azure,
// Alibaba, Oracle): never reached, whatever the configuration.
const METADATA = ranges(
  [
    '169.254.169.254/32',
    '169.254.170.2/32',
    '169.254.170.23/32',
    '100.100.100.200/32',
    '192.0.0.192/32',
    '168.63.129.16/32',
    'fd00:ec2::254/128',
    'fd00:ec2::23/128',
    'fd20:ce::254/128',
  ].map((r) => [r, 'a cloud metadata address']),
);
const NEVER = ranges([
  ['0.0.0.0/8', 'an unspecified address (a connection to it reaches this machine)'],
  ['169.254.0.0/16', 'a link-local address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['255.255.255.255/32', 'the broadcast address'],
  ['::/128', 'the unspecified address (a connection to it reaches this machine)'],
  ['fe80::/10', 'a link-local address'],
  ['ff00::/8', 'a multicast address'],
]);
// The IANA special-purpose registries' ranges that are not globally reachable (more specific first).
const INNER = ranges([
  ['127.0.0.0/8', 'a loopback address'],
  ['10.0.0.0/8', 'a private address'],
  ['172.16.0.0/12', 'a private address'],
  ['192.168.0.0/16', 'a private address'],
  ['100.64.0.0/10', 'a shared (carrier-grade NAT) address'],
  ['192.0.2.0/24', 'a documentation address'],
  ['198.51.100.0/24', 'a documentation address'],
  ['203.0.113.0/24', 'a documentation address'],
  ['192.0.0.0/24', 'an IETF protocol assignment'],
  ['192.88.99.0/24', 'a 6to4 relay address'],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['240.0.0.0/4', 'a reserved address'],
  ['::1/128', 'a loopback address'],
  ['::/8', 'a reserved address (::/8)'],
  ['100::/64', 'a discard-only address'],
  ['2001:2::/48', 'a benchmarking address'],
  ['2001:10::/28', 'an ORCHID address'],
  ['2001:20::/28', 'an ORCHIDv2 address'],
  ['2001:db8::/32', 'a documentation address'],
  ['2001::/23', 'an IETF protocol assignment'],
  ['3fff::/20', 'a documentation address'],
  ['fc00::/7', 'a private (unique local) address'],
  ['fec0::/10', 'a site-local address'],
]);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const LOOPBACK_V6 = ipaddr.parseCIDR('::1/128');

const v4 = (b: number[], at: number, invert = false) =>
  new ipaddr.IPv4(b.slice(at, at + 4).map((x) => (invert ? x ^ 0xff : x)));

// IPv6 forms that carry an IPv4 address. `same`: the address is that IPv4 address (a dual-stack socket
// or a NAT64 gateway connects there), so it is judged as it; otherwise the form itself is not public, and
// an embedded address that must never be reached makes it never reached too.
const EMBEDDING: { range: Cidr; what: string; same: boolean; inner: (b: number[]) => ipaddr.IPv4[] }[] = [
  { range: ipaddr.parseCIDR('::ffff:0:0/96'), what: 'IPv4-mapped', same: true, inner: (b) => [v4(b, 12)] },
  { range: ipaddr.parseCIDR('64:ff9b::/96'), what: 'NAT64', same: true, inner: (b) => [v4(b, 12)] },
  {
    range: ipaddr.parseCIDR('::ffff:0:0:0/96'),
    what: 'an IPv4-translated address',
    same: false,
    inner: (b) => [v4(b, 12)],
  },
  {
    range: ipaddr.parseCIDR('64:ff9b:1::/48'),
    what: 'a local-use NAT64 address',
    same: false,
    inner: (b) => [v4(b, 12)],
  },
  { range: ipaddr.parseCIDR('2002::/16'), what: 'a 6to4 address', same: false, inner: (b) => [v4(b, 2)] },
  // Teredo: the server's address, and the client's (inverted).
  {
    range: ipaddr.parseCIDR('2001::/32'),
    what: 'a Teredo address',
    same: false,
    inner: (b) => [v4(b, 4), v4(b, 12, true)],
  },
  // IPv4-compatible (deprecated); :: and ::1 are judged before.
  {
    range: ipaddr.parseCIDR('::/96'),
    what: 'an IPv4-compatible address',
    same: false,
    inner: (b) => [v4(b, 12)],
  },
];

function judgeV4(a: ipaddr.IPv4): Verdict {
  for (const [kind, table] of [
    ['never', METADATA],
    ['never', NEVER],
    ['inner', INNER],
  ] as const) {
    const hit = table.find((r) => inRange(a, r.range));
    if (hit) return { kind, what: hit.what, effective: a };
  }
  return { kind: 'public', what: 'a public address', effective: a };
}

function judge(a: Address): Verdict {
  if (a.kind() === 'ipv4') return judgeV4(a as ipaddr.IPv4);
  const metadata = METADATA.find((r) => inRange(a, r.range)) ?? NEVER.find((r) => inRange(a, r.range));
  if (metadata) return { kind: 'never', what: metadata.what, effective: a };
  if (!inRange(a, LOOPBACK_V6)) {
    const form = EMBEDDING.find((e) => inRange(a, e.range));
    if (form) {
      const inner = form.inner(a.toByteArray()).map((x) => ({ address: x, verdict: judgeV4(x) }));
      const first = inner[0]!;
      if (form.same)
        return first.verdict.kind === 'public'
          ? first.verdict
          : { ...first.verdict, what: `${first.verdict.what} (${form.what} ${first.address})` };
      const worst =
        inner.find((x) => x.verdict.kind === 'never') ?? inner.find((x) => x.verdict.kind === 'inner');
      return {
        kind: worst?.verdict.kind === 'never' ? 'never' : 'inner',
        what: worst ? `${form.what} carrying ${worst.address}, ${worst.verdict.what}` : form.what,
        effective: a,
      };
    }
  }
  const hit = INNER.find((r) => inRange(a, r.range));
  if (hit) return { kind: 'inner', what: hit.what, effective: a };
  if (!inRange(a, GLOBAL_UNICAST_V6))
    return { kind: 'inner', what: 'not a global unicast address (outside 2000::/3)', effective: a };
  return { kind: 'public', what: 'a public address', effective: a };
}

/**
 * Why an address (as DNS or a URL gives it: 127.0.0.1, ::ffff:7f00:1) may not be reached, in words
 * ("a loopback address"), or null when it may.
 */
export function addressRefusal(address: string, allowPrivate: PrivateAccess): string | null {
  let parsed: Address;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  const verdict = judge(parsed);
  if (verdict.kind === 'public') return null;
  if (verdict.kind === 'never') return verdict.what;
  if (allowPrivate === true) return null;
  if (allowPrivate !== false && allowPrivate.some((n) => inRange(verdict.effective, n.range))) return null;
  return verdict.what;
}

/** `addressRefusal` as a sentence naming the address: "127.0.0.1 is a loopback address". */
export function addressProblem(address: string, allowPrivate: PrivateAccess): string | null {
  const refusal = addressRefusal(address, allowPrivate);
  return refusal ? `${address} is ${refusal}` : null;
}

// The only networks an administrator may open: loopback, private, shared and unique local ones.
const LISTABLE = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '::1/128',
  'fc00::/7',
];
const LISTABLE_RANGES = LISTABLE.map((r) => ipaddr.parseCIDR(r));

/**
 * Reads a comma-separated list of networks (`10.1.0.0/16,fd12::/48`); throws an Error naming the entry
 * that is not a network in CIDR notation, has address bits past its prefix, or is not a loopback or
 * private network.
 */
export function parseNetworks(list: string): Network[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      let range: Cidr;
      try {
        if (!entry.includes('/')) throw new Error('no prefix length');
        range = ipaddr.parseCIDR(entry);
      } catch {
        throw new Error(`${entry} is not a network in CIDR notation (such as 10.1.0.0/16 or fd12::/48)`);
      }
      const [address, bits] = range;
      const network =
        address.kind() === 'ipv4'
          ? ipaddr.IPv4.networkAddressFromCIDR(entry)
          : ipaddr.IPv6.networkAddressFromCIDR(entry);
      const text = `${network.toString()}/${bits}`;
      if (network.toString() !== address.toString())
        throw new Error(`${entry} has address bits past its /${bits} prefix (the network is ${text})`);
      if (
        !LISTABLE_RANGES.some(
          ([parent, parentBits]) => bits >= parentBits && inRange(network, [parent, parentBits]),
        )
      )
        throw new Error(
          `${entry} is not a loopback or private network (only networks within ${LISTABLE.join(', ')} may be listed; link-local and cloud metadata addresses are never reached)`,
        );
      return { text, range: [network, bits] };
    });
}

/** Whether a listed network holds the loopback address (a provider on this machine). */
export const holdsLoopback = (networks: readonly Network[]): boolean =>
  networks.some((n) => inRange(ipaddr.parse('127.0.0.1'), n.range) || inRange(ipaddr.parse('::1'), n.range));
