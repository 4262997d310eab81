import { noticeWords } from '../../i18n/adviser-notices';
import { deskWords } from '../../i18n/desk';
import type { Language } from '../../i18n/languages';
import { staffWords } from '../../i18n/staff';
import { type Database, queryRows, type Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { EventFanOut } from '../../platform/events/fan-out';
import type { ClaimedJob, GiveUpHook, JobHandler } from '../../platform/jobs/job';
import { defineJob } from '../../platform/jobs/job-type';
import { messageKey, sendOnce } from '../../platform/jobs/sending';
import type { Clock } from '../../platform/kernel/clock';
import { type RequestContext, systemContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import { z } from '../../platform/kernel/zod';
import type { Mailer } from '../../platform/outbound/mail';
import { mailLayout } from '../../platform/outbound/mail-layout';
import { contactById, contactEmail, contactLabel, contactPhone } from '../customers';
import { organisationName, userById } from '../organisations';
import {
  adviserFanOut,
  digestStatement,
  NOT_DELIVERED,
  NOTICE_EVENTS,
  type NoticeRow,
  notDeliveredStatement,
  undeliveredStatement,
} from './adviser-notices.repository';
import { isSigningType } from './sessionrequests.lifecycle';
import { sessionRequestRepository } from './sessionrequests.repository';
import type { NotificationPayload } from './sessionrequests.view';

/**
 * One e-mail to the adviser who sent the action, about one of its events (NOTICE_EVENTS), or about one of
 * its messages that could not be delivered (NOT_DELIVERED: the notification job's id).
 */
export const adviserNoticeJob = defineJob({
  kind: 'adviser-notice',
  payload: z.strictObject({ type: z.string(), userId: z.string(), notificationId: z.string().optional() }),
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
/** Longest reason quoted from a failed delivery (an SMTP reply, a provider's answer). */
const REASON_CHARS = 200;

/** What a notice says of `r` in `lang`: its subject and its sentence. */
function wording(lang: Language, r: NoticeRow): { subject: string; sentence: string } {
  const w = noticeWords[lang];
  const what = r.title ?? staffWords[lang].kinds[r.type as 'qlist'];
  const who = r.contact_data ? contactLabel(r.contact_data) : deskWords[lang].actions.campaign;
  if (r.status !== 'notDelivered') {
    // On a signing action, completed is "everyone signed".
    const kind = r.status === 'completed' && isSigningType(r.type) ? 'allSigned' : r.status;
    return { subject: w.subject[kind](what, who), sentence: w.sentence[kind](what, who) };
  }
  const channel = r.channel === 'sms' ? 'sms' : 'email';
  const address = r.contact_data && (channel === 'sms' ? contactPhone : contactEmail)(r.contact_data);
  const to = address && address !== who ? `${who} (${address})` : who;
  const reason = (r.reason ?? '').replace(/\s+/g, ' ').trim();
  const message = {
    purpose: r.purpose ?? 'invitation',
    channel,
    reason: reason.length > REASON_CHARS ? `${reason.slice(0, REASON_CHARS - 1)}…` : reason,
  } as const;
  return { subject: w.notDelivered.subject(what, who), sentence: w.notDelivered.sentence(what, to, message) };
}

/** What an adviser's notice is about, read as the digest reads it; null when it is gone. */
async function noticeRowOf(
  tx: Tx,
  ctx: RequestContext,
  job: ClaimedJob<z.output<typeof adviserNoticeJob.payload>>,
): Promise<NoticeRow | null> {
  const { type, notificationId } = job.payload;
  if (type === NOT_DELIVERED) {
    if (!notificationId || !isId(notificationId)) return null;
    const [row] = await queryRows<NoticeRow>(tx, undeliveredStatement(ctx, notificationId));
    return row ?? null;
  }
  const status = NOTICE_EVENTS[type];
  const action = status ? await sessionRequestRepository(tx, ctx).find(job.subjectId ?? '') : undefined;
  if (!status || !action) return null;
  const contact = action.customerId ? await contactById(tx, ctx, action.customerId) : undefined;
  return {
    id: action.id,
    type: action.type,
    status,
    title: action.document?.title ?? null,
    contact_data: contact?.data ?? null,
    channel: null,
    purpose: null,
    reason: null,
  };
}

/**
 * E-mails the adviser who sent the action that it completed (everyone signed), was declined or expired,
 * or that one of its messages could not be delivered, in their language: the sentence and a button to
 * the action's page. Not sent when they chose otherwise since, or left.
 */
export function adviserNoticeHandler(
  deps: AdviserNoticeDeps,
): JobHandler<z.output<typeof adviserNoticeJob.payload>> {
  return async (job) => {
    const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
    const facts = await inTenant(deps.database, ctx, async (tx) => {
      const user = await userById(tx, ctx, job.payload.userId);
      if (user?.status !== 'active' || user.notify !== 'each') return null;
      const row = await noticeRowOf(tx, ctx, job);
      return row ? { user, row, organisation: await organisationName(tx, ctx) } : null;
    });
    if (!facts) return undefined;
    const lang = facts.user.language ?? 'en';
    const said = wording(lang, facts.row);
    const body = mailLayout({
      language: lang,
      from: facts.organisation,
      preview: said.sentence,
      paragraphs: [said.sentence],
      button: { label: noticeWords[lang].open, url: `${deps.baseUrl}/staff/actions/${facts.row.id}` },
      footer: noticeWords[lang].why,
    });
    await sendOnce(deps, job, () =>
      deps.mailer.send({ key: messageKey(job), to: facts.user.email, subject: said.subject, ...body }),
    );
    return undefined;
  };
}

/**
 * The adviser's daily digest: every action they sent that completed, was declined or expired in the
 * 24 hours before it runs, and every message of theirs that could not be delivered then, one sentence
 * each, in one e-mail. Nothing is sent when nothing happened or they chose otherwise since.
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
    const lines = facts.rows.map(
      (r) => `• ${wording(lang, r).sentence}\n  ${deps.baseUrl}/staff/actions/${r.id}`,
    );
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

const noticeJobs = { notice: adviserNoticeJob, digest: adviserDigestJob };

/** The advisers' notices as recorded events fan out to them (the digest's hour in `timeZone`). */
export const adviserNotices = (timeZone: string): EventFanOut => adviserFanOut(noticeJobs, timeZone);

/**
 * The notification job's give-up hook: its sender hears, as they chose, that the invitation, reminder or
 * open-again notice could not be delivered, in the transaction that records its failure.
 */
export const notDeliveredNotice =
  (timeZone: string): GiveUpHook<NotificationPayload> =>
  async (tx, ctx, job) => {
    if (!job.subjectId) return;
    const notification = { id: job.id, actionId: job.subjectId };
    await queryRows(tx, notDeliveredStatement(ctx, notification, noticeJobs, timeZone));
  };
