import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Language } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import { type RequestContext, systemContext } from '../../platform/context';
import { normaliseActionCode } from '../../platform/crypto/codes';
import { type Database, queryRows, type Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { newId } from '../../platform/ids';
import type { FileStorage } from '../../platform/storage';
import { organisationRepository } from '../admin/admin.repository';
import { customerRepository } from '../customers/customers.repository';
import { fileRepository } from '../files/files.repository';
import { sharedLanguages } from '../questionlists/questionlists.rules';
import { isOpen } from '../sessionrequests/sessionrequests.lifecycle';
import {
  type SessionRequestRow,
  sessionRequestRepository,
} from '../sessionrequests/sessionrequests.repository';
import { applyTransition, settleExpiry } from '../sessionrequests/sessionrequests.transitions';
import {
  type AnswerIssue,
  type Answers,
  checkAnswers,
  fromForm,
  isVisible,
  questionsOf,
  readable,
} from './answers';
import { loadQuestionnaire, type QuestionnairePart, type Step, stepsOf } from './questionnaire';
import { renderReport } from './report';
import { sessionRepository } from './sessions.repository';

export interface RespondentDeps {
  database: Database;
  clock: Clock;
  storage: FileStorage;
  timeZone: string;
}

export interface OpenAction {
  outcome: 'ok';
  action: SessionRequestRow;
  organisation: string;
  parts: QuestionnairePart[];
  steps: Step[];
  languages: Language[];
}
export type RespondentView = { outcome: 'unknown' } | { outcome: 'gone'; language: Language } | OpenAction;

const CONTACT = { actor: 'contact', userId: null } as const;

/**
 * Runs `fn` on the action behind a public code, locked, in its organisation. The code is the only
 * credential: an unknown code and a code of another organisation look the same; a withdrawn or
 * expired action is only "gone". A created or sent action is marked opened when `open` is set.
 */
async function withAction<T>(
  deps: RespondentDeps,
  rawCode: string,
  open: boolean,
  fn: (tx: Tx, ctx: RequestContext, view: OpenAction) => Promise<T>,
): Promise<{ view: RespondentView; result?: T }> {
  const code = normaliseActionCode(rawCode);
  if (!code) return { view: { outcome: 'unknown' } };
  const [hit] = await queryRows<{ organisation_id: string; session_request_id: string }>(
    deps.database.db,
    sql`SELECT organisation_id, session_request_id FROM actiondesk_find_action(${code})`,
  );
  if (!hit) return { view: { outcome: 'unknown' } };
  const now = deps.clock.now();
  const ctx = systemContext(hit.organisation_id, now);
  return inTenant(deps.database, ctx, async (tx) => {
    let action = await sessionRequestRepository(tx, ctx).find(hit.session_request_id, { forUpdate: true });
    if (!action) return { view: { outcome: 'unknown' } };
    action = await settleExpiry(deps, tx, ctx, action);
    if (action.status === 'deactivated' || action.status === 'expired')
      return { view: { outcome: 'gone', language: action.language } };
    if (open && (action.status === 'created' || action.status === 'sent')) {
      action = await applyTransition(deps, tx, ctx, action.id, 'open', CONTACT);
    }
    const parts = await loadQuestionnaire(tx, ctx, action);
    const view: OpenAction = {
      outcome: 'ok',
      action,
      organisation: (await organisationRepository(tx, ctx).find())?.name ?? '',
      parts,
      steps: stepsOf(parts),
      // The language switcher offers what every template of the action supports.
      languages: sharedLanguages(parts),
    };
    return { view, result: await fn(tx, ctx, view) };
  });
}

/** The action as the contact's page shows it (opening it on a GET). */
export async function viewAction(
  deps: RespondentDeps,
  rawCode: string,
  open: boolean,
): Promise<RespondentView> {
  return (await withAction(deps, rawCode, open, async () => undefined)).view;
}

export interface StepResult {
  view: RespondentView;
  /** Problems with the step's answers; nothing was saved when there are any. */
  issues: AnswerIssue[];
  /** The answers as sent, to show again next to the problems. */
  sent: Answers;
  saved: boolean;
}

/**
 * Saves one step's answers to the action's draft, checking types and options (and, when `complete`,
 * that the step's shown required questions are answered). Answers of hidden questions are dropped.
 */
export async function saveStep(
  deps: RespondentDeps,
  rawCode: string,
  stepIndex: number,
  form: Record<string, string[]>,
  complete: boolean,
): Promise<StepResult> {
  const sent: Answers = {};
  let issues: AnswerIssue[] = [];
  let saved = false;
  const { view } = await withAction(deps, rawCode, true, async (tx, ctx, found) => {
    const step = found.steps[stepIndex];
    if (!step || !isOpen(found.action.status)) return;
    const previous = (found.action.draft[step.part.listId] ?? {}) as Answers;
    const merged: Answers = { ...previous };
    for (const q of step.section.questions) {
      delete merged[q.id];
      const value = fromForm(q, form[`q.${q.id}`] ?? []);
      if (value !== undefined) {
        merged[q.id] = value;
        sent[q.id] = value;
      }
    }
    const checked = checkAnswers(step.part.sections, merged, { complete, sectionIds: [step.section.id] });
    issues = checked.issues;
    if (issues.length > 0) return;
    const draft = { ...found.action.draft, [step.part.listId]: checked.answers };
    await sessionRequestRepository(tx, ctx).saveDraft(found.action.id, draft, deps.clock.now());
    found.action.draft = draft;
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

export interface SubmitResult {
  view: RespondentView;
  /** The first step with a problem, and its problems, when the questionnaire is not complete. */
  incomplete?: { stepIndex: number; issues: AnswerIssue[] };
  sessionId?: string;
  /** The language the answers were recorded in. */
  language?: Language;
}

/**
 * Submits the draft: every shown required question answered, every answer valid. Creates (or, after a
 * reopen, updates — keeping the previous version) the session with readable responses in `language`,
 * renders the PDF report when a template asks for one, and completes the action, all in one transaction.
 */
export async function submitAnswers(
  deps: RespondentDeps,
  rawCode: string,
  askedLanguage: unknown,
): Promise<SubmitResult> {
  let incomplete: SubmitResult['incomplete'];
  let language: Language | undefined;
  let sessionId: string | undefined;
  let storedKey: string | undefined;
  try {
    const { view } = await withAction(deps, rawCode, true, async (tx, ctx, found) => {
      if (!isOpen(found.action.status)) return;
      const lang = respondentLanguage(askedLanguage, found);
      language = lang;
      const answers: Record<string, Answers> = {};
      for (const part of found.parts) {
        const checked = checkAnswers(part.sections, (found.action.draft[part.listId] ?? {}) as Answers, {
          complete: true,
        });
        if (checked.issues.length > 0 && !incomplete) {
          const first = checked.issues[0]!;
          const step = found.steps.find(
            (s) =>
              s.part.listId === part.listId && s.section.questions.some((q) => q.id === first.questionId),
          );
          incomplete = {
            stepIndex: step?.index ?? 0,
            issues: checked.issues.filter((i) => step?.section.questions.some((q) => q.id === i.questionId)),
          };
        }
        answers[part.listId] = checked.answers;
      }
      if (incomplete) return;
      const now = deps.clock.now();
      const customer = found.action.customerId
        ? await customerRepository(tx, ctx).find(found.action.customerId)
        : undefined;
      const reportSections: { title: string; items: { question: string; answer: string }[] }[] = [];
      const responses = found.parts.flatMap((part) => {
        const given = answers[part.listId] ?? {};
        const byId = questionsOf(part.sections);
        return part.sections.flatMap((section) => {
          const items = section.questions
            .filter((q) => isVisible(q, given, byId))
            .map((q) => ({ q, value: given[q.id] }));
          reportSections.push({
            title: section.title[lang] ?? section.id,
            items: items.map(({ q, value }) => ({
              question: q.title[lang] ?? q.id,
              answer: value === undefined ? '' : readable(q, value, lang),
            })),
          });
          return items
            .filter(({ value }) => value !== undefined)
            .map(({ q, value }) => ({
              questionListId: part.listId,
              questionId: q.id,
              questionTitle: q.title[lang] ?? q.id,
              response: readable(q, value!, lang),
              value,
            }));
        });
      });
      const documents = [];
      if (found.parts.some((p) => p.hasReportSpec)) {
        const contactName = customer
          ? [customer.data.Voornaam, customer.data.Achternaam].filter(Boolean).join(' ') ||
            customer.data.Email ||
            null
          : null;
        const pdf = await renderReport({
          organisation: found.organisation,
          contact: contactName,
          templates: found.parts.map((p) => p.name),
          submittedAt: now,
          language: lang,
          timeZone: deps.timeZone,
          sections: reportSections,
        });
        const fileId = newId(now.getTime());
        const fileName =
          `${found.parts.map((p) => p.name).join(' - ')} ${now.toISOString().slice(0, 10)}.pdf`.replace(
            /[/\\]/g,
            '-',
          );
        storedKey = `${ctx.organisationId}/${fileId}`;
        const stored = await deps.storage.put(storedKey, Readable.from([pdf]));
        await fileRepository(tx, ctx).insert({
          id: fileId,
          fileName,
          contentType: 'application/pdf',
          size: stored.size,
          sha256: stored.sha256,
          storageKey: storedKey,
          createdBy: null,
          createdAt: now,
        });
        documents.push({
          fileId,
          fileName,
          fileUrl: `/files/downloads/${fileId}/${encodeURIComponent(fileName)}`,
        });
      }
      const session = await sessionRepository(tx, ctx).submit(
        {
          sessionRequestId: found.action.id,
          customerId: found.action.customerId,
          language: lang,
          answers,
          responses,
          documents,
        },
        now,
        () => newId(now.getTime()),
      );
      await applyTransition(deps, tx, ctx, found.action.id, 'complete', CONTACT);
      sessionId = session.id;
    });
    return { view, incomplete, sessionId, language };
  } catch (err) {
    // The transaction rolled back: the report it stored must not stay behind.
    if (storedKey) await deps.storage.remove(storedKey).catch(() => undefined);
    throw err;
  }
}
