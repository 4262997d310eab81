import { createHash } from 'node:crypto';
import { normaliseActionCode } from '../../platform/crypto/codes';
import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { FileStorage } from '../../platform/files/storage';
import type { Clock } from '../../platform/kernel/clock';
import { contactContext, type RequestContext } from '../../platform/kernel/context';
import { organisationBrand } from '../organisations';
import type { Language } from '../questionlists';
import { sharedLanguages } from '../questionlists';
import {
  type ActionHit,
  actionById,
  actionOfCode,
  changeSigner,
  isOpen,
  openSessionRequest,
  type SessionRequestRow,
  saveActionDraft,
  settleExpiry,
  signersOf,
} from '../sessionrequests';
import { type SessionRow, sessionOfAction } from '../sessions';
import {
  type AnswerIssue,
  type Answers,
  checkAnswers,
  draftOf,
  fromForm,
  noAnswers,
  storable,
  withDraft,
} from './answers';
import { campaignVisitorRepository, type VisitorRow } from './campaign.repository';
import { loadQuestionnaire, stepsOf } from './questionnaire';
import { needsVisitor, type OpenAction, type RespondentView } from './respondent.view';

export interface RespondentDeps {
  database: Database;
  clock: Clock;
  storage: FileStorage;
  timeZone: string;
  /** For links in the events the contact's actions write. */
  baseUrl: string;
}

/** Who is answering: for a campaign, the visitor token of this browser (from its cookie). */
export interface Respondent {
  visitorToken?: string;
  /** A signer's browser, once it has confirmed the one-time code (from its cookie). */
  signerToken?: string;
  /** Where the request came from, for a signer's audit trail. */
  client?: { ip: string | null; userAgent: string | null };
}

export const CONTACT = { actor: 'contact', userId: null } as const;

/** What is stored of a visitor token: its SHA-256 (the token has 256 random bits; no salt is needed). */
export const hashVisitorToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Runs `fn` on the action behind a public code, locked, in its organisation. The code is the only
 * credential: an unknown code and a code of another organisation look the same; a withdrawn or
 * expired action is only "gone". A created or sent action is marked opened when `open` is set.
 * For a campaign, the view carries the answers of this browser's visitor only. `read` says that `fn`
 * only reads: viewers of an opened action then hold a share lock and do not queue behind each other.
 */
export async function withAction<T>(
  deps: RespondentDeps,
  rawCode: string,
  opts: { open: boolean; respondent: Respondent; read?: boolean },
  fn: (tx: Tx, ctx: RequestContext, view: OpenAction) => Promise<T>,
): Promise<{ view: RespondentView; result?: T }> {
  const code = normaliseActionCode(rawCode);
  if (!code) return { view: { outcome: 'unknown' } };
  const hit = await actionOfCode(deps.database, code);
  if (!hit) return { view: { outcome: 'unknown' } };
  const ctx = contactContext(hit.organisationId, code, deps.clock.now());
  // An opened action whose viewers only read (or a campaign, whose visitors each work on their own
  // visitor row, locked) is held with a share lock: they proceed side by side, while a change of the
  // action waits for them. Anything that may change the action itself (opening it, recording its
  // expiry, a signer's first view) takes the row lock: under a share lock such a view starts again
  // with the row lock (two share holders that both wrote would deadlock). The lookup's status may be a
  // moment old: the row read under the lock decides.
  const shareable = hit.status === 'opened' && (hit.type === 'campaign' || opts.read === true);
  const first = await inAction(deps, ctx, hit, opts, shareable, fn);
  if (first !== AGAIN) return first;
  const again = await inAction(deps, ctx, hit, opts, false, fn);
  if (again === AGAIN) throw new Error('a view under the row lock asked for the row lock');
  return again;
}

/** What a view under a share lock answers when it has to write: start again with the row lock. */
const AGAIN = Symbol('again with the row lock');

async function inAction<T>(
  deps: RespondentDeps,
  ctx: RequestContext,
  hit: ActionHit,
  opts: { open: boolean; respondent: Respondent },
  shared: boolean,
  fn: (tx: Tx, ctx: RequestContext, view: OpenAction) => Promise<T>,
): Promise<{ view: RespondentView; result?: T } | typeof AGAIN> {
  return inTenant(deps.database, ctx, async (tx) => {
    const now = deps.clock.now();
    let action = await actionById(
      tx,
      ctx,
      hit.sessionRequestId,
      shared ? { forShare: true } : { forUpdate: true },
    );
    if (!action) return { view: { outcome: 'unknown' } };
    const expired = action.expiresAt !== null && action.expiresAt <= now;
    if (shared && action.type === 'campaign') {
      // Nothing is written under a share lock: an expiry that has passed is recorded by its job.
      if (!isOpen(action.status) || expired) return { view: { outcome: 'gone', language: action.language } };
    } else {
      const opening = opts.open && (action.status === 'created' || action.status === 'sent');
      if (shared && ((expired && isOpen(action.status)) || opening)) return AGAIN;
      action = await settleExpiry(deps, tx, ctx, action);
      if (action.status === 'deactivated' || action.status === 'expired' || action.status === 'declined')
        return {
          view: { outcome: 'gone', language: action.language, declined: action.status === 'declined' },
        };
      if (opening) action = await openSessionRequest(deps, tx, ctx, action.id, CONTACT);
    }
    const signing = action.type === 'quicksign' || action.type === 'multisigning';
    let signers = signing ? await signersOf(tx, ctx, action.id) : [];
    // An action's own code is its first signer's link.
    let signer = signers.find((s) => s.id === hit.signerId) ?? (signing ? signers[0] : undefined);
    if (signer && opts.open && !signer.openedAt && isOpen(action.status)) {
      if (shared) return AGAIN;
      const opened = await changeSigner(tx, ctx, signer.id, { openedAt: now }, now, [
        { step: 'opened', at: now.toISOString(), ...trailClient(opts.respondent) },
      ]);
      signers = signers.map((s) => (s.id === opened.id ? opened : s));
      signer = opened;
    }
    const token = opts.respondent.visitorToken;
    const visitor =
      action.type === 'campaign' && token
        ? await campaignVisitorRepository(tx, ctx).findByToken(action.id, hashVisitorToken(token))
        : undefined;
    const parts = await loadQuestionnaire(tx, ctx, action);
    // The action's own session (not a campaign visitor's): submitted answers, and whether their
    // documents are still being made.
    const session = action.type !== 'campaign' ? await sessionOfAction(tx, ctx, action.id) : undefined;
    const brand = await organisationBrand(tx, ctx);
    const view: OpenAction = {
      outcome: 'ok',
      action,
      visitor,
      organisation: brand.name,
      brand,
      parts,
      steps: stepsOf(parts),
      // The language switcher offers what every template of the action supports.
      languages: sharedLanguages(parts),
      draft: action.type === 'campaign' ? (visitor?.draft ?? {}) : action.draft,
      done: doneOf(action, visitor, session),
      session,
      signers,
      signer,
    };
    return { view, result: await fn(tx, ctx, view) };
  });
}

/**
 * Whether the respondent's part is done: the action completed; a campaign visitor submitted; a
 * questionnaire submitted whose report is being made; a multisigning questionnaire submitted (what
 * follows is signing).
 */
function doneOf(
  action: SessionRequestRow,
  visitor: VisitorRow | undefined,
  session: SessionRow | undefined,
): boolean {
  if (action.type === 'campaign') return Boolean(visitor?.submittedAt);
  if (action.status === 'completed') return true;
  if (action.type === 'qlist') return session?.documentsPending === true;
  return action.type === 'multisigning' && session !== undefined && action.status !== 'reopened';
}

/** The request's address and browser, for a signer's audit trail. */
export function trailClient(respondent: Respondent): { ip: string | null; userAgent: string | null } {
  return { ip: respondent.client?.ip ?? null, userAgent: respondent.client?.userAgent ?? null };
}

/** Whether the respondent may still change answers: the action is open and they have not submitted. */
export const canAnswer = (view: OpenAction): boolean =>
  isOpen(view.action.status) &&
  !view.done &&
  !needsVisitor(view) &&
  // A quicksign has nothing to answer; a multisigning questionnaire is answered by its first signer.
  view.action.type !== 'quicksign' &&
  (view.signer === undefined || view.signer.position === 0);

export interface StepResult {
  view: RespondentView;
  /** Problems with the step's answers; nothing was saved when there are any. */
  issues: AnswerIssue[];
  /** The answers as sent, to show again next to the problems. */
  sent: Answers;
  saved: boolean;
}

/**
 * Saves one step's answers to the draft (the action's, or the campaign visitor's), checking types and
 * options (and, when `complete`, that the step's shown required questions are answered). Answers of
 * hidden questions are dropped.
 */
export async function saveStep(
  deps: RespondentDeps,
  rawCode: string,
  respondent: Respondent,
  stepIndex: number,
  form: Map<string, string[]>,
  complete: boolean,
): Promise<StepResult> {
  const sent = noAnswers();
  let issues: AnswerIssue[] = [];
  let saved = false;
  const { view } = await withAction(deps, rawCode, { open: true, respondent }, async (tx, ctx, found) => {
    const step = found.steps[stepIndex];
    if (!step || !canAnswer(found)) return;
    const merged = draftOf(found.draft, step.part.listId);
    for (const q of step.section.questions) {
      delete merged[q.id];
      const value = fromForm(q, form.get(`q.${q.id}`) ?? []);
      if (value !== undefined) {
        merged[q.id] = value;
        sent[q.id] = value;
      }
    }
    const checked = checkAnswers(step.part.sections, merged, { complete, sectionIds: [step.section.id] });
    issues = checked.issues;
    if (issues.length > 0) return;
    const draft = storable(withDraft(found.draft, step.part.listId, checked.answers));
    const now = deps.clock.now();
    if (found.visitor) await campaignVisitorRepository(tx, ctx).saveDraft(found.visitor.id, draft, now);
    else await saveActionDraft(tx, ctx, found.action.id, draft, now);
    found.draft = draft;
    saved = true;
  });
  return { view, issues, sent, saved };
}

/** The page's language: the one asked for if every template has it, else the action's, else the first shared. */
export function respondentLanguage(asked: unknown, view: OpenAction): Language {
  if (typeof asked === 'string' && (view.languages as string[]).includes(asked)) return asked as Language;
  return view.languages.includes(view.action.language)
    ? view.action.language
    : (view.languages[0] ?? view.action.language);
}
