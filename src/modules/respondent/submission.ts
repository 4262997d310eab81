import { Readable } from 'node:stream';
import type { RequestContext } from '../../platform/context';
import type { Tx } from '../../platform/db/database';
import { newId } from '../../platform/ids';
import { customerRepository } from '../customers';
import { fileRepository, recordFileEvents } from '../files';
import type { Language } from '../questionlists';
import { completeSessionRequest, recordActionEvents } from '../sessionrequests';
import { renderReport, sessionRepository } from '../sessions';
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
 * reopen, updates — keeping the previous version) the session with readable responses in `language`,
 * renders the PDF report when a template asks for one, and, in the same transaction, completes the
 * action through completeSessionRequest. A campaign visitor's submission gives that visitor their own
 * session and leaves the campaign open for the next visitor.
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
  const stored: { key?: string } = {};
  try {
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
      const documents = [];
      if (found.parts.some((p) => p.hasReportSpec)) {
        documents.push(await storeReport(deps, tx, ctx, found, { customerId, lang, reportSections }, stored));
      }
      const session = await sessionRepository(tx, ctx).submit(
        {
          sessionRequestId: found.action.id,
          customerId,
          visitorId: found.visitor?.id ?? null,
          language: lang,
          answers: storable(checked.answers),
          responses,
          documents,
        },
        now,
        () => newId(now.getTime()),
      );
      await recordActionEvents(deps, tx, ctx, found.action.id, ['session.submitted'], session.id);
      if (found.visitor) {
        await campaignVisitorRepository(tx, ctx).markSubmitted(found.visitor.id, now);
      } else {
        await completeSessionRequest(deps, tx, ctx, found.action.id, CONTACT);
      }
      sessionId = session.id;
    });
    return { view, incomplete, sessionId, language };
  } catch (err) {
    // The transaction rolled back: the report it stored must not stay behind.
    if (stored.key) await deps.storage.remove(stored.key).catch(() => undefined);
    throw err;
  }
}

/** Renders the PDF report, stores it and records it as a file of the organisation. */
async function storeReport(
  deps: RespondentDeps,
  tx: Tx,
  ctx: RequestContext,
  found: OpenAction,
  input: {
    customerId: string | null;
    lang: Language;
    reportSections: { title: string; items: { question: string; answer: string }[] }[];
  },
  stored: { key?: string },
) {
  const now = deps.clock.now();
  const customer = input.customerId ? await customerRepository(tx, ctx).find(input.customerId) : undefined;
  const data = customer?.data;
  const contactName = data
    ? [data.Voornaam, data.Achternaam].filter(Boolean).join(' ') || data.Email || null
    : null;
  const pdf = await renderReport({
    organisation: found.organisation,
    contact: contactName,
    templates: found.parts.map((p) => p.name),
    submittedAt: now,
    language: input.lang,
    timeZone: deps.timeZone,
    sections: input.reportSections,
  });
  const fileId = newId(now.getTime());
  const fileName =
    `${found.parts.map((p) => p.name).join(' - ')} ${now.toISOString().slice(0, 10)}.pdf`.replace(
      /[/\\]/g,
      '-',
    );
  const storageKey = `${ctx.organisationId}/${fileId}`;
  stored.key = storageKey;
  const written = await deps.storage.put(storageKey, Readable.from([pdf]));
  const file = await fileRepository(tx, ctx).insert({
    id: fileId,
    fileName,
    contentType: 'application/pdf',
    size: written.size,
    sha256: written.sha256,
    storageKey,
    createdBy: null,
    createdAt: now,
  });
  await recordFileEvents(tx, ctx, 'file.created', [file], now);
  return { fileId, fileName, fileUrl: `/files/downloads/${fileId}/${encodeURIComponent(fileName)}` };
}
