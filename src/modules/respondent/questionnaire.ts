import type { Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';
import type { Language } from '../questionlists';
import { type Section, templateVersions } from '../questionlists';
import type { SessionRequestRow } from '../sessionrequests';
import type { QuestionnairePart, Step } from './respondent.view';

/** The action's templates, in the versions it was sent with, in the order it lists them. */
export async function loadQuestionnaire(
  tx: Tx,
  ctx: RequestContext,
  action: SessionRequestRow,
): Promise<QuestionnairePart[]> {
  const rows = await templateVersions(tx, ctx, action.questionListIds, action.questionListVersions);
  return rows.map((r) => ({
    listId: r.listId,
    name: r.name,
    hasReportSpec: r.hasReportSpec,
    supportedLanguages: r.supportedLanguages as Language[],
    sections: r.content.sections as Section[],
  }));
}

export function stepsOf(parts: QuestionnairePart[]): Step[] {
  return parts
    .flatMap((part) => part.sections.map((section) => ({ part, section })))
    .map((s, index) => ({ ...s, index }));
}
