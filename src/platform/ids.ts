import { randomBytes } from 'node:crypto';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The one id generator: UUIDv7 (time-ordered, so new rows land at the end of b-tree indexes)
 * with 74 random bits. Ids are opaque to clients.
 */
export function newId(now: number = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = ((b[6] as number) & 0x0f) | 0x70;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** True when `value` has the shape of one of our ids; anything else can be answered 404 without a query. */
export function isId(value: string): boolean {
  return UUID_RE.test(value);
}
