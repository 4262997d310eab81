import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { RunningJob } from '../../platform/jobs/running';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { newId } from '../../platform/kernel/ids';
import type { OutboundCapture } from '../../platform/outbound/capture';
import { modeOf } from '../organisations';
import { type Captured, keepIfTest } from './testmode.repository';

/** The addresses in a message's text, in order, each once. */
export function linksIn(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"')]+/g) ?? [])].map((l) => l.replace(/[.,;:]+$/, ''));
}

/** The one-time code of a code message (six digits), else null. */
function codeIn(job: RunningJob, text: string): string | null {
  return job.kind === 'signing-code' ? (/\b(\d{6})\b/.exec(text)?.[1] ?? null) : null;
}

/**
 * The test inbox's door (platform/outbound/capture.ts): a message of a test organisation's job is kept
 * in its test_messages, in a transaction of its own in that organisation; a live organisation's goes
 * out (modeOf asks once per organisation; the insert checks the organisation again).
 */
export function testInboxCapture(deps: { database: Database; clock: Clock }): OutboundCapture {
  const keep = async (
    job: RunningJob,
    m: Omit<Captured, 'id' | 'jobId' | 'jobKind' | 'subjectId' | 'createdAt'>,
  ) => {
    if ((await modeOf(deps.database, job.organisationId)) === 'live') return false;
    const now = deps.clock.now();
    const ctx = systemContext(job.organisationId, now, 'test inbox');
    return inTenant(deps.database, ctx, (tx) =>
      keepIfTest(tx, {
        ...m,
        id: newId(now.getTime()),
        jobId: job.id,
        jobKind: job.kind,
        subjectId: job.subjectId,
        createdAt: now,
      }),
    );
  };
  return {
    mail: (job, m) =>
      keep(job, {
        channel: 'email',
        to: m.to,
        sender: m.sender?.name ?? null,
        subject: m.subject,
        text: m.text,
        html: m.html,
        links: linksIn(m.text),
        code: codeIn(job, `${m.subject}\n${m.text}`),
        attachments: (m.attachments ?? []).map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          size: a.content.length,
        })),
      }),
    sms: (job, m) =>
      keep(job, {
        channel: 'sms',
        to: m.to,
        sender: m.from ?? null,
        subject: null,
        text: m.text,
        html: null,
        links: linksIn(m.text),
        code: codeIn(job, m.text),
        attachments: [],
      }),
  };
}
