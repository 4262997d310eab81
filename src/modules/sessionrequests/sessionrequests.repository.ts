import { and, asc, desc, eq, getTableColumns, gte, inArray, or, type SQL, sql } from 'drizzle-orm';
import { jobs, type SessionRequestStatus, sessionRequestEvents, sessionRequests } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import type { RequestContext } from '../../platform/context';
import type { Keyset } from '../../platform/cursor';
import { type Queryable, queryRows, type Row, rowMapper, uuidArray } from '../../platform/db/database';
import { cappedCount, keysetColumnsOf, keysetSql, settled } from '../../platform/db/keyset';
import { isId, newId } from '../../platform/ids';
import { jobRepository, type NewJob } from '../../platform/jobs/jobs.repository';
import { offsetOf, type Page } from '../../platform/pagination';
import { escapeLike, foldForSearch } from '../../platform/text';

export type SessionRequestRow = RowOf<typeof sessionRequests>;
export type NewSessionRequest = Omit<SessionRequestRow, 'organisationId'>;
export interface SessionRequestFilter {
  status?: SessionRequestStatus;
  customerId?: string;
  type?: SessionRequestRow['type'];
  updatedSince?: Date;
  /** Words that must all be in the contact's name or e-mail, or all in the document's title. */
  search?: string;
}

export const sessionRequestFromRaw = rowMapper(sessionRequests);
export const eventFromRaw = rowMapper(sessionRequestEvents);
export const jobFromRaw = rowMapper(jobs);

export interface TemplateFacts {
  id: string;
  active: boolean;
  version: number;
  supportedLanguages: string[];
}

export interface Actor {
  actor: 'user' | 'contact' | 'system';
  userId: string | null;
}

export function actorOf(ctx: RequestContext): Actor {
  return ctx.userId ? { actor: 'user', userId: ctx.userId } : { actor: 'system', userId: null };
}

function whereOf(ctx: RequestContext, f: SessionRequestFilter): SQL | undefined {
  return and(
    eq(sessionRequests.organisationId, ctx.organisationId),
    f.status ? eq(sessionRequests.status, f.status) : undefined,
    f.customerId ? eq(sessionRequests.customerId, f.customerId) : undefined,
    f.type ? eq(sessionRequests.type, f.type) : undefined,
    f.updatedSince ? gte(sessionRequests.updatedAt, f.updatedSince) : undefined,
    searchOf(ctx, f.search),
  );
}

/** The search condition: the contact's folded name and e-mail (trigram-indexed), or the document title. */
function searchOf(ctx: RequestContext, search: string | undefined): SQL | undefined {
  const terms = foldForSearch(search ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 8);
  if (terms.length === 0) return undefined;
  const patterns = sql`ARRAY[${sql.join(
    terms.map((t) => sql`${`%${escapeLike(t)}%`}`),
    sql`, `,
  )}]::text[]`;
  return or(
    sql`${sessionRequests.customerId} IN (SELECT c.id FROM customers c WHERE c.organisation_id = ${ctx.organisationId}::uuid AND c.search_text LIKE ALL (${patterns}))`,
    sql`lower(coalesce(${sessionRequests.document}->>'title', '')) LIKE ALL (${patterns})`,
  );
}

/** A signer as action answers list it (read with signerSummariesFromRaw). */
export interface SignerSummary {
  id: string;
  customerId: string;
  position: number;
  code: string;
  status: 'pending' | 'signed' | 'declined';
  openedAt: Date | null;
  codeSentAt: Date | null;
  codeChannel: 'email' | 'sms' | null;
  signedAt: Date | null;
  declinedAt: Date | null;
  declineReason: string | null;
}

/** The action's signers, in order, as one JSON column of the action's row. */
const signerSummaries = sql`(SELECT coalesce(jsonb_agg(jsonb_build_object(
    'id', g.id, 'customerId', g.customer_id, 'position', g.position, 'code', g.code, 'status', g.status,
    'openedAt', g.opened_at, 'codeSentAt', g.code_sent_at, 'codeChannel', g.code_channel,
    'signedAt', g.signed_at, 'declinedAt', g.declined_at, 'declineReason', g.decline_reason)
    ORDER BY g.position), '[]'::jsonb)
   FROM signers g
  WHERE g.organisation_id = session_requests.organisation_id AND g.session_request_id = session_requests.id)`;

const withSigners = { ...getTableColumns(sessionRequests), signers: signerSummaries.as('signers') };

const dateOrNull = (v: unknown): Date | null => (typeof v === 'string' ? new Date(v) : null);

/** Reads the `signers` column of a row read with its signers. */
export function signerSummariesFromRaw(raw: Row): SignerSummary[] {
  const list = (raw.signers ?? []) as Record<string, unknown>[];
  return list.map((g) => ({
    id: String(g.id),
    customerId: String(g.customerId),
    position: Number(g.position),
    code: String(g.code),
    status: g.status as SignerSummary['status'],
    openedAt: dateOrNull(g.openedAt),
    codeSentAt: dateOrNull(g.codeSentAt),
    codeChannel: (g.codeChannel ?? null) as SignerSummary['codeChannel'],
    signedAt: dateOrNull(g.signedAt),
    declinedAt: dateOrNull(g.declinedAt),
    declineReason: (g.declineReason ?? null) as string | null,
  }));
}

/** Read-batch statements (see batchInTenant); rows come back raw and go through sessionRequestFromRaw. */
export function sessionRequestStatements(q: Queryable, ctx: RequestContext) {
  return {
    page(filter: SessionRequestFilter, page: Page): SQL {
      // With `updatedSince`: in commit order, as a sync by cursor reads (see cursor.ts).
      const order = filter.updatedSince
        ? [asc(sessionRequests.changeTxid), asc(sessionRequests.id)]
        : [desc(sessionRequests.createdAt), desc(sessionRequests.id)];
      return q
        .select(withSigners)
        .from(sessionRequests)
        .where(
          and(whereOf(ctx, filter), filter.updatedSince ? settled(sessionRequests.changeTxid) : undefined),
        )
        .orderBy(...order)
        .limit(page.limit)
        .offset(offsetOf(page))
        .getSQL();
    },
    /** A page by keyset (`limit` + 1 rows): as cheap deep in the list as at its start. */
    keyset(filter: SessionRequestFilter, keyset: Keyset, limit: number): SQL {
      const k = keysetSql(keyset, keysetColumnsOf(sessionRequests));
      return q
        .select(withSigners)
        .from(sessionRequests)
        .where(and(whereOf(ctx, filter), k.where))
        .orderBy(...k.orderBy)
        .limit(limit + 1)
        .getSQL();
    },
    /** How many match; counted up to `cap` + 1 when given (a walk by cursor: see SYNC_TOTAL_CAP). */
    count(filter: SessionRequestFilter, cap?: number): SQL {
      if (cap !== undefined) return cappedCount(sql`session_requests`, whereOf(ctx, filter), cap);
      return q
        .select({ n: sql`count(*)`.as('n') })
        .from(sessionRequests)
        .where(whereOf(ctx, filter))
        .getSQL();
    },
    one(id: string): SQL {
      return q
        .select(withSigners)
        .from(sessionRequests)
        .where(and(eq(sessionRequests.organisationId, ctx.organisationId), eq(sessionRequests.id, id)))
        .getSQL();
    },
    events(id: string): SQL {
      return q
        .select()
        .from(sessionRequestEvents)
        .where(
          and(
            eq(sessionRequestEvents.organisationId, ctx.organisationId),
            eq(sessionRequestEvents.sessionRequestId, id),
          ),
        )
        .orderBy(asc(sessionRequestEvents.seq))
        .getSQL();
    },
    notifications(id: string): SQL {
      return q
        .select()
        .from(jobs)
        .where(
          and(
            eq(jobs.organisationId, ctx.organisationId),
            eq(jobs.subjectId, id),
            eq(jobs.kind, 'notification'),
          ),
        )
        .orderBy(asc(jobs.id)) // creation order: ids only increase
        .getSQL();
    },
    /**
     * What a message about the action needs: the action, the contact's data (the signer's, when the
     * message goes to a signer), organisation and adviser.
     */
    forMessage(id: string, signerId: string | null = null): SQL {
      return sql`SELECT s.*, c.data AS customer_data, o.name AS organisation_name, u.name AS adviser_name,
                        g.id AS signer_id, g.code AS signer_code, g.status AS signer_status,
                        g.position AS signer_position
          FROM session_requests s
          JOIN organisations o ON o.id = s.organisation_id
          LEFT JOIN signers g ON g.organisation_id = s.organisation_id AND g.session_request_id = s.id
                              AND g.id = ${signerId}::uuid
          LEFT JOIN customers c ON c.organisation_id = s.organisation_id AND c.id = coalesce(g.customer_id, s.customer_id)
          LEFT JOIN users u ON u.organisation_id = s.organisation_id AND u.id = s.created_by
         WHERE s.organisation_id = ${ctx.organisationId} AND s.id = ${id}::uuid`;
    },
  };
}

/** Reads a `forMessage` row. */
export function messageFactsFromRaw(raw: Record<string, unknown>) {
  return {
    row: sessionRequestFromRaw(raw),
    customer: (raw.customer_data as Record<string, string> | null) ?? null,
    organisation: String(raw.organisation_name ?? ''),
    adviser: (raw.adviser_name as string | null) ?? null,
    signer: raw.signer_id
      ? {
          code: String(raw.signer_code),
          status: String(raw.signer_status),
          position: Number(raw.signer_position),
        }
      : null,
  };
}

/** What the public code lookup answers: where the action is, and (unlocked) what it was a moment ago. */
export interface ActionHit {
  organisationId: string;
  sessionRequestId: string;
  type: SessionRequestRow['type'];
  status: SessionRequestRow['status'];
  /** The signer whose own link the code is; null for an action's link without signers. */
  signerId: string | null;
}

/**
 * Finds the action behind a public code, in any organisation: the one lookup made before the
 * organisation is known (actiondesk_find_action, SECURITY DEFINER, returns the two ids, the type and
 * the status only).
 */
export async function findActionByCode(q: Queryable, code: string): Promise<ActionHit | undefined> {
  const [hit] = await queryRows<{
    organisation_id: string;
    session_request_id: string;
    type: ActionHit['type'];
    status: ActionHit['status'];
    signer_id: string | null;
  }>(
    q,
    sql`SELECT organisation_id, session_request_id, type, status, signer_id FROM actiondesk_find_action(${code})`,
  );
  return (
    hit && {
      organisationId: hit.organisation_id,
      sessionRequestId: hit.session_request_id,
      type: hit.type,
      status: hit.status,
      signerId: hit.signer_id,
    }
  );
}

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
             'customer', CASE WHEN c.id IS NULL THEN NULL
                              ELSE jsonb_build_object('_id', c.id, 'thirdpartyId', c.thirdparty_id) END,
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
      LEFT JOIN customers c ON c.organisation_id = a.organisation_id AND c.id = coalesce(s.customer_id, a.customer_id)
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

export function sessionRequestRepository(q: Queryable, ctx: RequestContext) {
  const org = eq(sessionRequests.organisationId, ctx.organisationId);
  return {
    /**
     * What creating an action checks, in one statement: the contact's data (null when it is not a
     * contact of the organisation) and the named templates that exist in the organisation.
     */
    async prerequisites(customerId: string | null, templateIds: string[]) {
      const ids = templateIds.filter(isId);
      const [row] = await queryRows<{
        customer: Record<string, string> | null;
        templates: TemplateFacts[] | null;
      }>(
        q,
        sql`SELECT
          (SELECT c.data FROM customers c WHERE c.organisation_id = ${ctx.organisationId} AND c.id = ${customerId && isId(customerId) ? customerId : null}::uuid) AS customer,
          (SELECT json_agg(json_build_object('id', l.id, 'active', l.active, 'version', l.version, 'supportedLanguages', l.supported_languages))
             FROM question_lists l WHERE l.organisation_id = ${ctx.organisationId} AND l.id = ANY(${uuidArray(ids)})) AS templates`,
      );
      return { customer: row?.customer ?? null, templates: row?.templates ?? [] };
    },
    /** Inserts the action, its first history entry and its jobs in one statement. */
    async create(row: NewSessionRequest, actor: Actor, newJobs: NewJob[]): Promise<SessionRequestRow> {
      const insertAction = q
        .insert(sessionRequests)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      const insertEvent = q.insert(sessionRequestEvents).values({
        id: newId(row.createdAt.getTime()),
        organisationId: ctx.organisationId,
        sessionRequestId: row.id,
        fromStatus: null,
        toStatus: row.status,
        actor: actor.actor,
        userId: actor.userId,
        at: row.createdAt,
      });
      const parts = [sql`a AS (${insertAction.getSQL()})`, sql`e AS (${insertEvent.getSQL()})`];
      if (newJobs.length > 0)
        parts.push(sql`j AS (${jobRepository(q, ctx).insertStatement(newJobs, row.createdAt)})`);
      const [inserted] = await queryRows<Row>(q, sql`WITH ${sql.join(parts, sql`, `)} SELECT * FROM a`);
      return sessionRequestFromRaw(inserted!);
    },
    /** The action; `forUpdate` locks it for a change, `forShare` only against changes by others. */
    async find(
      id: string,
      opts: { forUpdate?: boolean; forShare?: boolean } = {},
    ): Promise<SessionRequestRow | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select()
        .from(sessionRequests)
        .where(and(org, eq(sessionRequests.id, id)));
      const [row] = opts.forUpdate
        ? await query.for('update')
        : opts.forShare
          ? await query.for('share')
          : await query;
      return row;
    },
    /** Moves the action to `to` (the caller holds its row lock and checked the transition) and records it. */
    async transition(
      current: SessionRequestRow,
      to: SessionRequestStatus,
      change: Partial<NewSessionRequest>,
      actor: Actor,
      at: Date,
    ): Promise<SessionRequestRow> {
      const [row] = await q
        .update(sessionRequests)
        .set({ ...change, status: to, updatedAt: at })
        .where(
          and(org, eq(sessionRequests.id, current.id), inArray(sessionRequests.status, [current.status])),
        )
        .returning();
      if (!row) throw new Error(`session request ${current.id} changed under its row lock`);
      await this.record(current.id, current.status, to, actor, at);
      return row;
    },
    /**
     * Whether the contact's part is done and only its documents are awaited: its questionnaire's report
     * is being made, or every signer has signed and the signed document is being made.
     */
    async awaitingDocuments(id: string): Promise<boolean> {
      const [row] = await queryRows<{ waiting: boolean }>(
        q,
        sql`SELECT (
              EXISTS (SELECT 1 FROM sessions s
                       WHERE s.organisation_id = ${ctx.organisationId}::uuid AND s.session_request_id = ${id}::uuid
                         AND s.visitor_id IS NULL AND s.documents_pending)
              OR (EXISTS (SELECT 1 FROM signers g
                           WHERE g.organisation_id = ${ctx.organisationId}::uuid AND g.session_request_id = ${id}::uuid)
                  AND NOT EXISTS (SELECT 1 FROM signers g
                                   WHERE g.organisation_id = ${ctx.organisationId}::uuid
                                     AND g.session_request_id = ${id}::uuid AND g.status <> 'signed'))
            ) AS waiting`,
      );
      return row?.waiting === true;
    },
    /** Saves the contact's answers so far. */
    async saveDraft(id: string, draft: SessionRequestRow['draft'], at: Date): Promise<void> {
      await q
        .update(sessionRequests)
        .set({ draft, updatedAt: at })
        .where(and(org, eq(sessionRequests.id, id)));
    },
    async record(
      id: string,
      from: SessionRequestStatus | null,
      to: SessionRequestStatus,
      actor: Actor,
      at: Date,
    ): Promise<void> {
      await q.insert(sessionRequestEvents).values({
        id: newId(at.getTime()),
        organisationId: ctx.organisationId,
        sessionRequestId: id,
        fromStatus: from,
        toStatus: to,
        actor: actor.actor,
        userId: actor.userId,
        at,
      });
    },
  };
}
