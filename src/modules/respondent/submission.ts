import { utcDay } from '../../i18n/dates';
import type { Language } from '../../i18n/languages';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import { newId } from '../../platform/kernel/ids';
import { contactById, contactName } from '../customers';
import { completeSessionRequest, recordActionEvents } from '../sessionrequests';
import { recordSubmission } from '../sessions';
import {
  type AnswerIssue,
  type Answers,
  answerOf,
  checkAnswers,
  draftOf,
  isVisible,
  questionsOf,
  readable,
  storable,
} from './answers';
import { campaignVisitorRepository } from './campaign.repository';
import { sessionReportJob } from './report.job';
import {
  CONTACT,
  canAnswer,
  type Respondent,
  type RespondentDeps,
  respondentLanguage,
  withAction,
} from './respondent.service';
import type { OpenAction, RespondentView } from './respondent.view';

export interface SubmitResult {
  view: RespondentView;
  /** The first step with a problem, and its problems, when the questionnaire is not complete. */
  incomplete?: { stepIndex: number; issues: AnswerIssue[] };
  sessionId?: string;
  /** The language the answers were recorded in. */
  language?: Language;
}

/** Every template's answers checked as complete; the first step with a problem, if any. */
function checkAll(found: OpenAction) {
  let incomplete: SubmitResult['incomplete'];
  const answers: Record<string, Answers> = Object.create(null);
  for (const part of found.parts) {
    const checked = checkAnswers(part.sections, draftOf(found.draft, part.listId), { complete: true });
    if (checked.issues.length > 0 && !incomplete) {
      const first = checked.issues[0]!;
      const step = found.steps.find(
        (s) => s.part.listId === part.listId && s.section.questions.some((q) => q.id === first.questionId),
      );
      incomplete = {
        stepIndex: step?.index ?? 0,
        issues: checked.issues.filter((i) => step?.section.questions.some((q) => q.id === i.questionId)),
      };
    }
    answers[part.listId] = checked.answers;
  }
  return { answers, incomplete };
}

/** The responses as the session shows them, and the report's sections, in `lang`. */
function responsesOf(found: OpenAction, answers: Record<string, Answers>, lang: Language) {
  const reportSections: { title: string; items: { question: string; answer: string }[] }[] = [];
  const responses = found.parts.flatMap((part) => {
    const given = answers[part.listId]!;
    const byId = questionsOf(part.sections);
    return part.sections.flatMap((section) => {
      const items = section.questions
        .filter((q) => isVisible(q, given, byId))
        .map((q) => ({ q, value: answerOf(given, q.id) }));
      reportSections.push({
        title: section.title[lang] ?? section.id,
        items: items.map(({ q, value }) => ({
          question: q.title[lang] ?? q.id,
          answer: value === undefined ? '' : readable(q, value, lang),
        })),
      });
      return items.flatMap(({ q, value }) =>
        value === undefined
          ? []
          : [
              {
                questionListId: part.listId,
                questionId: q.id,
                questionTitle: q.title[lang] ?? q.id,
                response: readable(q, value, lang),
                value,
              },
            ],
      );
    });
  });
  return { responses, reportSections };
}

/**
 * Submits the draft: every shown required question answered, every answer valid. Creates (or, after a
 * reopen, updates — keeping the previous version) the session with readable responses in `language`.
 * When a template asks for a PDF report (and always for multisigning, whose report is what is signed)
 * the report is made by a job queued here, outside the action's row lock; the session's documents, the
 * event `session.submitted` and (questionnaire) the completion come with it. Without a report they come
 * at once. A campaign visitor's submission gives that visitor their own session and leaves the campaign
 * open for the next visitor.
 */
export async function submitAnswers(
  deps: RespondentDeps,
  rawCode: string,
  respondent: Respondent,
  askedLanguage: unknown,
): Promise<SubmitResult> {
  let incomplete: SubmitResult['incomplete'];
  let language: Language | undefined;
  let sessionId: string | undefined;
  const { view } = await withAction(deps, rawCode, { open: true, respondent }, async (tx, ctx, found) => {
    if (!canAnswer(found)) return;
    const lang = respondentLanguage(askedLanguage, found);
    language = lang;
    const checked = checkAll(found);
    incomplete = checked.incomplete;
    if (incomplete) return;
    const now = deps.clock.now();
    const customerId = found.visitor?.customerId ?? found.action.customerId;
    const { responses, reportSections } = responsesOf(found, checked.answers, lang);
    const report = found.action.type === 'multisigning' || found.parts.some((p) => p.hasReportSpec);
    const session = await recordSubmission(
      tx,
      ctx,
      {
        sessionRequestId: found.action.id,
        customerId,
        visitorId: found.visitor?.id ?? null,
        language: lang,
        answers: storable(checked.answers),
        responses,
        documents: [],
        documentsPending: report,
      },
      now,
      () => newId(now.getTime()),
    );
    if (report) {
      const customer = customerId ? await contactById(tx, ctx, customerId) : undefined;
      const templates = found.parts.map((p) => p.name);
      await jobRepository(tx, ctx).enqueue(
        [
          sessionReportJob.job({
            subjectId: found.action.id,
            payload: {
              sessionId: session.id,
              version: session.version,
              language: lang,
              organisation: found.organisation,
              contact: contactName(customer?.data) || null,
              templates,
              submittedAt: now.toISOString(),
              fileName: `${templates.join(' - ')} ${utcDay(now)}.pdf`.replace(/[/\\]/g, '-'),
              sections: reportSections,
            },
            runAt: now,
          }),
        ],
        now,
      );
    } else {
      await recordActionEvents(deps, tx, ctx, found.action.id, ['session.submitted'], session.id);
    }
    if (found.visitor) {
      await campaignVisitorRepository(tx, ctx).markSubmitted(found.visitor.id, now);
    } else if (!report && found.action.type === 'qlist') {
      await completeSessionRequest(deps, tx, ctx, found.action.id, CONTACT);
    }
    sessionId = session.id;
  });
  return { view, incomplete, sessionId, language };
}
