import { createHash } from 'node:crypto';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';
import { smsNumber } from '../../platform/outbound/phone';
import { contactById, contactEmail, contactName, contactPhone } from '../customers';
import { fileById } from '../files';
import { isOpen, type SignerRow } from '../sessionrequests';
import { signingTitle } from '../signing';
import { type Respondent, type RespondentDeps, withAction } from './respondent.service';
import type { Channel, OpenAction, RespondentView, SigningProblem, SigningStage } from './respondent.view';

// What a signer's link is: where they stand, their contact, the document, and the guard the signing
// steps pass (signing-codes.ts: one-time codes; signature.ts: sign or decline).

export type { Channel, SigningProblem, SigningStage };

export interface SigningDeps extends RespondentDeps {
  box: SecretBox;
  phoneRegion: string;
}

/** Wrong codes before the code is locked (a new code unlocks). */
export const MAX_CODE_TRIES = 5;

/** What the signer signs, by name: the quicksign document's title, or the templates' names. */
export const signingTitleOf = (view: OpenAction): string =>
  signingTitle(
    view.action,
    view.parts.map((p) => p.name),
  );

export const isSigningAction = (view: OpenAction): boolean =>
  view.action.type === 'quicksign' || view.action.type === 'multisigning';

/** How a browser token is kept on the signer: its hash only. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Whether this browser confirmed the signer's code (its cookie), and that is recent enough. */
export function browserVerified(signer: SignerRow, respondent: Respondent, now: Date): boolean {
  return Boolean(
    respondent.signerToken &&
      signer.browserHash &&
      signer.browserUntil &&
      signer.browserUntil > now &&
      signer.browserHash === tokenHash(respondent.signerToken),
  );
}

/**
 * Whether declining needs a code first: the organisation asks for one (`requireCodeToDecline`) and this
 * browser has not confirmed the signer's code.
 */
export function declineNeedsCode(
  view: OpenAction,
  signer: SignerRow,
  respondent: Respondent,
  now: Date,
): boolean {
  return (
    view.brand.requireCodeToDecline && !(signer.codeVerifiedAt && browserVerified(signer, respondent, now))
  );
}

/** The earlier signer this one waits for (sequential order), if any. */
export function waitingFor(view: OpenAction, signer: SignerRow): SignerRow | undefined {
  if (view.action.signingOrder !== 'sequential') return undefined;
  return view.signers.find((s) => s.position < signer.position && s.status !== 'signed');
}

export function signingStage(view: OpenAction, respondent: Respondent, now: Date): SigningStage {
  const signer = view.signer!;
  if (signer.status === 'signed') return 'signed';
  if (waitingFor(view, signer)) return 'waiting';
  if (signer.codeVerifiedAt && browserVerified(signer, respondent, now)) return 'sign';
  if (!signer.codeHash) return 'code';
  if (signer.codeAttempts >= MAX_CODE_TRIES) return 'locked';
  if (!signer.codeExpiresAt || signer.codeExpiresAt <= now) return 'expired';
  return 'verify';
}

/** The contact's details for signing: name, and the addresses a code can go to. */
export async function signerContact(tx: Tx, ctx: RequestContext, signer: SignerRow, phoneRegion: string) {
  const data = (await contactById(tx, ctx, signer.customerId))?.data ?? null;
  const email = contactEmail(data);
  const phone = contactPhone(data);
  const sms = phone ? smsNumber(phone, phoneRegion) : null;
  return {
    name: contactName(data),
    email,
    phone,
    channels: [
      ...(email ? (['email'] as const) : []),
      ...(sms && 'number' in sms ? (['sms'] as const) : []),
    ] as Channel[],
    smsNumber: sms && 'number' in sms ? sms.number : null,
  };
}

/** An address shown on the page and in the trail without giving it away: j•••@example.com, •••• 1234. */
export function maskAddress(channel: Channel, value: string): string {
  if (channel === 'sms') return `•••• ${value.replace(/\D/g, '').slice(-4)}`;
  const at = value.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${value[0]}•••${value.slice(at)}`;
}

export interface SigningResult {
  view: RespondentView;
  problem?: SigningProblem;
  /** wrong-code: tries left before the code locks. */
  triesLeft?: number;
  /** verify: the browser token to keep in the signer cookie. */
  browserToken?: string;
}

/** Runs `fn` for the signer behind the code, when the action is an open signing action. */
export async function withSigner(
  deps: SigningDeps,
  rawCode: string,
  respondent: Respondent,
  fn: (tx: Tx, ctx: RequestContext, view: OpenAction, signer: SignerRow, out: SigningResult) => Promise<void>,
): Promise<SigningResult> {
  const out: Omit<SigningResult, 'view'> = {};
  const { view } = await withAction(deps, rawCode, { open: true, respondent }, async (tx, ctx, found) => {
    const signer = found.signer;
    if (!isSigningAction(found) || !signer || !isOpen(found.action.status) || signer.status !== 'pending') {
      out.problem = 'closed';
      return;
    }
    if (!documentToSign(found)) {
      out.problem = 'not-your-turn';
      return;
    }
    await fn(tx, ctx, found, signer, out as SigningResult);
  });
  return { view, ...out };
}

export interface SigningFacts {
  contact: Awaited<ReturnType<typeof signerContact>>;
  /** What is signed: the quicksign document, or the report of a multisigning questionnaire. */
  document?: { storageKey: string; fileName: string; sha256: string; title: string };
  /** Sequential order: the name of the earlier signer this one waits for. */
  waitingFor?: string;
  /** Multisigning: the name of the signer who answers the questionnaire (the first). */
  answeredBy?: string;
  /** Once completed: the signed document, for the signer's own copy. */
  signed?: { storageKey: string; fileName: string; size: number };
}

/** The file a signer signs: the quicksign document, or a multisigning session's report once made. */
export function documentToSign(view: OpenAction): { fileId: string; title: string } | undefined {
  if (view.action.document) return view.action.document;
  const session = view.session;
  if (view.action.type !== 'multisigning' || !session || session.documentsPending) return undefined;
  const report = session.documents[0];
  return report && { fileId: report.fileId, title: signingTitleOf(view) };
}

/** The action for the signing page (opened on a GET), with the signer's contact and the document. */
export async function viewForSigning(
  deps: SigningDeps,
  rawCode: string,
  respondent: Respondent,
  open: boolean,
): Promise<{ view: RespondentView; facts?: SigningFacts }> {
  const { view, result } = await withAction(
    deps,
    rawCode,
    { open, respondent, read: true },
    async (tx, ctx, found) => {
      if (!isSigningAction(found) || !found.signer) return undefined;
      const facts: SigningFacts = { contact: await signerContact(tx, ctx, found.signer, deps.phoneRegion) };
      const toSign = documentToSign(found);
      if (toSign) {
        const file = await fileById(tx, ctx, toSign.fileId);
        if (file)
          facts.document = {
            storageKey: file.storageKey,
            fileName: file.fileName,
            sha256: file.sha256,
            title: toSign.title,
          };
      }
      // The signed document is the session's last (after the report of a multisigning).
      const signed = found.action.status === 'completed' ? found.session?.documents.at(-1) : undefined;
      if (signed && found.signer.status === 'signed') {
        const file = await fileById(tx, ctx, signed.fileId);
        if (file) facts.signed = { storageKey: file.storageKey, fileName: file.fileName, size: file.size };
      }
      const first = found.signers[0];
      if (found.action.type === 'multisigning' && !found.session && first && first.id !== found.signer.id) {
        facts.answeredBy = contactName((await contactById(tx, ctx, first.customerId))?.data);
      }
      const earlier = waitingFor(found, found.signer);
      if (earlier) {
        const data = (await contactById(tx, ctx, earlier.customerId))?.data;
        facts.waitingFor = contactName(data);
      }
      return facts;
    },
  );
  return { view, facts: result };
}
