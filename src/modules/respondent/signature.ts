import type { SignatureMark } from '../../db/schema';
import type { Language } from '../../i18n/languages';
import { signingTexts } from '../../i18n/signing';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import { pdfLib } from '../../platform/signing/pdf-libraries';
import { applyTransition, changeSigner, inviteSigners, recordSignerEvents } from '../sessionrequests';
import { signingFinaliseJob } from '../signing';
import { CONTACT, type Respondent, respondentLanguage, trailClient } from './respondent.service';
import {
  browserVerified,
  declineNeedsCode,
  type SigningDeps,
  type SigningResult,
  signerContact,
  signingTitleOf,
  waitingFor,
  withSigner,
} from './signing';

// The signer's decision, once their browser confirmed the code: sign (a typed or drawn mark and their
// consent), or decline with a reason.

// Below the form body limit (200 kB) once in base64.
const MAX_DRAWING_BYTES = 140_000;

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
export function consentText(language: Language, title: string): string {
  return signingTexts[language].consent(title);
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

/**
 * Declines for the signer, with a reason: the action is closed as declined for everyone. When the
 * organisation requires it (`requireCodeToDecline`), only from a browser that confirmed the signer's code.
 */
export function decline(
  deps: SigningDeps,
  rawCode: string,
  respondent: Respondent,
  reason: string,
): Promise<SigningResult> {
  return withSigner(deps, rawCode, respondent, async (tx, ctx, view, signer, out) => {
    const now = deps.clock.now();
    // The link is the signer's own: declining needs no code (as with the peers) unless the organisation
    // asks for one; the trail says whether this browser had confirmed one, with its address and user agent.
    const codeConfirmed = Boolean(signer.codeVerifiedAt && browserVerified(signer, respondent, now));
    if (declineNeedsCode(view, signer, respondent, now)) {
      out.problem = 'decline-needs-code';
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
      [{ step: 'declined', at: now.toISOString(), codeConfirmed, ...trailClient(respondent) }],
    );
    await recordSignerEvents(deps, tx, ctx, view.action.id, signer.id, ['signature.declined']);
    await applyTransition(deps, tx, ctx, view.action.id, 'decline', CONTACT);
  });
}
