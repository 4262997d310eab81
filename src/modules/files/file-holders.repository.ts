import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { files } from '../../db/schema';
import { type Queryable, queryRows, type Tx, uuidArray } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import type { FileRow } from './files.repository';

/** What holds a file: the first `limit` of each kind (oldest first) and how many there are. */
export interface FileHolders {
  sessionRequests: { total: number; ids: string[] };
  sessions: {
    total: number;
    list: { id: string; sessionRequestId: string; campaignVisitor: boolean }[];
  };
}

/*
 * Actions and sessions refer to files from JSONB (session_requests.document, sessions.documents,
 * session_versions.documents), where PostgreSQL has no foreign keys: the statements below are the one
 * place that knows every such reference, and play the part of the missing ON DELETE rules.
 */

/** A JSONB array of `{fileId, …}` listing the file (`fileId`: a text expression). */
const listsFile = (column: SQL, fileId: SQL) =>
  sql`${column} @> jsonb_build_array(jsonb_build_object('fileId', ${fileId}))`;

/** The session `s` lists the file in its documents, now or in an earlier version. */
const sessionHolds = (fileId: SQL) => sql`(${listsFile(sql`s.documents`, fileId)} OR EXISTS (
  SELECT 1 FROM session_versions v
   WHERE v.organisation_id = s.organisation_id AND v.session_id = s.id
     AND ${listsFile(sql`v.documents`, fileId)}))`;

const text = (value: string) => sql`${value}::text`;

/** The files listed by the sessions matching `which` (alias `s`), in every version: their reports. */
async function documentIds(q: Queryable, orgId: SQL, which: SQL): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    q,
    sql`SELECT DISTINCT d->>'fileId' AS id
          FROM sessions s
          CROSS JOIN LATERAL (
            SELECT jsonb_array_elements(s.documents)
            UNION ALL
            SELECT jsonb_array_elements(v.documents) FROM session_versions v
             WHERE v.organisation_id = s.organisation_id AND v.session_id = s.id) AS docs(d)
         WHERE s.organisation_id = ${orgId} AND ${which} AND d->>'fileId' IS NOT NULL`,
  );
  return rows.map((r) => r.id).filter(isId);
}

/**
 * What holds the organisation's files (the actions and sessions referring to them, their reports), and
 * the delete that spares a file something still holds.
 */
export function fileHolderRepository(q: Tx, ctx: RequestContext) {
  const org = eq(files.organisationId, ctx.organisationId);
  const orgId = sql`${ctx.organisationId}::uuid`;
  return {
    /** The actions using the file as their document and the sessions listing it, in one statement. */
    async holders(fileId: string, limit: number): Promise<FileHolders> {
      const [row] = await queryRows<{
        actions_total: string;
        actions: string[] | null;
        sessions_total: string;
        sessions: { id: string; sessionRequestId: string; campaignVisitor: boolean }[] | null;
      }>(
        q,
        sql`WITH a AS (
              SELECT r.id, r.created_at FROM session_requests r
               WHERE r.organisation_id = ${orgId} AND r.document->>'fileId' = ${fileId}::text),
            s AS (
              SELECT s.id, s.session_request_id, s.visitor_id, s.created_at FROM sessions s
               WHERE s.organisation_id = ${orgId} AND ${sessionHolds(text(fileId))})
            SELECT
              (SELECT count(*) FROM a) AS actions_total,
              (SELECT json_agg(x.id ORDER BY x.created_at, x.id)
                 FROM (SELECT * FROM a ORDER BY created_at, id LIMIT ${limit}) x) AS actions,
              (SELECT count(*) FROM s) AS sessions_total,
              (SELECT json_agg(json_build_object('id', x.id, 'sessionRequestId', x.session_request_id,
                                                 'campaignVisitor', x.visitor_id IS NOT NULL)
                               ORDER BY x.created_at, x.id)
                 FROM (SELECT * FROM s ORDER BY created_at, id LIMIT ${limit}) x) AS sessions`,
      );
      return {
        sessionRequests: { total: Number(row?.actions_total ?? 0), ids: row?.actions ?? [] },
        sessions: { total: Number(row?.sessions_total ?? 0), list: row?.sessions ?? [] },
      };
    },
    /**
     * Every action holding the file: as its document, or through its own session (any version). A
     * campaign visitor's session does not make its campaign a holder (see holdingVisitorIds).
     */
    async holdingActionIds(fileId: string): Promise<string[]> {
      const rows = await queryRows<{ id: string }>(
        q,
        sql`SELECT r.id FROM session_requests r
             WHERE r.organisation_id = ${orgId}
               AND (r.document->>'fileId' = ${fileId}::text OR EXISTS (
                    SELECT 1 FROM sessions s
                     WHERE s.organisation_id = r.organisation_id AND s.session_request_id = r.id
                       AND s.visitor_id IS NULL
                       AND ${sessionHolds(text(fileId))}))`,
      );
      return rows.map((r) => r.id);
    },
    /** The campaign visitors whose session (any version) lists the file. */
    async holdingVisitorIds(fileId: string): Promise<string[]> {
      const rows = await queryRows<{ id: string }>(
        q,
        sql`SELECT s.visitor_id AS id FROM sessions s
             WHERE s.organisation_id = ${orgId} AND s.visitor_id IS NOT NULL
               AND ${sessionHolds(text(fileId))}`,
      );
      return rows.map((r) => r.id);
    },
    /** The files listed by the sessions (every version) of these campaign visitors: their reports. */
    async visitorDocumentIds(visitorIds: string[]): Promise<string[]> {
      if (visitorIds.length === 0) return [];
      return documentIds(q, orgId, sql`s.visitor_id = ANY(${uuidArray(visitorIds)})`);
    },
    /** The files listed by the sessions (every version) of these actions: their reports. */
    async sessionDocumentIds(sessionRequestIds: string[]): Promise<string[]> {
      if (sessionRequestIds.length === 0) return [];
      return documentIds(q, orgId, sql`s.session_request_id = ANY(${uuidArray(sessionRequestIds)})`);
    },
    /** The files listed by the sessions (every version) a contact submitted, campaigns included. */
    async contactDocumentIds(customerId: string): Promise<string[]> {
      return documentIds(
        q,
        orgId,
        sql`(s.customer_id = ${customerId}::uuid
                    OR s.session_request_id IN (SELECT r.id FROM session_requests r
                                                 WHERE r.organisation_id = ${orgId}
                                                   AND r.customer_id = ${customerId}::uuid)
                    OR s.session_request_id IN (SELECT g.session_request_id FROM signers g
                                                 WHERE g.organisation_id = ${orgId}
                                                   AND g.customer_id = ${customerId}::uuid)
                    OR s.visitor_id IN (SELECT cv.id FROM campaign_visitors cv
                                         WHERE cv.organisation_id = ${orgId}
                                           AND cv.customer_id = ${customerId}::uuid))`,
      );
    },
    /** Deletes those of these files that nothing holds any more; answers the deleted records. */
    async removeUnheld(ids: string[]): Promise<FileRow[]> {
      const valid = ids.filter(isId);
      if (valid.length === 0) return [];
      return q
        .delete(files)
        .where(
          and(
            org,
            inArray(files.id, valid),
            sql`NOT EXISTS (SELECT 1 FROM session_requests r
                             WHERE r.organisation_id = ${files.organisationId}
                               AND r.document->>'fileId' = ${files.id}::text)`,
            sql`NOT EXISTS (SELECT 1 FROM sessions s
                             WHERE s.organisation_id = ${files.organisationId}
                               AND ${sessionHolds(sql`${files.id}::text`)})`,
          ),
        )
        .returning();
    },
  };
}
