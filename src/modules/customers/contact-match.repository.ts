import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';

/**
 * The organisation's contacts these people are, in order: by thirdpartyId first, then by e-mail
 * (any case; the oldest contact with it).
 */
export async function matchContactRows(
  q: Tx,
  ctx: RequestContext,
  people: { thirdpartyId?: string; email?: string }[],
): Promise<({ _id: string; by: 'thirdpartyId' | 'email' } | null)[]> {
  if (people.length === 0) return [];
  const rows = await queryRows<{ i: number; id: string | null; by: 'thirdpartyId' | 'email' | null }>(
    q,
    sql`SELECT p.i::int AS i, coalesce(t.id, e.id) AS id,
               CASE WHEN t.id IS NOT NULL THEN 'thirdpartyId' WHEN e.id IS NOT NULL THEN 'email' END AS by
          FROM jsonb_array_elements(${JSON.stringify(people)}::jsonb) WITH ORDINALITY AS p(person, i)
          LEFT JOIN LATERAL (
            SELECT c.id FROM customers c
             WHERE c.organisation_id = ${ctx.organisationId}::uuid
               AND c.thirdparty_id = p.person->>'thirdpartyId') t ON true
          LEFT JOIN LATERAL (
            SELECT c.id FROM customers c
             WHERE c.organisation_id = ${ctx.organisationId}::uuid
               AND lower(c.data->>'Email') = lower(p.person->>'email')
             ORDER BY c.created_at, c.id LIMIT 1) e ON true
         ORDER BY p.i`,
  );
  return rows.map((r) => (r.id && r.by ? { _id: r.id, by: r.by } : null));
}
