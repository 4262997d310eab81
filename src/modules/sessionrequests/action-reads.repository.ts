import { and, asc, desc, eq, getTableColumns, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { jobs, type SessionRequestStatus, sessionRequestEvents, sessionRequests } from '../../db/schema';
import { type Queryable, type Row, rowMapper } from '../../platform/db/database';
import { cappedCount, keysetColumnsOf, keysetSql, settled } from '../../platform/db/keyset';
import type { RequestContext } from '../../platform/kernel/context';
import { escapeLike, foldForSearch } from '../../platform/kernel/text';
import type { Keyset } from '../../platform/lists/cursor';
import { offsetOf, type Page } from '../../platform/lists/pagination';
import { openStatuses } from './sessionrequests.lifecycle';
import { type SessionRequestRow, sessionRequestFromRaw } from './sessionrequests.repository';

export interface SessionRequestFilter {
  status?: SessionRequestStatus;
  customerId?: string;
  type?: SessionRequestRow['type'];
  updatedSince?: Date;
  /** Words that must all be in the contact's name or e-mail, or all in the document's title. */
  search?: string;
  /** The desk's views (not offered by the API): see DeskFilter. */
  desk?: DeskFilter;
}

/** What the adviser's desk narrows its lists by ("what needs me"), on top of the API's filters. */
export interface DeskFilter {
  /** Any of these statuses. */
  statuses?: SessionRequestStatus[];
  /** Made by this user. */
  createdBy?: string;
  /** Still open and ending before this moment. */
  expiringBefore?: Date;
  /** Completed since this moment. */
  completedSince?: Date;
  /** Closed (declined, withdrawn, expired) since this moment. */
  closedSince?: Date;
  /** An invitation or reminder that could not be delivered (its job failed). */
  failedDelivery?: boolean;
}

function deskWhere(ctx: RequestContext, d: DeskFilter | undefined): SQL | undefined {
  if (!d) return undefined;
  return and(
    d.statuses ? inArray(sessionRequests.status, d.statuses) : undefined,
    d.createdBy ? eq(sessionRequests.createdBy, d.createdBy) : undefined,
    d.expiringBefore
      ? and(
          inArray(sessionRequests.status, [...openStatuses]),
          lt(sessionRequests.expiresAt, d.expiringBefore),
        )
      : undefined,
    d.completedSince ? gte(sessionRequests.completedAt, d.completedSince) : undefined,
    d.closedSince ? gte(sessionRequests.closedAt, d.closedSince) : undefined,
    d.failedDelivery
      ? sql`EXISTS (SELECT 1 FROM jobs j WHERE j.organisation_id = ${ctx.organisationId}::uuid
              AND j.subject_id = ${sessionRequests.id} AND j.kind = 'notification' AND j.status = 'failed')`
      : undefined,
  );
}

export const eventFromRaw = rowMapper(sessionRequestEvents);
export const jobFromRaw = rowMapper(jobs);

function whereOf(ctx: RequestContext, f: SessionRequestFilter): SQL | undefined {
  return and(
    eq(sessionRequests.organisationId, ctx.organisationId),
    f.status ? eq(sessionRequests.status, f.status) : undefined,
    f.customerId ? eq(sessionRequests.customerId, f.customerId) : undefined,
    f.type ? eq(sessionRequests.type, f.type) : undefined,
    f.updatedSince ? gte(sessionRequests.updatedAt, f.updatedSince) : undefined,
    searchOf(ctx, f.search),
    deskWhere(ctx, f.desk),
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

/**
 * Read-batch statements (see batchInTenant); rows come back raw and go through sessionRequestFromRaw.
 * `q` only builds them (any query builder will do): the batch runs them in the tenant's transaction.
 */
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
     * message goes to a signer), organisation and adviser — the person who made it, never an
     * integration's service account (a CRM's key): the message then speaks for the organisation —
     * and its templates' names, in the action's order (a template since deleted is left out).
     */
    forMessage(id: string, signerId: string | null = null): SQL {
      // CASE, not coalesce(…): row-level security lets only the first be an index condition.
      return sql`SELECT s.*, (SELECT c.data FROM customers c
                               WHERE c.organisation_id = s.organisation_id
                                 AND c.id = CASE WHEN g.customer_id IS NULL THEN s.customer_id
                                                 ELSE g.customer_id END) AS customer_data,
                        o.name AS organisation_name, u.name AS adviser_name,
                        (SELECT json_agg(l.name ORDER BY array_position(s.question_list_ids, l.id))
                           FROM question_lists l
                          WHERE l.organisation_id = s.organisation_id
                            AND l.id = ANY (s.question_list_ids)) AS template_names,
                        g.id AS signer_id, g.code AS signer_code, g.status AS signer_status,
                        g.position AS signer_position
          FROM session_requests s
          JOIN organisations o ON o.id = s.organisation_id
          LEFT JOIN signers g ON g.organisation_id = s.organisation_id AND g.session_request_id = s.id
                              AND g.id = ${signerId}::uuid
          LEFT JOIN users u ON u.organisation_id = s.organisation_id AND u.id = s.created_by
                           AND u.kind = 'staff'
         WHERE s.organisation_id = ${ctx.organisationId} AND s.id = ${id}::uuid`;
    },
  };
}

/** Reads a `forMessage` row; `names`: what the action is about, by name (its document, else its templates). */
export function messageFactsFromRaw(raw: Record<string, unknown>) {
  const row = sessionRequestFromRaw(raw);
  return {
    row,
    names: row.document ? [row.document.title] : ((raw.template_names as string[] | null) ?? []),
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
