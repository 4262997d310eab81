import { longDateTime } from '../../i18n/dates';
import { sealExpiryTexts } from '../../i18n/seal-expiry';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { JobHandler } from '../../platform/jobs/job';
import { defineJob } from '../../platform/jobs/job-type';
import { messageKey, sendOnce } from '../../platform/jobs/sending';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { z } from '../../platform/kernel/zod';
import type { Mailer } from '../../platform/outbound/mail';
import { textParagraphs } from '../../platform/web/html';
import { organisationName } from './organisations.service';
import { organisationSealRepository } from './seal.repository';
import { administrators } from './users.service';

/** E-mails the administrators that the organisation's own seal expires soon (planned when it is set). */
export const sealExpiryJob = defineJob({
  kind: 'seal-expiry',
  payload: z.strictObject({ fingerprint: z.string() }),
  maxAttempts: 10,
  timeoutMs: 60_000,
});

export function sealExpiryHandler(deps: {
  database: Database;
  clock: Clock;
  mailer: Mailer;
  baseUrl: string;
  timeZone: string;
}): JobHandler<z.output<typeof sealExpiryJob.payload>> {
  return async (job) => {
    const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
    const found = await inTenant(deps.database, ctx, async (tx) => ({
      seal: await organisationSealRepository(tx, ctx).find(),
      to: await administrators(tx, ctx),
      organisation: await organisationName(tx, ctx),
    }));
    const { seal } = found;
    if (!seal || seal.fingerprint !== job.payload.fingerprint) return { cancelled: 'the seal was replaced' };
    if (seal.expiryWarnedAt) return { cancelled: 'the administrators were warned already' };
    if (found.to.length === 0) return { cancelled: 'the organisation has no active administrator' };
    const now = deps.clock.now();
    const days = Math.max(0, Math.floor((seal.notAfter.getTime() - now.getTime()) / 86_400_000));
    const url = `${deps.baseUrl}/api/v1/admin/organisation/seal`;
    await sendOnce(deps, job, async () => {
      for (const admin of found.to) {
        const language = admin.language ?? 'en';
        const texts = sealExpiryTexts[language];
        const expires = longDateTime(seal.notAfter, language, deps.timeZone);
        const mail = {
          subject: texts.subject(found.organisation, days),
          text: texts.text(found.organisation, seal.subject, expires, url),
        };
        const html = textParagraphs(mail.text);
        await deps.mailer.send({ key: messageKey(job, admin.email), to: admin.email, ...mail, html });
      }
    });
    await inTenant(deps.database, ctx, (tx) => organisationSealRepository(tx, ctx).markWarned(now));
    return undefined;
  };
}
