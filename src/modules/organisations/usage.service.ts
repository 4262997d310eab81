import type { Database } from '../../platform/db/database';
import { type OrganisationUsage, readUsage } from './usage.repository';

export type { OrganisationUsage };

/** The calendar month `YYYY-MM` (UTC) as [from, to); undefined when it is not one. */
export function monthPeriod(month: string): { from: Date; to: Date } | undefined {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) return undefined;
  const [year, index] = [Number(m[1]), Number(m[2]) - 1];
  return { from: new Date(Date.UTC(year, index, 1)), to: new Date(Date.UTC(year, index + 1, 1)) };
}

/**
 * The billing-like counts of every live organisation in [from, to): actions created, sent, completed and
 * signatures given. Test organisations' work (test mode) is never counted.
 */
export function usageReport(database: Database, from: Date, to: Date): Promise<OrganisationUsage[]> {
  return readUsage(database.db, from, to);
}
