import { NotFound } from '../../platform/kernel/errors';
import type { DocumentPreviews } from '../files';
import type { ContactPage, PageKit } from './page-kit';
import { type Page, type PageContext, RESULT, unknownPage } from './pages/respondent.pages';
import { declinePage, signedDonePage, signingPage, signingWaitPage } from './pages/signing.pages';
import type { OpenAction } from './respondent.view';
import { consentText } from './signature';
import {
  declineNeedsCode,
  maskAddress,
  type SigningDeps,
  type SigningFacts,
  type SigningProblem,
  type SigningResult,
  signingStage,
  viewForSigning,
} from './signing';

// What a signer's link shows, drawn by the contact's page and again after a signing form post.

export interface SigningRouteDeps extends SigningDeps {
  previews: DocumentPreviews;
}

/** What a refused form post puts back on the page: the problem, and what the signer had sent. */
export interface SignerPageExtra {
  problem?: SigningProblem;
  triesLeft?: number;
  typedName?: string;
  drawing?: string;
  consented?: boolean;
}

/**
 * What a signer's link shows: for multisigning first the questionnaire (its first signer answers it, the
 * others wait), then, while its report is made, a page that refreshes itself; then the signing page.
 */
export function signerPage(
  deps: SigningRouteDeps,
  kit: PageKit,
  page: ContactPage,
  ctx: PageContext,
  view: OpenAction,
  facts: SigningFacts,
  extra: SignerPageExtra = {},
): Promise<Page> | Page {
  const signer = view.signer!;
  if (view.action.type === 'multisigning' && (!view.session || view.action.status === 'reopened')) {
    if (signer.position !== 0)
      return signingWaitPage(view, ctx, { kind: 'questionnaire', by: facts.answeredBy ?? '' }, extra.problem);
    return kit.questionnairePage(page.query, ctx, view);
  }
  if (view.session?.documentsPending) return signingWaitPage(view, ctx, { kind: 'preparing' }, extra.problem);
  return signingPageFor(deps, kit, page, ctx, view, facts, extra);
}

/** The signing page of a signer at `stage`, with the document's pages. */
async function signingPageFor(
  deps: SigningRouteDeps,
  kit: PageKit,
  page: ContactPage,
  ctx: PageContext,
  view: OpenAction,
  facts: SigningFacts,
  extra: SignerPageExtra = {},
): Promise<Page> {
  if (view.action.status === 'completed')
    return signedDonePage(view, ctx, facts.signed ? `/action/${ctx.code}/signed` : undefined);
  const doc = facts.document;
  if (!doc) throw new NotFound('The document to sign is gone');
  const title = doc.title;
  const respondent = kit.respondentOf(page.req);
  const stage = signingStage(view, respondent, deps.clock.now());
  if (page.query.step === 'decline' && view.signer?.status === 'pending')
    return declinePage(view, ctx, title, {
      needsCode: declineNeedsCode(view, view.signer, respondent, deps.clock.now()),
    });
  const preview = await deps.previews.factsOf(doc);
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

/** After a form post: the page again with the problem (400), or back to the page (303). */
export async function afterSigningPost(
  deps: SigningRouteDeps,
  kit: PageKit,
  page: ContactPage,
  result: SigningResult,
  sent: Omit<SignerPageExtra, 'problem' | 'triesLeft'> = {},
): Promise<Page | { redirect: string }> {
  const stop = await kit.gate(page.req, page.res, result.view);
  if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
  const ctx = kit.contextOf(page, result.view);
  const back = { redirect: `/action/${ctx.code}?lang=${ctx.lang}#${RESULT}` };
  if (!result.problem || result.problem === 'closed') return back;
  // The page is drawn as it is now (after a wrong code, with the try counted).
  const again = await viewForSigning(deps, ctx.code, kit.respondentOf(page.req), false);
  if (again.view.outcome !== 'ok' || !again.facts) return back;
  return signerPage(deps, kit, page, ctx, again.view, again.facts, {
    problem: result.problem,
    triesLeft: result.triesLeft,
    ...sent,
  });
}
