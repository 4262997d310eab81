import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type SessionRequestStatus, sessionRequestEvents, sessionRequests } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import {
  deferWrite,
  type Queryable,
  queryRows,
  type Row,
  rowMapper,
  type Tx,
  uuidArray,
} from '../../platform/db/database';
import { slot, statementShapes } from '../../platform/db/statement-shape';
import { jobSlots, jobsInsertShape, type NewJob } from '../../platform/jobs/jobs.repository';
import type { RequestContext } from '../../platform/kernel/context';
import { isId, newId } from '../../platform/kernel/ids';

export type SessionRequestRow = RowOf<typeof sessionRequests>;
export type NewSessionRequest = Omit<SessionRequestRow, 'organisationId'>;

export const sessionRequestFromRaw = rowMapper(sessionRequests);

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

const createShapes = statementShapes();

/**
 * The create's statement (a statement shape): the action with `columns`, its first history entry and
 * `jobs` jobs, in one statement.
 */
function createStatement(q: Tx, columns: Array<keyof NewSessionRequest>, jobs: number): SQL {
  // The action's slots are named as its fields; the others' names have a dot or are not fields.
  const action: Record<string, unknown> = { organisationId: slot('org') };
  for (const column of columns) action[column] = slot(column);
  const insertAction = q.insert(sessionRequests).values(action as never);
  const insertEntry = q.insert(sessionRequestEvents).values({
    id: slot('entry.id'),
    organisationId: slot('org'),
    sessionRequestId: slot('id'),
    fromStatus: null,
    toStatus: slot('status'),
    actor: slot('entry.actor'),
    userId: slot('entry.user'),
    at: slot('at'),
  });
  const parts = [sql`a AS (${insertAction.getSQL()})`, sql`e AS (${insertEntry.getSQL()})`];
  if (jobs > 0) parts.push(sql`j AS (${jobsInsertShape(q, jobs)})`);
  return sql`WITH ${sql.join(parts, sql`, `)} SELECT 1`;
}

/** What creating an action checks in the stored records (see `prerequisitesStatement`). */
export interface Prerequisites {
  /** The contact's data; null when it is not a contact of the organisation. */
  customer: Record<string, string> | null;
  /** The named templates that exist in the organisation. */
  templates: TemplateFacts[];
}

/**
 * What creating an action checks, in one statement: the contact's data and the named templates that
 * exist in the organisation. Built before the transaction, to be sent with its opening (inTenantOpening).
 */
export function prerequisitesStatement(
  ctx: RequestContext,
  customerId: string | null,
  templateIds: string[],
): SQL {
  const ids = templateIds.filter(isId);
  return sql`SELECT
    (SELECT c.data FROM customers c WHERE c.organisation_id = ${ctx.organisationId} AND c.id = ${customerId && isId(customerId) ? customerId : null}::uuid) AS customer,
    (SELECT json_agg(json_build_object('id', l.id, 'active', l.active, 'version', l.version, 'supportedLanguages', l.supported_languages))
       FROM question_lists l WHERE l.organisation_id = ${ctx.organisationId} AND l.id = ANY(${uuidArray(ids)})) AS templates`;
}

/** The prerequisites statement's rows, read. */
export function prerequisitesOf(rows: Row[]): Prerequisites {
  const row = rows[0] as
    | { customer?: Prerequisites['customer']; templates?: TemplateFacts[] | null }
    | undefined;
  return { customer: row?.customer ?? null, templates: row?.templates ?? [] };
}

/** The organisation's actions: checks before creating one, creating, locking, moving and recording them. */
export function sessionRequestRepository(q: Tx, ctx: RequestContext) {
  const org = eq(sessionRequests.organisationId, ctx.organisationId);
  return {
    /** What creating an action checks (prerequisitesStatement), read in this transaction. */
    async prerequisites(customerId: string | null, templateIds: string[]): Promise<Prerequisites> {
      return prerequisitesOf(await queryRows<Row>(q, prerequisitesStatement(ctx, customerId, templateIds)));
    },
    /** Inserts the action, its first history entry and its jobs in one statement (deferred: deferWrite). */
    async create(row: NewSessionRequest, actor: Actor, newJobs: NewJob[]): Promise<SessionRequestRow> {
      // An undefined value is left to the column's default, as the query builder does.
      const columns = (Object.keys(row) as Array<keyof NewSessionRequest>).filter(
        (c) => row[c] !== undefined,
      );
      const shape = createShapes(`${columns.join(',')}|${newJobs.length}`, () =>
        createStatement(q, columns, newJobs.length),
      );
      const values: Record<string, unknown> = {
        ...row,
        ...jobSlots(newJobs, row.createdAt),
        org: ctx.organisationId,
        at: row.createdAt,
        'entry.id': newId(row.createdAt.getTime()),
        'entry.actor': actor.actor,
        'entry.user': actor.userId,
      };
      // Nothing of the answer is needed (only the database sets change_txid, which a row does not carry):
      // the statement waits for the commit's round trip.
      await deferWrite(q, shape(values));
      return { ...row, organisationId: ctx.organisationId };
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
    /** Moves an open action's expiry (test mode's fast-forward). */
    async moveExpiry(id: string, at: Date): Promise<void> {
      await q
        .update(sessionRequests)
        .set({ expiresAt: at, updatedAt: at })
        .where(and(org, eq(sessionRequests.id, id)));
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
