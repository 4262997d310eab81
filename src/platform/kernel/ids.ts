import { randomBytes } from 'node:crypto';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TAIL_BITS = 74n;
const TAIL_MAX = (1n << TAIL_BITS) - 1n;

let lastMs = -1;
let lastTail = 0n;

/**
 * The one id generator: UUIDv7 (time-ordered, so new rows land at the end of b-tree indexes) with 74
 * random bits. Within one process ids only ever increase (RFC 9562, method 2: in the same millisecond
 * the random part is incremented), so rows written together sort in the order they were made.
 * Ids are opaque to clients.
 */
export function newId(now: number = Date.now()): string {
  let ms = now;
  let tail: bigint;
  if (ms <= lastMs && lastTail < TAIL_MAX) {
    ms = lastMs;
    tail = lastTail + 1n;
  } else {
    if (ms <= lastMs) ms = lastMs + 1;
    // The top random bit starts at 0, leaving room for 2^73 increments within the millisecond.
    tail = BigInt(`0x${randomBytes(10).toString('hex')}`) & (TAIL_MAX >> 1n);
  }
  lastMs = ms;
  lastTail = tail;
  const b = Buffer.alloc(16);
  b.writeUIntBE(ms, 0, 6);
  const randA = Number(tail >> 62n); // 12 bits
  b[6] = 0x70 | (randA >> 8);
  b[7] = randA & 0xff;
  const randB = tail & ((1n << 62n) - 1n);
  b.writeBigUInt64BE(randB | (0b10n << 62n), 8);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** True when `value` has the shape of one of our ids; anything else can be answered 404 without a query. */
export function isId(value: string): boolean {
  return UUID_RE.test(value);
}
