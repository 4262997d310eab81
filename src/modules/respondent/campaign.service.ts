import { randomBytes } from 'node:crypto';
import { newId } from '../../platform/kernel/ids';
import { contactByEmail, contactKeys, insertContact } from '../customers';
import { defaultPortfolio, portfolioById } from '../portfolios';
import { isOpen } from '../sessionrequests';
import type { AnswerIssue } from './answers';
import { campaignVisitorRepository } from './campaign.repository';
import { hashVisitorToken, type RespondentDeps, withAction } from './respondent.service';
import type { RespondentView } from './respondent.view';

/** What a campaign visitor gives on the first page. */
export interface VisitorDetails {
  firstName: string;
  lastName: string;
  email: string;
}
export const visitorFields = ['firstName', 'lastName', 'email'] as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function problemsOf(d: VisitorDetails): AnswerIssue[] {
  const issues: AnswerIssue[] = [];
  for (const field of visitorFields) {
    const value = d[field];
    if (value === '') issues.push({ questionId: field, problem: 'required' });
    else if (value.length > (field === 'email' ? 254 : 100))
      issues.push({ questionId: field, problem: 'length' });
    else if (field === 'email' && !EMAIL.test(value)) issues.push({ questionId: field, problem: 'email' });
  }
  return issues;
}

export interface StartResult {
  view: RespondentView;
  issues: AnswerIssue[];
  /** The new visitor's token, for this browser's cookie; only its hash is stored. */
  token?: string;
}

/**
 * Starts a campaign for a new visitor: the contact of the campaign's portfolio with this e-mail (any
 * case), or a new one; then a visitor with an empty draft, bound to a fresh 256-bit token. A matched
 * contact's data is not changed: whoever types an address must not be able to rename its contact.
 */
export async function startVisitor(
  deps: RespondentDeps,
  rawCode: string,
  details: VisitorDetails,
): Promise<StartResult> {
  let issues: AnswerIssue[] = [];
  let token: string | undefined;
  const { view } = await withAction(deps, rawCode, { open: true, respondent: {} }, async (tx, ctx, found) => {
    if (found.action.type !== 'campaign' || !isOpen(found.action.status)) return;
    issues = problemsOf(details);
    if (issues.length > 0) return;
    const now = deps.clock.now();
    // The campaign's portfolio, or the default one when none was named (or it has since gone).
    const portfolio =
      (found.action.portfolioId ? await portfolioById(tx, ctx, found.action.portfolioId) : undefined) ??
      (await defaultPortfolio(tx, ctx));
    if (!portfolio) throw new Error(`organisation ${ctx.organisationId} has no default portfolio`);
    const contact =
      (await contactByEmail(tx, ctx, portfolio.id, details.email)) ??
      (await insertContact(
        tx,
        ctx,
        {
          portfolioId: portfolio.id,
          thirdpartyId: null,
          data: {
            [contactKeys.firstName]: details.firstName,
            [contactKeys.lastName]: details.lastName,
            [contactKeys.email]: details.email,
          },
        },
        now,
      ));
    const fresh = randomBytes(32).toString('base64url');
    await campaignVisitorRepository(tx, ctx).insert({
      id: newId(now.getTime()),
      sessionRequestId: found.action.id,
      tokenHash: hashVisitorToken(fresh),
      customerId: contact.id,
      draft: {},
      submittedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    token = fresh;
  });
  return { view, issues, token };
}
