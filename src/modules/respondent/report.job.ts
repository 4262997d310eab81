import { Readable } from 'node:stream';
import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { FileStorage } from '../../platform/files/storage';
import type { JobHandler } from '../../platform/jobs/job';
import { defineJob } from '../../platform/jobs/job-type';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import type { Clock } from '../../platform/kernel/clock';
import { type RequestContext, systemContext } from '../../platform/kernel/context';
import { newId } from '../../platform/kernel/ids';
import { z } from '../../platform/kernel/zod';
import { filePagesJob, recordGeneratedPdf } from '../files';
import { Language } from '../questionlists';
import {
  actionById,
  completeSessionRequest,
  inviteSigners,
  isOpen,
  recordActionEvents,
  type SessionRequestRow,
} from '../sessionrequests';
import { renderReport, sessionById, setSessionDocuments } from '../sessions';

/**
 * Renders the PDF report of one submitted version of a session. Its input is computed when the contact
 * submits (the questions as they saw them, in their language), so the job needs nothing else.
 */
export const sessionReportJob = defineJob({
  kind: 'session-report',
  payload: z.strictObject({
    sessionId: z.string(),
    version: z.number().int(),
    language: Language,
    organisation: z.string(),
    contact: z.string().nullable(),
    templates: z.array(z.string()),
    submittedAt: z.string(),
    fileName: z.string(),
    sections: z.array(
      z.strictObject({
        title: z.string(),
        items: z.array(z.strictObject({ question: z.string(), answer: z.string() })),
      }),
    ),
  }),
  maxAttempts: 10,
  timeoutMs: 120_000,
});

export type ReportPayload = z.output<typeof sessionReportJob.payload>;

export interface ReportDeps {
  database: Database;
  clock: Clock;
  storage: FileStorage;
  timeZone: string;
  baseUrl: string;
}

/**
 * Makes the report outside any lock, stores it, then in one transaction (holding the action's row lock
 * only there) records the file, fills in the session's documents and records `session.submitted` with
 * them. Then: a questionnaire action completes; a multisigning action's other signers are invited to sign
 * it (in parallel order); a campaign stays open. A report for a version that is no longer the latest
 * (a resubmission came in between) is dropped.
 */
export function sessionReportHandler(deps: ReportDeps): JobHandler<ReportPayload> {
  return async (job) => {
    const p = job.payload;
    const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
    const current = await inTenant(deps.database, ctx, (tx) => sessionById(tx, ctx, p.sessionId));
    if (!current || current.version !== p.version || !current.documentsPending)
      return { cancelled: 'a later submission replaced this one, or its documents are made' };
    const pdf = await renderReport({
      organisation: p.organisation,
      contact: p.contact,
      templates: p.templates,
      submittedAt: new Date(p.submittedAt),
      language: p.language,
      timeZone: deps.timeZone,
      sections: p.sections,
    });
    const now = deps.clock.now();
    const fileId = newId(now.getTime());
    const storageKey = `${ctx.organisationId}/${fileId}`;
    const written = await deps.storage.put(storageKey, Readable.from([pdf]));
    try {
      const outcome = await inTenant(deps.database, ctx, async (tx) => {
        const action = await actionById(tx, ctx, current.sessionRequestId, {
          forUpdate: true,
        });
        const session = await sessionById(tx, ctx, p.sessionId);
        if (!action || !session || session.version !== p.version || !session.documentsPending) return 'stale';
        const document = await recordGeneratedPdf(tx, ctx, {
          id: fileId,
          fileName: p.fileName,
          storageKey,
          written,
          at: now,
        });
        await setSessionDocuments(tx, ctx, session, [document], now);
        // A multisigning report is signed next: its pages are drawn ahead, for its signers not to wait.
        if (action.type === 'multisigning' && isOpen(action.status))
          await jobRepository(tx, ctx).enqueue(
            [filePagesJob.job({ subjectId: action.id, payload: { fileId }, runAt: now })],
            now,
          );
        await recordActionEvents(deps, tx, ctx, action.id, ['session.submitted'], session.id);
        await afterReport(deps, tx, ctx, action, session.visitorId !== null);
        return 'done';
      });
      if (outcome === 'stale') {
        await deps.storage.remove(storageKey);
        return { cancelled: 'a later submission replaced this one' };
      }
      return undefined;
    } catch (err) {
      await deps.storage.remove(storageKey).catch(() => undefined);
      throw err;
    }
  };
}

async function afterReport(
  deps: ReportDeps,
  tx: Tx,
  ctx: RequestContext,
  action: SessionRequestRow,
  visitor: boolean,
): Promise<void> {
  if (visitor || !isOpen(action.status)) return;
  if (action.type === 'qlist') await completeSessionRequest(deps, tx, ctx, action.id, SYSTEM);
  else if (action.type === 'multisigning') await inviteSigners(deps, tx, ctx, action, 'report-ready');
}

const SYSTEM = { actor: 'system', userId: null } as const;
