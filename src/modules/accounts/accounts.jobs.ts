import { utcMinute } from '../../i18n/dates';
import { passwordLinkTexts } from '../../i18n/password-link';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { JobHandler } from '../../platform/jobs/job';
import { defineJob } from '../../platform/jobs/job-type';
import { messageKey, sendOnce } from '../../platform/jobs/sending';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { z } from '../../platform/kernel/zod';
import type { Mailer } from '../../platform/outbound/mail';
import { html } from '../../platform/web/html';
import { organisationOf, userById } from '../organisations';
import { passwordTokenRepository } from './accounts.repository';

/** E-mails a staff user the link to set their password; the token travels sealed, the table has its hash. */
export const passwordLinkJob = defineJob({
  kind: 'password-link',
  payload: z.strictObject({ tokenId: z.string(), sealedToken: z.string() }),
  maxAttempts: 6,
  retryDelayMs: (attempt) => 10_000 * attempt,
});

export const passwordLinkSealContext = (tokenId: string) => `password-link:${tokenId}`;

export interface PasswordLinkDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  mailer: Mailer;
  baseUrl: string;
}

export function passwordLinkHandler(
  deps: PasswordLinkDeps,
): JobHandler<z.output<typeof passwordLinkJob.payload>> {
  return async (job) => {
    const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
    const facts = await inTenant(deps.database, ctx, async (tx) => {
      const token = await passwordTokenRepository(tx, ctx).find(job.payload.tokenId);
      if (!token) return null;
      const user = await userById(tx, ctx, token.userId);
      const organisation = await organisationOf(tx, ctx);
      return user && organisation ? { token, user, organisation } : null;
    });
    if (!facts) return { cancelled: 'the link or its user no longer exists' };
    const { token, user, organisation } = facts;
    if (token.usedAt) return { cancelled: 'the link was used or replaced' };
    if (token.expiresAt <= deps.clock.now()) return { cancelled: 'the link has expired' };
    const url = `${deps.baseUrl}/password/${deps.box.open(job.payload.sealedToken, passwordLinkSealContext(token.id))}`;
    const t = passwordLinkTexts;
    const greeting = t.greeting(user.name);
    const lead = t.lead[token.purpose](organisation.name);
    const note = t.note(utcMinute(token.expiresAt));
    await sendOnce(deps, job, () =>
      deps.mailer.send({
        key: messageKey(job),
        to: user.email,
        subject: t.subject[token.purpose](organisation.name),
        text: `${greeting}\n\n${lead}\n\n${url}\n\n${note}\n`,
        html: html`<p>${greeting}</p><p>${lead}</p><p><a href="${url}">${url}</a></p><p>${note}</p>`.toString(),
      }),
    );
    return undefined;
  };
}
