import { randomBytes, randomInt } from 'node:crypto';
import type { SignerTrailEntry } from '../../db/schema';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import { changeSigner } from '../sessionrequests';
import { CODE_MINUTES, codeSealContext, signingCodeJob } from '../signing';
import { type Respondent, respondentLanguage, trailClient } from './respondent.service';
import type { Channel } from './respondent.view';
import {
  MAX_CODE_TRIES,
  maskAddress,
  type SigningDeps,
  type SigningResult,
  signerContact,
  tokenHash,
  waitingFor,
  withSigner,
} from './signing';

// A signer's one-time codes: asked for by e-mail or SMS, then confirmed in the browser that signs.

/** Codes a signer may ask for per hour (each one is an e-mail or a text message). */
const MAX_CODES_PER_HOUR = 5;
/** How long a browser that confirmed the code may sign without a new one. */
const VERIFIED_MINUTES = 30;
/** Wrong codes over all codes of a signer before codes stop: a guesser gets no endless new codes. */
const MAX_WRONG_CODES = 20;

const codeInput = (signerId: string, code: string) => `${signerId}:${code}`;

/** Sends the signer a new one-time code by `channel` (replacing any earlier one, and lifting a lock). */
export function requestCode(
  deps: SigningDeps,
  rawCode: string,
  respondent: Respondent,
  channel: string,
  askedLanguage: unknown,
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
            // The language the signer reads the page in, which may not be the action's.
            language: respondentLanguage(askedLanguage, view),
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
