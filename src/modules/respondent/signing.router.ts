import type { Request, Response } from 'express';
import { NotFound } from '../../platform/errors';
import type { Routes } from '../../platform/http/routes';
import { credential } from '../../platform/redaction';
import { readAll } from '../../platform/storage';
import { z } from '../../platform/zod';
import { errorPage, type Page, type PageContext, unknownPage } from '../../web/respondent-pages';
import { declinePage, signedDonePage, signingPage, signingWaitPage } from '../../web/signing-pages';
import type { DocumentPreviews } from '../signing';
import { setSignerCookie } from './respondent.cookies';
import { contactQuery } from './respondent.query';
import type { Respondent } from './respondent.service';
import type { OpenAction, RespondentView } from './respondent.view';
import { consentText, decline, sign } from './signature';
import {
  isSigningAction,
  maskAddress,
  type SigningDeps,
  type SigningFacts,
  type SigningProblem,
  type SigningResult,
  signingStage,
  signingTitleOf,
  viewForSigning,
} from './signing';
import { requestCode, verifyCode } from './signing-codes';

const tags = ['Public pages'];
/** The action's code or a signer's own: the contact's credential, never logged. */
export const code = credential(
  z
    .string()
    .max(100)
    .meta({
      param: { name: 'code', in: 'path' },
      description: 'The action code (or a signer’s own code): a credential, never logged',
    }),
  'action link',
);
const params = z.object({ code });
const documentParams = z.object({
  code,
  index: z
    .string()
    .max(200)
    .meta({ param: { name: 'index', in: 'path' }, description: 'The document to sign, from 0' }),
});
const pageParams = documentParams.extend({
  page: z
    .string()
    .max(200)
    .meta({ param: { name: 'page', in: 'path' }, description: 'The page, from 1' }),
});

/** A PDF as a download: a plain fallback name, and the file's own name in RFC 5987 form. */
function sendPdf(res: Response, bytes: Buffer, fallbackName: string, fileName: string): void {
  res.status(200);
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Length', String(bytes.length));
  res.setHeader(
    'Content-Disposition',
    `attachment; filename="${fallbackName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  );
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(bytes);
}

/** What the contact's router shares with the signing routes. */
export interface PageKit {
  respondentOf(req: Request): Respondent;
  gate(req: Request, res: Response, view: RespondentView): Promise<Page | null>;
  contextOf(req: Request, res: Response, view: OpenAction, nonce: string): PageContext;
  expired(): Page;
  fieldOf(body: unknown, name: string): string;
  secureCookies: boolean;
  /** The questionnaire's pages (a multisigning action's first signer answers it first). */
  questionnairePage(req: Request, ctx: PageContext, view: OpenAction): Page;
}

export interface SigningRouteDeps extends SigningDeps {
  previews: DocumentPreviews;
}

/**
 * What a signer's link shows: for multisigning first the questionnaire (its first signer answers it, the
 * others wait), then, while its report is made, a page that refreshes itself; then the signing page.
 */
export function signerPage(
  deps: SigningRouteDeps,
  kit: PageKit,
  req: Request,
  ctx: PageContext,
  view: OpenAction,
  facts: SigningFacts,
  extra: { problem?: SigningProblem; triesLeft?: number; typedName?: string } = {},
): Promise<Page> | Page {
  const signer = view.signer!;
  if (view.action.type === 'multisigning' && (!view.session || view.action.status === 'reopened')) {
    if (signer.position !== 0)
      return signingWaitPage(view, ctx, { kind: 'questionnaire', by: facts.answeredBy ?? '' }, extra.problem);
    return kit.questionnairePage(req, ctx, view);
  }
  if (view.session?.documentsPending) return signingWaitPage(view, ctx, { kind: 'preparing' }, extra.problem);
  return signingPageFor(deps, kit, req, ctx, view, facts, extra);
}

/** The signing page of a signer at `stage`, with the document's pages. */
export async function signingPageFor(
  deps: SigningRouteDeps,
  kit: PageKit,
  req: Request,
  ctx: PageContext,
  view: OpenAction,
  facts: SigningFacts,
  extra: { problem?: SigningProblem; triesLeft?: number; typedName?: string } = {},
): Promise<Page> {
  if (view.action.status === 'completed')
    return signedDonePage(view, ctx, facts.signed ? `/action/${ctx.code}/signed` : undefined);
  const doc = facts.document;
  if (!doc) throw new NotFound('The document to sign is gone');
  const title = doc.title;
  const stage = signingStage(view, kit.respondentOf(req), deps.clock.now());
  if (req.query.step === 'decline' && view.signer?.status === 'pending')
    return declinePage(view, ctx, title, { verified: stage === 'sign' });
  const preview = await deps.previews.factsOf(doc.sha256, () => readAll(deps.storage, doc.storageKey));
  const { contact } = facts;
  return signingPage({
    view,
    ctx,
    stage,
    document: {
      title,
      downloadUrl: `/action/${ctx.code}/documents/0`,
      pages: preview.pages,
      images: preview.images,
      imageUrl: (n) => `/action/${ctx.code}/documents/0/pages/${n}`,
    },
    contact: {
      name: contact.name,
      channels: contact.channels,
      masked: {
        ...(contact.email ? { email: maskAddress('email', contact.email) } : {}),
        ...(contact.smsNumber ? { sms: maskAddress('sms', contact.smsNumber) } : {}),
      },
    },
    timeZone: deps.timeZone,
    consent: consentText(ctx.lang, title),
    waitingFor: facts.waitingFor,
    ...extra,
  });
}

export function signingRoutes(routes: Routes, deps: SigningRouteDeps, kit: PageKit): void {
  /** After a form post: the page again with the problem (400), or back to the page (303). */
  const answer = async (
    req: Request,
    res: Response,
    nonce: string,
    result: SigningResult,
    typedName?: string,
  ): Promise<Page | { redirect: string }> => {
    const stop = await kit.gate(req, res, result.view);
    if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
    const ctx = kit.contextOf(req, res, result.view, nonce);
    const back = { redirect: `/action/${ctx.code}?lang=${ctx.lang}` };
    if (!result.problem || result.problem === 'closed') return back;
    // The page is drawn as it is now (after a wrong code, with the try counted).
    const again = await viewForSigning(deps, ctx.code, kit.respondentOf(req), false);
    if (again.view.outcome !== 'ok' || !again.facts) return back;
    return signerPage(deps, kit, req, ctx, again.view, again.facts, {
      problem: result.problem,
      triesLeft: result.triesLeft,
      typedName,
    });
  };

  routes.page(
    {
      method: 'post',
      path: '/action/{code}/sign/code',
      summary: 'Signing: send the signer a one-time code (form post)',
      description:
        'Fields: `_csrf`, `channel` (`email` or `sms`, among the contact’s addresses). A new 6-digit code replaces any earlier one (and lifts a lock); it works once, for 10 minutes. At most 5 codes per signer per hour (400 with the reason). The code is stored as a keyed hash and sent by a background job.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      errorPage,
      statuses: {
        303: 'Sent: back to the signing page',
        400: 'No such channel, or too many codes',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn, expired or declined',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const result = await requestCode(deps, p.code, kit.respondentOf(req), kit.fieldOf(req.body, 'channel'));
      return answer(req, res, nonce, result);
    },
  );

  routes.page(
    {
      method: 'post',
      path: '/action/{code}/sign/verify',
      summary: 'Signing: confirm the one-time code (form post)',
      description:
        'Fields: `_csrf`, `code` (6 digits; spaces ignored). A right code binds this browser to the signer for 30 minutes (HttpOnly cookie `adk_signer`, Path=/action/<code>) and is spent. A wrong one counts: after 5 the code is locked until a new one is asked for. An expired code is refused.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      errorPage,
      statuses: {
        303: 'Confirmed: back to the signing page, now at the signature',
        400: 'Wrong, locked or expired code (the page says which, and how many tries are left)',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn, expired or declined',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const result = await verifyCode(deps, p.code, kit.respondentOf(req), kit.fieldOf(req.body, 'code'));
      if (result.browserToken && result.view.outcome === 'ok' && result.view.signer)
        setSignerCookie(res, result.view.signer.code, result.browserToken, kit.secureCookies);
      return answer(req, res, nonce, result);
    },
  );

  routes.page(
    {
      method: 'post',
      path: '/action/{code}/sign',
      summary: 'Signing: sign (form post)',
      description:
        'Fields: `_csrf`, `mark` (`typed` or `drawn`), `typedName` (typed: up to 100 characters), `drawing` (drawn: a PNG data URL of at most 140,000 bytes, 10–4000 pixels a side), `consent` (`yes`: the signer agrees to the text naming the document). Needs the browser that confirmed the code. Records the signature with its evidence (name, e-mail, phone, address, user agent, consent) and the event `signature.signed`; when every signer has signed, the sealed document is made by a background job and the action completes with it.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      errorPage,
      statuses: {
        303: 'Signed: back to the page, which says so',
        400: 'No signature, no consent, or the code was not confirmed in this browser',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn, expired or declined',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const form = {
        mark: kit.fieldOf(req.body, 'mark'),
        typedName: kit.fieldOf(req.body, 'typedName'),
        drawing: kit.fieldOf(req.body, 'drawing'),
        consent: kit.fieldOf(req.body, 'consent') === 'yes',
      };
      const result = await sign(deps, p.code, kit.respondentOf(req), form, req.query.lang);
      return answer(req, res, nonce, result, form.typedName);
    },
  );

  routes.page(
    {
      method: 'post',
      path: '/action/{code}/decline',
      summary: 'Signing: decline to sign, with a reason (form post)',
      description:
        'Fields: `_csrf`, `reason` (1–1000 characters). The signer is declined and the action closes as `declined` for every signer (events `signature.declined`, then `sessionrequest.declined`); pending messages are cancelled and the link then answers 410.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      errorPage,
      statuses: {
        303: 'Declined',
        400: 'No reason, or one that is too long',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn, expired or declined',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const reason = typeof req.body?.reason === 'string' ? req.body.reason : '';
      const result = await decline(deps, p.code, kit.respondentOf(req), reason);
      const stop = await kit.gate(req, res, result.view);
      if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
      const ctx = kit.contextOf(req, res, result.view, nonce);
      if (result.problem && result.problem !== 'closed')
        return declinePage(result.view, ctx, signingTitleOf(result.view), {
          problem: result.problem,
          reason,
          verified: result.problem !== 'not-verified',
        });
      return { redirect: `/action/${ctx.code}?lang=${ctx.lang}` };
    },
  );

  /** The signer's document bytes (and what they are), or a 404 for anything else. */
  const documentFor = async (req: Request, rawCode: string, index: string) => {
    const found = await viewForSigning(deps, rawCode, kit.respondentOf(req), false);
    const doc = found.facts?.document;
    if (found.view.outcome !== 'ok' || !isSigningAction(found.view) || !doc || index !== '0')
      throw new NotFound('No such document');
    return doc;
  };

  routes.public(
    {
      method: 'get',
      path: '/action/{code}/documents/{index}',
      summary: 'Signing: the document to sign, as uploaded (PDF)',
      description:
        'For the signer’s link only, while the action is open or completed; 404 for an unknown code or document, and once the action is withdrawn, expired or declined.',
      tags,
      params: documentParams,
      binary: { contentType: 'application/pdf', description: 'The original document' },
      errors: [404],
    },
    async ({ params: p, req, res }) => {
      const doc = await documentFor(req, p.code, p.index);
      sendPdf(res, await readAll(deps.storage, doc.storageKey), 'document.pdf', doc.fileName);
      return undefined;
    },
  );

  routes.public(
    {
      method: 'get',
      path: '/action/{code}/signed',
      summary: 'Signing: the signer’s copy of the signed, sealed document (PDF)',
      description:
        'Once the action is completed, for a signer who signed, on their own link. 404 before that, for an unknown code, and once the action is withdrawn or deleted.',
      tags,
      params,
      binary: { contentType: 'application/pdf', description: 'The signed document' },
      errors: [404],
    },
    async ({ params: p, req, res }) => {
      const found = await viewForSigning(deps, p.code, kit.respondentOf(req), false);
      const signed = found.view.outcome === 'ok' ? found.facts?.signed : undefined;
      if (!signed) throw new NotFound('No signed document (yet)');
      sendPdf(res, await readAll(deps.storage, signed.storageKey), 'signed.pdf', signed.fileName);
      return undefined;
    },
  );

  routes.public(
    {
      method: 'get',
      path: '/action/{code}/documents/{index}/pages/{page}',
      summary: 'Signing: one page of the document to sign, as an image (PNG)',
      description:
        'Drawn by poppler (pdftoppm), 1100 pixels wide. 404 for a page that does not exist, or when page images cannot be drawn on this server (the page then offers the download).',
      tags,
      params: pageParams,
      binary: { contentType: 'image/png', description: 'The page' },
      errors: [404],
    },
    async ({ params: p, req, res }) => {
      const doc = await documentFor(req, p.code, p.index);
      const bytes = () => readAll(deps.storage, doc.storageKey);
      const facts = await deps.previews.factsOf(doc.sha256, bytes);
      const page = /^\d{1,4}$/.test(p.page) ? Number(p.page) : 0;
      if (page < 1 || page > facts.pages.length) throw new NotFound('No such page');
      const png = await deps.previews.image(doc.sha256, page, bytes);
      if (!png) throw new NotFound('This page cannot be drawn here: download the document instead');
      res.status(200);
      res.setHeader('Content-Type', 'image/png');
      res.setHeader('Content-Length', String(png.length));
      res.setHeader('Cache-Control', 'private, max-age=3600');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.end(png);
      return undefined;
    },
  );
}
