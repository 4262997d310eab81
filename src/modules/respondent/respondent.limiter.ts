/**
 * Counts attempts per client address in a fixed window. Used for unknown codes (a guesser is slowed
 * down long before 100 random bits could matter) and for new campaign visitors.
 */
export class AddressLimiter {
  private readonly hits = new Map<string, { count: number; since: number }>();
  constructor(
    private readonly limit = 30,
    private readonly windowMs = 10 * 60_000,
  ) {}
  /** Seconds to wait when the address is over its limit, else 0. */
  blocked(address: string, now: number): number {
    const entry = this.hits.get(address);
    if (!entry || now - entry.since >= this.windowMs) return 0;
    return entry.count >= this.limit ? Math.ceil((entry.since + this.windowMs - now) / 1000) : 0;
  }
  record(address: string, now: number): void {
    const entry = this.hits.get(address);
    if (!entry || now - entry.since >= this.windowMs) this.hits.set(address, { count: 1, since: now });
    else entry.count++;
    if (this.hits.size > 100_000) this.hits.clear(); // bounded memory under a spray of addresses
  }
}
