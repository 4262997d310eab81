import { sql } from 'drizzle-orm';
import { queryRows, type Tx, uuidArray } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';

// What the audit trail's sentences need to know about actions, their signers and their answers, and
// which records belong to one action or one contact (to narrow the trail to them).

/** An action as a sentence names it: its document's title, else its templates' names; its contact. */
export interface ActionSubject {
  title: string | null;
  type: string;
  customerId: string | null;
}

/** A signer's or an answer's action and contact. */
export interface PartOfAction {
  actionId: string;
  customerId: string | null;
}

export interface AuditSubjects {
  actions: Map<string, ActionSubject>;
  parts: Map<string, PartOfAction>;
}

/** At most this many records make up one contact's part of the trail (their actions and all in them). */
const SCOPE_CAP = 2000;

const ids = (list: readonly string[]) => uuidArray([...new Set(list.filter(isId))]);

/** The actions named by the trail's events, and the actions and contacts of its signers and answers. */
export async function auditSubjects(q: Tx, ctx: RequestContext, actionIds: string[], partIds: string[]) {
  const parts = await queryRows<{ id: string; action_id: string; customer_id: string | null }>(
    q,
    sql`SELECT g.id, g.session_request_id AS action_id, g.customer_id FROM signers g
         WHERE g.organisation_id = ${ctx.organisationId}::uuid AND g.id = ANY(${ids(partIds)})
        UNION ALL
        SELECT x.id, x.session_request_id, x.customer_id FROM sessions x
         WHERE x.organisation_id = ${ctx.organisationId}::uuid AND x.id = ANY(${ids(partIds)})`,
  );
  const all = [...actionIds, ...parts.map((p) => p.action_id)];
  const actions = await queryRows<{
    id: string;
    type: string;
    customer_id: string | null;
    title: string | null;
  }>(
    q,
    sql`SELECT s.id, s.type, s.customer_id,
               coalesce(s.document->>'title',
                        (SELECT string_agg(l.name, ', ' ORDER BY array_position(s.question_list_ids, l.id))
                           FROM question_lists l
                          WHERE l.organisation_id = s.organisation_id AND l.id = ANY (s.question_list_ids))) AS title
          FROM session_requests s
         WHERE s.organisation_id = ${ctx.organisationId}::uuid AND s.id = ANY(${ids(all)})`,
  );
  return {
    actions: new Map(actions.map((a) => [a.id, { title: a.title, type: a.type, customerId: a.customer_id }])),
    parts: new Map(parts.map((p) => [p.id, { actionId: p.action_id, customerId: p.customer_id }])),
  };
}

/** The ids of an action's records, or of a contact's (see auditScopeOf). */
export async function auditScope(q: Tx, ctx: RequestContext, action: string | null, contact: string | null) {
  const rows = await queryRows<{ id: string }>(
    q,
    sql`WITH a AS (
            SELECT s.id FROM session_requests s
             WHERE s.organisation_id = ${ctx.organisationId}::uuid
               AND (s.id = ${action}::uuid OR s.customer_id = ${contact}::uuid
                    OR s.id IN (SELECT g.session_request_id FROM signers g
                                 WHERE g.organisation_id = ${ctx.organisationId}::uuid
                                   AND g.customer_id = ${contact}::uuid)))
          SELECT id FROM a
          UNION ALL
          SELECT g.id FROM signers g
           WHERE g.organisation_id = ${ctx.organisationId}::uuid AND g.session_request_id IN (SELECT id FROM a)
          UNION ALL
          SELECT x.id FROM sessions x
           WHERE x.organisation_id = ${ctx.organisationId}::uuid AND x.session_request_id IN (SELECT id FROM a)
          LIMIT ${SCOPE_CAP}`,
  );
  return rows.map((r) => r.id);
}
