import type { Database } from '../../platform/db/database';
import { batchInTenant, inTenant } from '../../platform/db/tenant';
import { type ClaimedJob, type JobHandler, PermanentJobError } from '../../platform/jobs/job';
import { messageKey, sendOnce } from '../../platform/jobs/sending';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import type { Mailer } from '../../platform/outbound/mail';
import { smsNumber } from '../../platform/outbound/phone';
import type { SmsSender } from '../../platform/outbound/sms';
import { contactEmail, contactFirstName, contactPhone } from '../customers';
import { brandRead, messageBrand } from '../organisations';
import { messageFactsFromRaw, sessionRequestStatements } from './action-reads.repository';
import { composeMessage } from './messages';
import { isOpen } from './sessionrequests.lifecycle';
import { sessionRequestRepository } from './sessionrequests.repository';
import { settleExpiry } from './sessionrequests.transitions';
import type { NotificationPayload } from './sessionrequests.view';

export interface NotificationDeps {
  database: Database;
  clock: Clock;
  baseUrl: string;
  timeZone: string;
  /** Region in which a phone number without a country code is read. */
  phoneRegion: string;
  mailer: Mailer;
  sms: SmsSender;
}

/**
 * Reads what the message needs in one round trip, in the job's organisation: the action's facts and the
 * organisation's brand; null when the action is gone.
 */
async function loadForMessage(deps: NotificationDeps, job: ClaimedJob, signerId: string | null) {
  const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
  if (!job.subjectId || !isId(job.subjectId) || (signerId !== null && !isId(signerId))) return null;
  const [[raw] = [], brand] = await batchInTenant(deps.database, ctx, [
    sessionRequestStatements(deps.database.db, ctx).forMessage(job.subjectId, signerId),
    brandRead.statement(ctx),
  ]);
  if (!raw) return null;
  return { ...messageFactsFromRaw(raw), brand: messageBrand(brandRead.of(ctx, brand), deps.baseUrl) };
}

/**
 * Sends one invitation, reminder or reopening message. The action is re-read first: a message for an
 * action that was completed, withdrawn or expired in the meantime is cancelled, not sent. The message
 * is composed at sending time, so it carries the contact's current address and name.
 */
export function notificationHandler(deps: NotificationDeps): JobHandler<NotificationPayload> {
  return async (job) => {
    const payload = job.payload;
    const found = await loadForMessage(deps, job, payload.signerId ?? null);
    if (!found) return { cancelled: 'the action no longer exists' };
    const { row, customer, signer, brand } = found;
    if (payload.signerId && !signer) return { cancelled: 'the signer no longer exists' };
    if (signer && signer.status !== 'pending') return { cancelled: `the signer has ${signer.status}` };
    if (!isOpen(row.status)) return { cancelled: `the action is ${row.status}` };
    if (row.expiresAt && row.expiresAt <= deps.clock.now()) return { cancelled: 'the action has expired' };
    if (!customer) throw new PermanentJobError('the action has no contact to send to');
    const message = composeMessage({
      language: row.language,
      purpose: payload.purpose,
      kind:
        row.type === 'quicksign' || (signer && signer.position > 0)
          ? 'signature'
          : row.type === 'multisigning'
            ? 'questionnaireAndSignature'
            : 'questionnaire',
      organisation: brand.from,
      adviser: found.adviser,
      firstName: contactFirstName(customer),
      names: found.names,
      message: row.message,
      url: `${deps.baseUrl}/action/${signer?.code ?? row.code}`,
      expiresAt: row.expiresAt,
      timeZone: deps.timeZone,
      look: brand.look,
    });
    const key = messageKey(job);
    if (payload.channel === 'email') {
      const to = contactEmail(customer);
      if (!to) throw new PermanentJobError('the contact has no e-mail address (data.Email)');
      await sendOnce(deps, job, () =>
        deps.mailer.send({
          key,
          to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          sender: brand.sender,
        }),
      );
    } else {
      const phone = contactPhone(customer);
      if (!phone) throw new PermanentJobError('the contact has no phone number (data.Telefoon)');
      const to = smsNumber(phone, deps.phoneRegion);
      if ('problem' in to)
        throw new PermanentJobError(`the contact’s phone number (data.Telefoon) ${to.problem}`);
      await sendOnce(deps, job, () =>
        deps.sms.send({ key, to: to.number, text: message.sms, from: brand.smsFrom }),
      );
    }
    return undefined;
  };
}

/** Expires an action whose expiry has come; a job for an expiry that moved or no longer applies is cancelled. */
export function expiryHandler(deps: {
  database: Database;
  clock: Clock;
  baseUrl: string;
}): JobHandler<Record<string, never>> {
  return async (job) => {
    const now = deps.clock.now();
    const ctx = systemContext(job.organisationId, now, job.kind);
    return inTenant(deps.database, ctx, async (tx) => {
      const row = await sessionRequestRepository(tx, ctx).find(job.subjectId ?? '', { forUpdate: true });
      if (!row) return { cancelled: 'the action no longer exists' };
      if (!row.expiresAt || row.expiresAt > now) return { cancelled: 'the expiry moved' };
      if (!isOpen(row.status)) return { cancelled: `the action is ${row.status}` };
      await settleExpiry(deps, tx, ctx, row);
      return undefined;
    });
  };
}
