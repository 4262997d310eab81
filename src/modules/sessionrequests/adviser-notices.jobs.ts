import { type NoticeKind, noticeWords } from '../../i18n/adviser-notices';
import { deskWords } from '../../i18n/desk';
import { staffWords } from '../../i18n/staff';
import { type Database, queryRows } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { EventFanOut } from '../../platform/events/fan-out';
import type { JobHandler } from '../../platform/jobs/job';
import { defineJob } from '../../platform/jobs/job-type';
import { messageKey, sendOnce } from '../../platform/jobs/sending';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { z } from '../../platform/kernel/zod';
import type { Mailer } from '../../platform/outbound/mail';
import { mailLayout } from '../../platform/outbound/mail-layout';
import { contactById, contactLabel } from '../customers';
import { organisationName, userById } from '../organisations';
import { adviserFanOut, digestStatement, NOTICE_EVENTS, type NoticeRow } from './adviser-notices.repository';
import { isSigningType } from './sessionrequests.lifecycle';
import { sessionRequestRepository } from './sessionrequests.repository';

/** One e-mail to the adviser who sent the action, about one of its events (NOTICE_EVENTS). */
export const adviserNoticeJob = defineJob({
  kind: 'adviser-notice',
  payload: z.strictObject({ type: z.string(), userId: z.string() }),
  maxAttempts: 8,
});

/** The adviser's daily digest (subject: the user): what their actions did since the last one. */
export const adviserDigestJob = defineJob({
  kind: 'adviser-digest',
  payload: z.strictObject({}),
  maxAttempts: 8,
});

export interface AdviserNoticeDeps {
  database: Database;
  clock: Clock;
  mailer: Mailer;
  baseUrl: string;
}

const DAY = 86_400_000;

/** What happened, as the notice words it: the status the action is in, on a signing action "everyone signed". */
function kindOf(status: 'completed' | 'declined' | 'expired', type: string): NoticeKind {
  return status === 'completed' && isSigningType(type) ? 'allSigned' : status;
}

/**
 * E-mails the adviser who sent the action that it completed (everyone signed), was declined or expired,
 * in their language: the sentence and a button to the action's page. Not sent when they chose otherwise
 * since, or left.
 */
export function adviserNoticeHandler(
  deps: AdviserNoticeDeps,
): JobHandler<z.output<typeof adviserNoticeJob.payload>> {
  return async (job) => {
    const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
    const facts = await inTenant(deps.database, ctx, async (tx) => {
      const user = await userById(tx, ctx, job.payload.userId);
      const action = await sessionRequestRepository(tx, ctx).find(job.subjectId ?? '');
      if (user?.status !== 'active' || user.notify !== 'each' || !action) return null;
      const contact = action.customerId ? await contactById(tx, ctx, action.customerId) : undefined;
      return { user, action, contact, organisation: await organisationName(tx, ctx) };
    });
    const status = NOTICE_EVENTS[job.payload.type];
    if (!facts || !status) return undefined;
    const lang = facts.user.language ?? 'en';
    const w = noticeWords[lang];
    const kind = kindOf(status, facts.action.type);
    const what = facts.action.document?.title ?? staffWords[lang].kinds[facts.action.type];
    const who = facts.contact ? contactLabel(facts.contact.data) : deskWords[lang].actions.campaign;
    const url = `${deps.baseUrl}/staff/actions/${facts.action.id}`;
    const body = mailLayout({
      language: lang,
      from: facts.organisation,
      preview: w.sentence[kind](what, who),
      paragraphs: [w.sentence[kind](what, who)],
      button: { label: w.open, url },
      footer: w.why,
    });
    await sendOnce(deps, job, () =>
      deps.mailer.send({
        key: messageKey(job),
        to: facts.user.email,
        subject: w.subject[kind](what, who),
        ...body,
      }),
    );
    return undefined;
  };
}

/**
 * The adviser's daily digest: every action they sent that completed, was declined or expired in the
 * 24 hours before it runs, one sentence each, in one e-mail. Nothing is sent when nothing happened or
 * they chose otherwise since.
 */
export function adviserDigestHandler(
  deps: AdviserNoticeDeps,
): JobHandler<z.output<typeof adviserDigestJob.payload>> {
  return async (job) => {
    const now = deps.clock.now();
    const ctx = systemContext(job.organisationId, now, job.kind);
    const facts = await inTenant(deps.database, ctx, async (tx) => {
      const user = await userById(tx, ctx, job.subjectId ?? '');
      if (user?.status !== 'active' || user.notify !== 'digest') return null;
      const rows = await queryRows<NoticeRow>(
        tx,
        digestStatement(ctx, user.id, new Date(now.getTime() - DAY), new Date(now.getTime() + 1)),
      );
      return { user, rows, organisation: await organisationName(tx, ctx) };
    });
    if (!facts || facts.rows.length === 0) return undefined;
    const lang = facts.user.language ?? 'en';
    const w = noticeWords[lang];
    const lines = facts.rows.map((r) => {
      const kind = kindOf(r.status, r.type);
      const what = r.title ?? staffWords[lang].kinds[r.type as 'qlist'];
      const who = r.contact_data ? contactLabel(r.contact_data) : deskWords[lang].actions.campaign;
      return `• ${w.sentence[kind](what, who)}\n  ${deps.baseUrl}/staff/actions/${r.id}`;
    });
    const body = mailLayout({
      language: lang,
      from: facts.organisation,
      preview: w.digestIntro,
      paragraphs: [w.digestIntro, lines.join('\n')],
      button: { label: w.openDesk, url: `${deps.baseUrl}/staff` },
      footer: w.why,
    });
    await sendOnce(deps, job, () =>
      deps.mailer.send({
        key: messageKey(job),
        to: facts.user.email,
        subject: w.digestSubject(lines.length),
        ...body,
      }),
    );
    return undefined;
  };
}

/** The advisers' notices as recorded events fan out to them (the digest's hour in `timeZone`). */
export const adviserNotices = (timeZone: string): EventFanOut =>
  adviserFanOut({ notice: adviserNoticeJob, digest: adviserDigestJob }, timeZone);
