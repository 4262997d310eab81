import { Readable } from 'node:stream';
import { languages } from '../../i18n/languages';
import { signedFileName } from '../../i18n/signed-copy';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { type FileStorage, readAll } from '../../platform/files/storage';
import { type JobHandler, PermanentJobError } from '../../platform/jobs/job';
import { defineJob } from '../../platform/jobs/job-type';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import { messageKey, sendOnce } from '../../platform/jobs/sending';
import type { Clock } from '../../platform/kernel/clock';
import { type RequestContext, systemContext } from '../../platform/kernel/context';
import { newId } from '../../platform/kernel/ids';
import { z } from '../../platform/kernel/zod';
import type { Mailer } from '../../platform/outbound/mail';
import { smsNumber } from '../../platform/outbound/phone';
import type { SmsSender } from '../../platform/outbound/sms';
import type { PadesProfile } from '../../platform/signing/seal';
import type { SealKeySource } from '../../platform/signing/seal-key';
import { contactById, contactEmail, contactPhone } from '../customers';
import { fileById, recordGeneratedPdf } from '../files';
import {
  messageBrand,
  modeOf,
  organisationBrand,
  organisationLogo,
  organisationName,
  organisationSealKey,
} from '../organisations';
import { templateVersions } from '../questionlists';
import {
  actionById,
  completeSessionRequest,
  isOpen,
  recordActionEvents,
  type SessionRequestRow,
  type SignerRow,
  signersOf,
} from '../sessionrequests';
import { recordSubmission, sessionOfAction, setSessionDocuments } from '../sessions';
import { composeCodeMessage } from './code-message';
import { signedCopyJob } from './signed-copy.job';
import { buildSignedDocument } from './signed-document';

/** How long a one-time code works. */
export const CODE_MINUTES = 10;

/** Sends a signer their one-time code; the code travels sealed (the database never holds it in clear). */
export const signingCodeJob = defineJob({
  kind: 'signing-code',
  payload: z.strictObject({
    signerId: z.string(),
    channel: z.enum(['email', 'sms']),
    sealedCode: z.string(),
    /** The language of the signer's page (jobs queued before it was sent read the action's). */
    language: z.enum(languages).optional(),
  }),
  // A code is only useful for minutes: a few quick tries, then the signer asks for a new one.
  maxAttempts: 4,
  retryDelayMs: (attempt) => 5_000 * attempt,
  timeoutMs: 90_000,
});

/** Makes the signed, sealed document of an action whose signers have all signed, then completes it. */
export const signingFinaliseJob = defineJob({
  kind: 'signing-finalise',
  payload: z.strictObject({}),
  maxAttempts: 10,
  timeoutMs: 120_000,
});

export const codeSealContext = (signerId: string) => `signing-code:${signerId}`;

/** The title of what an action asks to sign. */
export function signingTitle(action: SessionRequestRow, templateNames: string[] = []): string {
  return action.document?.title ?? templateNames.join(', ');
}

export interface CodeDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  mailer: Mailer;
  sms: SmsSender;
  phoneRegion: string;
  /** For the organisation's logo in the e-mail. */
  baseUrl: string;
}

/**
 * Sends the code. A code that is no longer the signer's current one (a newer one was asked for, it was
 * used, or it expired) is not sent: the signer would only be confused by it.
 */
export function signingCodeHandler(deps: CodeDeps): JobHandler<z.output<typeof signingCodeJob.payload>> {
  return async (job) => {
    const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
    const { signerId, channel, sealedCode } = job.payload;
    const code = deps.box.open(sealedCode, codeSealContext(signerId));
    const facts = await inTenant(deps.database, ctx, async (tx) => {
      const action = await actionById(tx, ctx, job.subjectId ?? '');
      if (!action) return null;
      const signer = (await signersOf(tx, ctx, action.id)).find((s) => s.id === signerId);
      if (!signer) return null;
      const customer = await contactById(tx, ctx, signer.customerId);
      const brand = messageBrand(await organisationBrand(tx, ctx), deps.baseUrl);
      const templates = action.document
        ? []
        : await templateVersions(tx, ctx, action.questionListIds, action.questionListVersions);
      const title = signingTitle(
        action,
        templates.map((t) => t.name),
      );
      return { action, signer, customer: customer?.data ?? null, brand, title };
    });
    if (!facts) return { cancelled: 'the action or signer no longer exists' };
    const { action, signer, brand } = facts;
    if (!isOpen(action.status)) return { cancelled: `the action is ${action.status}` };
    const now = deps.clock.now();
    if (
      !signer.codeHash ||
      !signer.codeExpiresAt ||
      signer.codeExpiresAt <= now ||
      !deps.box.macMatches('signing-code', `${signer.id}:${code}`, signer.codeHash)
    )
      return { cancelled: 'the code is no longer the signer’s current code' };
    const message = composeCodeMessage({
      language: job.payload.language ?? action.language,
      code,
      organisation: brand.from,
      title: facts.title || brand.from,
      minutes: CODE_MINUTES,
      look: brand.look,
    });
    if (channel === 'email') {
      const to = contactEmail(facts.customer);
      if (!to) throw new PermanentJobError('the signer has no e-mail address (data.Email)');
      await sendOnce(deps, job, () =>
        deps.mailer.send({
          key: messageKey(job),
          to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          sender: brand.sender,
        }),
      );
    } else {
      const to = smsNumber(contactPhone(facts.customer) ?? '', deps.phoneRegion);
      if ('problem' in to)
        throw new PermanentJobError(`the signer’s phone number (data.Telefoon) ${to.problem}`);
      await sendOnce(deps, job, () =>
        deps.sms.send({ key: messageKey(job), to: to.number, text: message.sms, from: brand.smsFrom }),
      );
    }
    return undefined;
  };
}

export interface FinaliseDeps {
  database: Database;
  box: SecretBox;
  clock: Clock;
  storage: FileStorage;
  seal: SealKeySource;
  pades: PadesProfile;
  timeZone: string;
  baseUrl: string;
}

/**
 * What an action asks to sign: the quicksign document, or the report of the multisigning session (its
 * first document), with the session.
 */
async function documentToSign(tx: Tx, ctx: RequestContext, action: SessionRequestRow) {
  if (action.document) {
    const file = await fileById(tx, ctx, action.document.fileId);
    return file && { file, title: action.document.title, session: undefined };
  }
  const session = await sessionOfAction(tx, ctx, action.id);
  const report = session && !session.documentsPending ? session.documents[0] : undefined;
  if (!session || !report) return undefined;
  const file = await fileById(tx, ctx, report.fileId);
  const templates = await templateVersions(tx, ctx, action.questionListIds, action.questionListVersions);
  return file && { file, title: templates.map((t) => t.name).join(', '), session };
}

/**
 * Renders and seals the signed document outside any lock (it may take seconds), stores it, then in one
 * transaction records the file, the session holding it and the completion. The action's row lock is
 * taken only for that last step, where everything is checked again.
 */
export function signingFinaliseHandler(deps: FinaliseDeps): JobHandler<Record<string, never>> {
  return async (job) => {
    const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
    const id = job.subjectId ?? '';
    const facts = await inTenant(deps.database, ctx, async (tx) => {
      const action = await actionById(tx, ctx, id);
      if (!action) return null;
      const signers = await signersOf(tx, ctx, action.id);
      const organisation = await organisationName(tx, ctx);
      const brand = { name: (await organisationBrand(tx, ctx)).name, logo: await organisationLogo(tx, ctx) };
      return { action, signers, organisation, brand, document: await documentToSign(tx, ctx, action) };
    });
    if (!facts) return { cancelled: 'the action no longer exists' };
    const { action, signers } = facts;
    if (!isOpen(action.status)) return { cancelled: `the action is ${action.status}` };
    if (signers.length === 0 || signers.some((s) => s.status !== 'signed'))
      return { cancelled: 'not every signer has signed' };
    if (!facts.document) throw new PermanentJobError('the document to sign is gone');
    const mode = await modeOf(deps.database, job.organisationId);
    const now = deps.clock.now();
    // Live documents: the organisation's own seal while it has a valid one, else the service's.
    const own =
      mode === 'live'
        ? await inTenant(deps.database, ctx, (tx) => organisationSealKey(tx, ctx, deps.box, now))
        : null;
    const seal = own ?? (await deps.seal(mode));
    const original = await readAll(deps.storage, facts.document.file.storageKey);
    const signed = await buildSignedDocument({
      original,
      title: facts.document.title,
      organisation: facts.organisation,
      brand: facts.brand,
      actionId: action.id,
      language: action.language,
      timeZone: deps.timeZone,
      signers: signers.map(signedBy),
      seal,
      pades: deps.pades,
      now,
      test: mode === 'test',
    });
    const fileId = newId(now.getTime());
    const storageKey = `${ctx.organisationId}/${fileId}`;
    const written = await deps.storage.put(storageKey, Readable.from([signed]));
    try {
      return await inTenant(deps.database, ctx, async (tx) => {
        const locked = await actionById(tx, ctx, id, { forUpdate: true });
        if (!locked || !isOpen(locked.status)) {
          await deps.storage.remove(storageKey);
          return { cancelled: `the action is ${locked?.status ?? 'gone'}` };
        }
        const fileName = signedFileName(facts.document!.title, locked.language);
        const signedDocument = await recordGeneratedPdf(tx, ctx, {
          id: fileId,
          fileName,
          storageKey,
          written,
          at: now,
        });
        const answered = facts.document!.session;
        // Multisigning: the signed document joins the report in the session's submitted version.
        const session = answered
          ? await setSessionDocuments(tx, ctx, answered, [...answered.documents, signedDocument], now)
          : await recordSubmission(
              tx,
              ctx,
              {
                sessionRequestId: id,
                customerId: locked.customerId,
                visitorId: null,
                language: locked.language,
                answers: {},
                responses: [],
                documentsPending: false,
                documents: [signedDocument],
              },
              now,
              () => newId(now.getTime()),
            );
        if (!session) throw new Error('the session changed while its document was signed');
        if (!answered) await recordActionEvents(deps, tx, ctx, id, ['session.submitted'], session.id);
        await completeSessionRequest(deps, tx, ctx, id, { actor: 'system', userId: null });
        // Every signer gets their copy, committed with the completion.
        await jobRepository(tx, ctx).enqueue(
          signers.map((s) => signedCopyJob.job({ subjectId: id, payload: { signerId: s.id }, runAt: now })),
          now,
        );
        return undefined;
      });
    } catch (err) {
      await deps.storage.remove(storageKey).catch(() => undefined);
      throw err;
    }
  };
}

function signedBy(signer: SignerRow) {
  const evidence = signer.evidence;
  if (!evidence || !signer.signature || !signer.signedAt)
    throw new PermanentJobError(`signer ${signer.id} is marked signed without its evidence`);
  return {
    name: evidence.name,
    email: evidence.email,
    phone: evidence.phone,
    codeChannel: signer.codeChannel,
    ip: evidence.ip,
    userAgent: evidence.userAgent,
    consent: evidence.consent,
    signature: signer.signature,
    signedAt: signer.signedAt,
    trail: signer.trail,
  };
}
