import { and, eq, or } from 'drizzle-orm';
import { type Language, questionLists, questionListVersions } from '../../db/schema';
import type { RequestContext } from '../../platform/context';
import type { Tx } from '../../platform/db/database';
import type { Section } from '../questionlists/questionlists.schemas';
import type { SessionRequestRow } from '../sessionrequests/sessionrequests.repository';

/** One template of an action, in the version the action was sent with. */
export interface QuestionnairePart {
  listId: string;
  name: string;
  hasReportSpec: boolean;
  supportedLanguages: Language[];
  sections: Section[];
}

/** One page of the respondent's questionnaire: a section of one template. */
export interface Step {
  index: number;
  part: QuestionnairePart;
  section: Section;
}

/** The action's templates, in the versions it was sent with, in the order it lists them. */
export async function loadQuestionnaire(
  tx: Tx,
  ctx: RequestContext,
  action: SessionRequestRow,
): Promise<QuestionnairePart[]> {
  if (action.questionListIds.length === 0) return [];
  const rows = await tx
    .select({
      listId: questionListVersions.questionListId,
      supportedLanguages: questionListVersions.supportedLanguages,
      content: questionListVersions.content,
      name: questionLists.name,
      hasReportSpec: questionLists.hasReportSpec,
    })
    .from(questionListVersions)
    .innerJoin(
      questionLists,
      and(
        eq(questionLists.organisationId, questionListVersions.organisationId),
        eq(questionLists.id, questionListVersions.questionListId),
      ),
    )
    .where(
      and(
        eq(questionListVersions.organisationId, ctx.organisationId),
        or(
          ...action.questionListIds.map((id, i) =>
            and(
              eq(questionListVersions.questionListId, id),
              eq(questionListVersions.version, action.questionListVersions[i] ?? 1),
            ),
          ),
        ),
      ),
    );
  const byId = new Map(rows.map((r) => [r.listId, r]));
  return action.questionListIds.flatMap((id) => {
    const r = byId.get(id);
    return r
      ? [
          {
            listId: id,
            name: r.name,
            hasReportSpec: r.hasReportSpec,
            supportedLanguages: r.supportedLanguages as Language[],
            sections: r.content.sections as Section[],
          },
        ]
      : [];
  });
}

export function stepsOf(parts: QuestionnairePart[]): Step[] {
  return parts
    .flatMap((part) => part.sections.map((section) => ({ part, section })))
    .map((s, index) => ({ ...s, index }));
}
