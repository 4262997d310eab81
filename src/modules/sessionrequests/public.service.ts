import { sql } from 'drizzle-orm';
import type { Language, SessionRequestStatus, SessionRequestTypes } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import { systemContext } from '../../platform/context';
import { normaliseActionCode } from '../../platform/crypto/codes';
import { type Database, queryRows } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { organisationRepository } from '../admin/admin.repository';
import { isOpen } from './sessionrequests.lifecycle';
import { sessionRequestRepository } from './sessionrequests.repository';
import { applyTransition } from './sessionrequests.transitions';

export type PublicAction =
  | { outcome: 'unknown' }
  | { outcome: 'gone'; language: Language }
  | {
      outcome: 'ok';
      language: Language;
      status: SessionRequestStatus;
      type: SessionRequestTypes;
      organisation: string;
    };

const CONTACT = { actor: 'contact', userId: null } as const;

/**
 * Resolves a public link. The code is the only credential: an unknown code and a code of another
 * organisation look the same, and a withdrawn or expired action is only "gone", naming no one.
 * A GET by the contact marks a created or sent action opened.
 */
export async function openActionByCode(
  deps: { database: Database; clock: Clock },
  rawCode: string,
  markOpened: boolean,
): Promise<PublicAction> {
  const code = normaliseActionCode(rawCode);
  if (!code) return { outcome: 'unknown' };
  const [hit] = await queryRows<{ organisation_id: string; session_request_id: string }>(
    deps.database.db,
    sql`SELECT organisation_id, session_request_id FROM actiondesk_find_action(${code})`,
  );
  if (!hit) return { outcome: 'unknown' };
  const now = deps.clock.now();
  const ctx = systemContext(hit.organisation_id, now);
  return inTenant(deps.database, ctx, async (tx): Promise<PublicAction> => {
    let row = await sessionRequestRepository(tx, ctx).find(hit.session_request_id, { forUpdate: true });
    if (!row) return { outcome: 'unknown' };
    if (isOpen(row.status) && row.expiresAt && row.expiresAt <= now) {
      row = await applyTransition(deps, tx, ctx, row.id, 'expire', { actor: 'system', userId: null });
    }
    if (row.status === 'deactivated' || row.status === 'expired')
      return { outcome: 'gone', language: row.language };
    if (markOpened && (row.status === 'created' || row.status === 'sent')) {
      row = await applyTransition(deps, tx, ctx, row.id, 'open', CONTACT);
    }
    const organisation = await organisationRepository(tx, ctx).find();
    return {
      outcome: 'ok',
      language: row.language,
      status: row.status,
      type: row.type,
      organisation: organisation?.name ?? '',
    };
  });
}
