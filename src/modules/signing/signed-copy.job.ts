import { isLanguage } from '../../i18n/languages';
import { messageTexts } from '../../i18n/messages';
import { signedCopyTexts, signedFileName } from '../../i18n/signed-copy';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { type FileStorage, readAll } from '../../platform/files/storage';
import type { JobHandler } from '../../platform/jobs/job';
import { defineJob } from '../../platform/jobs/job-type';
import { messageKey, sendOnce } from '../../platform/jobs/sending';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { z } from '../../platform/kernel/zod';
import type { Mailer } from '../../platform/outbound/mail';
import { mailLayout } from '../../platform/outbound/mail-layout';
import { smsNumber } from '../../platform/outbound/phone';
import type { SmsSender } from '../../platform/outbound/sms';
import { contactById, contactEmail, contactFirstName, contactPhone } from '../customers';
import { fileById } from '../files';
import { messageBrand, organisationBrand } from '../organisations';
import { actionById, signersOf } from '../sessionrequests';
import { sessionOfAction } from '../sessions';

/** Sends one signer their copy of the sealed document, once the action is completed. */
export const signedCopyJob = defineJob({
  kind: 'signed-copy',
  payload: z.strictObject({ signerId: z.string() }),
  maxAttempts: 8,
  timeoutMs: 90_000,
});

export interface SignedCopyDeps {
  database: Database;
  clock: Clock;
  storage: FileStorage;
  mailer: Mailer;
  sms: SmsSender;
  baseUrl: string;
  phoneRegion: string;
  /** The largest copy sent as an attachment (SIGNED_COPY_ATTACH_MAX_SIZE); a larger one goes as a link. */
  attachMaxBytes: number;
}

/**
 * E-mails the signer their signed copy, in the language they signed in: attached up to `attachMaxBytes`,
 * else as a link to their own copy (`/action/{code}/signed`). A signer with no e-mail address gets the
 * link by SMS. A copy for an action that is no longer completed (withdrawn, deleted) is not sent.
 */
export function signedCopyHandler(deps: SignedCopyDeps): JobHandler<z.output<typeof signedCopyJob.payload>> {
  return async (job) => {
    const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
    const facts = await inTenant(deps.database, ctx, async (tx) => {
      const action = await actionById(tx, ctx, job.subjectId ?? '');
      if (action?.status !== 'completed') return null;
      const signer = (await signersOf(tx, ctx, action.id)).find((s) => s.id === job.payload.signerId);
      const signed = (await sessionOfAction(tx, ctx, action.id))?.documents.at(-1);
      const file = signed && (await fileById(tx, ctx, signed.fileId));
      if (signer?.status !== 'signed' || !file) return null;
      const contact = await contactById(tx, ctx, signer.customerId);
      return {
        action,
        signer,
        file,
        contact: contact?.data ?? null,
        brand: messageBrand(await organisationBrand(tx, ctx), deps.baseUrl),
      };
    });
    if (!facts) return { cancelled: 'the action is not completed, or the signer or document is gone' };
    const { signer, file, brand } = facts;
    const organisation = brand.from;
    const signedIn = signer.evidence?.language ?? '';
    const language = isLanguage(signedIn) ? signedIn : facts.action.language;
    const w = signedCopyTexts[language];
    const title = facts.action.document?.title ?? file.fileName.replace(/\.pdf$/i, '');
    const url = `${deps.baseUrl}/action/${signer.code}/signed`;
    const to = facts.contact && contactEmail(facts.contact);
    if (!to) {
      const phone = facts.contact && contactPhone(facts.contact);
      const number = phone ? smsNumber(phone, deps.phoneRegion) : null;
      if (!number || 'problem' in number)
        return { cancelled: 'the signer has no e-mail address or mobile number' };
      await sendOnce(deps, job, () =>
        deps.sms.send({
          key: messageKey(job),
          to: number.number,
          text: w.sms(title, organisation, url),
          from: brand.smsFrom,
        }),
      );
      return undefined;
    }
    const attach = file.size <= deps.attachMaxBytes;
    const body = mailLayout({
      language,
      from: organisation,
      preview: w.lead(title, organisation),
      paragraphs: [
        messageTexts[language].greeting(facts.contact ? contactFirstName(facts.contact) : null),
        w.lead(title, organisation),
        attach ? w.attached : w.linked,
      ],
      ...(attach ? {} : { button: { label: w.button, url } }),
      after: [w.keep, organisation],
      brand: brand.look,
    });
    const attachments = attach
      ? [
          {
            filename: signedFileName(title, language),
            content: await readAll(deps.storage, file.storageKey),
            contentType: 'application/pdf',
          },
        ]
      : undefined;
    await sendOnce(deps, job, () =>
      deps.mailer.send({
        key: messageKey(job),
        to,
        subject: w.subject(title, organisation),
        ...body,
        sender: brand.sender,
        ...(attachments ? { attachments } : {}),
      }),
    );
    return undefined;
  };
}
