import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import { type CapturedAttachment, testMessages } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import { queryRows, type Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';

export type TestMessageRow = RowOf<typeof testMessages>;

/** A message the transaction's organisation would have sent, kept when it is a test organisation. */
export interface Captured {
  id: string;
  channel: 'email' | 'sms';
  jobId: string;
  jobKind: string;
  subjectId: string | null;
  to: string;
  sender: string | null;
  subject: string | null;
  text: string;
  html: string | null;
  links: string[];
  code: string | null;
  attachments: CapturedAttachment[];
  createdAt: Date;
}

/**
 * Keeps the message when the transaction's organisation is a test organisation, in one statement;
 * answers whether it did (false: a live organisation, whose messages are sent).
 */
export async function keepIfTest(tx: Tx, m: Captured): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO test_messages (id, organisation_id, channel, job_id, job_kind, subject_id, "to", sender,
                                   subject, text, html, links, code, attachments, created_at)
        SELECT ${m.id}::uuid, o.id, ${m.channel}, ${m.jobId}::uuid, ${m.jobKind}, ${m.subjectId}::uuid, ${m.to},
               ${m.sender}, ${m.subject}, ${m.text}, ${m.html},
               ${sql`ARRAY[${sql.join(
                 m.links.map((l) => sql`${l}`),
                 sql`, `,
               )}]::text[]`}, ${m.code}, ${JSON.stringify(m.attachments)}::jsonb, ${m.createdAt.toISOString()}::timestamptz
          FROM organisations o
         WHERE o.id = actiondesk_current_org() AND o.live_organisation_id IS NOT NULL
        RETURNING id`,
  );
  return rows.length === 1;
}

export interface MessageFilter {
  to?: string;
  channel?: 'email' | 'sms';
  subjectId?: string;
  after?: { at: Date; id: string };
}

export function testMessageRepository(q: Tx, ctx: RequestContext) {
  const org = eq(testMessages.organisationId, ctx.organisationId);
  return {
    /** Newest first; `limit + 1` rows (the caller knows whether more follow). */
    list(filter: MessageFilter, limit: number): Promise<TestMessageRow[]> {
      const after = filter.after;
      return q
        .select()
        .from(testMessages)
        .where(
          and(
            org,
            filter.to !== undefined ? eq(sql`lower(${testMessages.to})`, filter.to.toLowerCase()) : undefined,
            filter.channel !== undefined ? eq(testMessages.channel, filter.channel) : undefined,
            filter.subjectId !== undefined ? eq(testMessages.subjectId, filter.subjectId) : undefined,
            after
              ? or(
                  lt(testMessages.createdAt, after.at),
                  and(eq(testMessages.createdAt, after.at), lt(testMessages.id, after.id)),
                )
              : undefined,
          ),
        )
        .orderBy(desc(testMessages.createdAt), desc(testMessages.id))
        .limit(limit + 1);
    },
    async find(id: string): Promise<TestMessageRow | undefined> {
      const [row] = await q
        .select()
        .from(testMessages)
        .where(and(org, eq(testMessages.id, id)));
      return row;
    },
  };
}
