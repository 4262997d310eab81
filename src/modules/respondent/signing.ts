import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { SignatureMark, SignerTrailEntry } from '../../db/schema';
import type { RequestContext } from '../../platform/context';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Tx } from '../../platform/db/database';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import { pdfLib } from '../../platform/pdf-libraries';
import { smsNumber } from '../../platform/phone';
import { contactById } from '../customers';
import { fileById } from '../files';
import {
  applyTransition,
  changeSigner,
  inviteSigners,
  isOpen,
  recordSignerEvents,
  type SignerRow,
} from '../sessionrequests';
import {
  CODE_MINUTES,
  codeSealContext,
  contactName,
  signingCodeJob,
  signingFinaliseJob,
  signingTitle,
} from '../signing';
import {
  CONTACT,
  type Respondent,
  type RespondentDeps,
  respondentLanguage,
  trailClient,
  withAction,
} from './respondent.service';
import type { Channel, OpenAction, RespondentView, SigningProblem, SigningStage } from './respondent.view';

export type { Channel, SigningProblem, SigningStage };

export interface SigningDeps extends RespondentDeps {
  box: SecretBox;
  phoneRegion: string;
}

/** Wrong codes before the code is locked (a new code unlocks). */
export const MAX_CODE_TRIES = 5;
/** Codes a signer may ask for per hour (each one is an e-mail or a text message). */
export const MAX_CODES_PER_HOUR = 5;
/** How long a browser that confirmed the code may sign without a new one. */
const VERIFIED_MINUTES = 30;
// Below the form body limit (200 kB) once in base64.
const MAX_DRAWING_BYTES = 140_000;
/** Wrong codes over all codes of a signer before codes stop: a guesser gets no endless new codes. */
export const MAX_WRONG_CODES = 20;

/** What the signer signs, by name: the quicksign document's title, or the templates' names. */
export const signingTitleOf = (view: OpenAction): string =>
  signingTitle(
    view.action,
    view.parts.map((p) => p.name),
  );

export const isSigningAction = (view: OpenAction): boolean =>
  view.action.type === 'quicksign' || view.action.type === 'multisigning';

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const codeInput = (signerId: string, code: string) => `${signerId}:${code}`;

/** Whether this browser confirmed the signer's code (its cookie), and that is recent enough. */
function browserVerified(signer: SignerRow, respondent: Respondent, now: Date): boolean {
  return Boolean(
    respondent.signerToken &&
      signer.browserHash &&
      signer.browserUntil &&
      signer.browserUntil > now &&
      signer.browserHash === tokenHash(respondent.signerToken),
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
  const email = data?.Email?.trim() || null;
  const phone = data?.Telefoon?.trim() || null;
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
async function withSigner(
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

/** Sends the signer a new one-time code by `channel` (replacing any earlier one, and lifting a lock). */
export function requestCode(
  deps: SigningDeps,
  rawCode: string,
  respondent: Respondent,
  channel: string,
): Promise<SigningResult> {
  return withSigner(deps, rawCode, respondent, async (tx, ctx, view, signer, out) => {
    const now = deps.clock.now();
    if (waitingFor(view, signer)) {
      out.problem = 'not-your-turn';
      return;
    }
    const contact = await signerContact(tx, ctx, signer, deps.phoneRegion);
    if (channel !== 'email' && channel !== 'sms') channel = contact.channels[0] ?? '';
    if (!contact.channels.includes(channel as Channel)) {
      out.problem = 'no-channel';
      return;
    }
    if (signer.trail.filter((e) => e.step === 'code-wrong').length >= MAX_WRONG_CODES) {
      out.problem = 'codes-blocked';
      return;
    }
    const hourAgo = now.getTime() - 3_600_000;
    const recent = signer.trail.filter((e) => e.step === 'code-sent' && Date.parse(e.at) > hourAgo);
    if (recent.length >= MAX_CODES_PER_HOUR) {
      out.problem = 'too-many-codes';
      return;
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const to = channel === 'sms' ? (contact.smsNumber ?? '') : (contact.email ?? '');
    await changeSigner(
      tx,
      ctx,
      signer.id,
      {
        codeHash: deps.box.mac('signing-code', codeInput(signer.id, code)),
        codeExpiresAt: new Date(now.getTime() + CODE_MINUTES * 60_000),
        codeAttempts: 0,
        codeChannel: channel as Channel,
        codeSentAt: now,
        // A browser that already confirmed a code stays confirmed: someone else with the link asking
        // for codes does not sign the signer out.
      },
      now,
      [
        {
          step: 'code-sent',
          at: now.toISOString(),
          channel: channel as Channel,
          to: maskAddress(channel as Channel, to),
          ...trailClient(respondent),
        },
      ],
    );
    await jobRepository(tx, ctx).enqueue(
      [
        signingCodeJob.job({
          subjectId: view.action.id,
          payload: {
            signerId: signer.id,
            channel: channel as Channel,
            sealedCode: deps.box.seal(code, codeSealContext(signer.id)),
          },
          runAt: now,
        }),
      ],
      now,
    );
  });
}

/** Checks a typed one-time code: right once (then spent), wrong five times and it locks. */
export function verifyCode(
  deps: SigningDeps,
  rawCode: string,
  respondent: Respondent,
  typed: string,
): Promise<SigningResult> {
  return withSigner(deps, rawCode, respondent, async (tx, ctx, _view, signer, out) => {
    const now = deps.clock.now();
    const client = trailClient(respondent);
    if (!signer.codeHash) {
      out.problem = 'no-code';
      return;
    }
    if (signer.codeAttempts >= MAX_CODE_TRIES) {
      out.problem = 'code-locked';
      return;
    }
    if (!signer.codeExpiresAt || signer.codeExpiresAt <= now) {
      out.problem = 'code-expired';
      return;
    }
    const code = typed.replace(/[\s-]/g, '');
    if (
      /^\d{6}$/.test(code) &&
      deps.box.macMatches('signing-code', codeInput(signer.id, code), signer.codeHash)
    ) {
      const token = randomBytes(32).toString('base64url');
      await changeSigner(
        tx,
        ctx,
        signer.id,
        {
          codeHash: null,
          codeExpiresAt: null,
          codeVerifiedAt: now,
          browserHash: tokenHash(token),
          browserUntil: new Date(now.getTime() + VERIFIED_MINUTES * 60_000),
        },
        now,
        [{ step: 'code-verified', at: now.toISOString(), ...client }],
      );
      out.browserToken = token;
      return;
    }
    const attempts = signer.codeAttempts + 1;
    const trail: SignerTrailEntry[] = [{ step: 'code-wrong', at: now.toISOString(), ...client }];
    if (attempts >= MAX_CODE_TRIES) trail.push({ step: 'code-locked', at: now.toISOString(), ...client });
    await changeSigner(tx, ctx, signer.id, { codeAttempts: attempts }, now, trail);
    out.problem = attempts >= MAX_CODE_TRIES ? 'code-locked' : 'wrong-code';
    out.triesLeft = MAX_CODE_TRIES - attempts;
  });
}

export interface SignatureForm {
  mark: string;
  typedName: string;
  drawing: string;
  consent: boolean;
}

/** A drawn signature: a PNG data URL of sensible size that a PDF can hold (pdf-lib reads it). */
async function drawnPng(dataUrl: string): Promise<string | null> {
  const png = pngOf(dataUrl);
  if (!png) return null;
  try {
    await (await pdfLib().PDFDocument.create()).embedPng(Buffer.from(png, 'base64'));
    return png;
  } catch {
    return null;
  }
}

function pngOf(dataUrl: string): string | null {
  const prefix = 'data:image/png;base64,';
  if (!dataUrl.startsWith(prefix)) return null;
  const base64 = dataUrl.slice(prefix.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length < 67 || bytes.length > MAX_DRAWING_BYTES) return null;
  const magic = bytes.subarray(0, 8).toString('hex') === '89504e470d0a1a0a';
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (!magic || bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  if (width < 10 || height < 10 || width > 4000 || height > 4000) return null;
  return bytes.toString('base64');
}

/** The consent the signer gives, in their language, naming the document. */
export function consentText(language: 'nl' | 'fr' | 'en', title: string): string {
  switch (language) {
    case 'nl':
      return `Ik heb «${title}» gelezen en onderteken het elektronisch. Ik aanvaard dat deze elektronische handtekening mij bindt zoals mijn handgeschreven handtekening.`;
    case 'fr':
      return `J’ai lu « ${title} » et je le signe électroniquement. J’accepte que cette signature électronique m’engage comme ma signature manuscrite.`;
    default:
      return `I have read “${title}” and sign it electronically. I agree that this electronic signature binds me as my handwritten signature does.`;
  }
}

/**
 * Signs for the signer whose browser confirmed the code: the mark, the consent and the evidence are
 * recorded with `signature.signed`; when every signer has signed, the sealed document is queued.
 */
export function sign(
  deps: SigningDeps,
  rawCode: string,
  respondent: Respondent,
  form: SignatureForm,
  askedLanguage: unknown,
): Promise<SigningResult> {
  return withSigner(deps, rawCode, respondent, async (tx, ctx, view, signer, out) => {
    const now = deps.clock.now();
    const language = respondentLanguage(askedLanguage, view);
    if (waitingFor(view, signer)) {
      out.problem = 'not-your-turn';
      return;
    }
    if (!signer.codeVerifiedAt || !browserVerified(signer, respondent, now)) {
      out.problem = 'not-verified';
      return;
    }
    let mark: SignatureMark;
    if (form.mark === 'drawn') {
      const png = await drawnPng(form.drawing);
      if (!png) {
        out.problem = form.drawing ? 'bad-drawing' : 'no-signature';
        return;
      }
      mark = { kind: 'drawn', png };
    } else {
      const text = form.typedName.replace(/\s+/g, ' ').trim();
      if (!text) {
        out.problem = 'no-signature';
        return;
      }
      if (text.length > 100) {
        out.problem = 'name-too-long';
        return;
      }
      mark = { kind: 'typed', text };
    }
    if (!form.consent) {
      out.problem = 'no-consent';
      return;
    }
    const contact = await signerContact(tx, ctx, signer, deps.phoneRegion);
    const client = trailClient(respondent);
    await changeSigner(
      tx,
      ctx,
      signer.id,
      {
        status: 'signed',
        signedAt: now,
        signature: mark,
        evidence: {
          name: contact.name || (mark.kind === 'typed' ? mark.text : ''),
          email: contact.email,
          // The number a code can go to (E.164), not the contact's free text (`0478 12 34 56 (gsm)`).
          phone: contact.smsNumber ?? contact.phone,
          ip: client.ip,
          userAgent: client.userAgent,
          consent: consentText(language, signingTitleOf(view)),
          language,
        },
        browserHash: null,
        browserUntil: null,
      },
      now,
      [{ step: 'signed', at: now.toISOString(), ...client }],
    );
    await recordSignerEvents(deps, tx, ctx, view.action.id, signer.id, ['signature.signed']);
    // Sequential order: the next signer is invited now.
    await inviteSigners(deps, tx, ctx, view.action, 'signed');
    const others = view.signers.filter((s) => s.id !== signer.id);
    if (others.every((s) => s.status === 'signed')) {
      await jobRepository(tx, ctx).enqueue(
        [signingFinaliseJob.job({ subjectId: view.action.id, payload: {}, runAt: now })],
        now,
      );
    }
  });
}

/** Declines for the signer, with a reason: the action is closed as declined for everyone. */
export function decline(
  deps: SigningDeps,
  rawCode: string,
  respondent: Respondent,
  reason: string,
): Promise<SigningResult> {
  return withSigner(deps, rawCode, respondent, async (tx, ctx, view, signer, out) => {
    const now = deps.clock.now();
    // Only the signer, confirmed by a code in this browser, closes the action for everyone.
    if (!signer.codeVerifiedAt || !browserVerified(signer, respondent, now)) {
      out.problem = 'not-verified';
      return;
    }
    const text = reason.trim();
    if (!text) {
      out.problem = 'no-reason';
      return;
    }
    if (text.length > 1000) {
      out.problem = 'reason-too-long';
      return;
    }
    await changeSigner(
      tx,
      ctx,
      signer.id,
      { status: 'declined', declinedAt: now, declineReason: text, browserHash: null, browserUntil: null },
      now,
      [{ step: 'declined', at: now.toISOString(), ...trailClient(respondent) }],
    );
    await recordSignerEvents(deps, tx, ctx, view.action.id, signer.id, ['signature.declined']);
    await applyTransition(deps, tx, ctx, view.action.id, 'decline', CONTACT);
  });
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
  const { view, result } = await withAction(deps, rawCode, { open, respondent }, async (tx, ctx, found) => {
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
  });
  return { view, facts: result };
}
