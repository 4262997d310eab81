import { type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../platform/kernel/context';

/**
 * The subject and data of an action's events (docs/webhooks.md), computed by the database as the
 * change's transaction sees it: the action, its contact (`thirdpartyId` included), its session and the
 * session's documents. `sessionId` names a campaign visitor's session; otherwise the action's own.
 */
export function actionEventSource(
  ctx: RequestContext,
  id: string,
  baseUrl: string,
  sessionId: string | null = null,
): SQL {
  return sql`
    -- A campaign visitor's session is a subject of its own: visitors' deliveries do not wait for each other.
    SELECT CASE WHEN s.visitor_id IS NOT NULL THEN s.id ELSE a.id END AS subject_id,
           jsonb_build_object(
             'sessionRequest', jsonb_build_object('_id', a.id, 'code', a.code, 'status', a.status,
                                                  'type', a.type, 'url', ${baseUrl}::text || '/action/' || a.code),
             -- CASE, not coalesce(…): row-level security lets only the first be an index condition.
             'customer', (SELECT jsonb_build_object('_id', c.id, 'thirdpartyId', c.thirdparty_id)
                            FROM customers c
                           WHERE c.organisation_id = a.organisation_id
                             AND c.id = CASE WHEN s.customer_id IS NULL THEN a.customer_id ELSE s.customer_id END),
             'sessionId', s.id,
             'documents', coalesce(
               (SELECT jsonb_agg(jsonb_build_object('fileId', d->>'fileId', 'fileName', d->>'fileName',
                                                    'url', ${baseUrl}::text || (d->>'fileUrl')))
                  FROM jsonb_array_elements(s.documents) d),
               '[]'::jsonb)
           ) AS data
      FROM session_requests a
      LEFT JOIN sessions s
        ON s.organisation_id = a.organisation_id AND s.session_request_id = a.id
       AND (CASE WHEN ${sessionId}::uuid IS NULL THEN s.visitor_id IS NULL ELSE s.id = ${sessionId}::uuid END)
     WHERE a.organisation_id = ${ctx.organisationId}::uuid AND a.id = ${id}::uuid`;
}

/** An action's event data with the signer it is about (`signer`: docs/webhooks.md). */
export function signerEventSource(ctx: RequestContext, id: string, signerId: string, baseUrl: string): SQL {
  return sql`
    SELECT x.subject_id,
           x.data || jsonb_build_object('signer', (
             SELECT jsonb_build_object('_id', g.id, 'customerId', g.customer_id, 'position', g.position,
                      'status', g.status,
                      'signedAt', to_char(g.signed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                      'declinedAt', to_char(g.declined_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                      'declineReason', g.decline_reason)
               FROM signers g
              WHERE g.organisation_id = ${ctx.organisationId}::uuid AND g.id = ${signerId}::uuid)) AS data
      FROM (${actionEventSource(ctx, id, baseUrl)}) x`;
}
