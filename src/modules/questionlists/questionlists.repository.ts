import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { questionLists, questionListVersions } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import type { Tx } from '../../platform/db/database';
import { keysetColumnsOf, keysetSql } from '../../platform/db/keyset';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import type { Walk } from '../../platform/lists/cursor';

export type QuestionListRow = RowOf<typeof questionLists>;
type NewQuestionList = Omit<QuestionListRow, 'organisationId'>;

export function questionListRepository(q: Tx, ctx: RequestContext) {
  const org = eq(questionLists.organisationId, ctx.organisationId);
  return {
    async find(id: string, opts: { forUpdate?: boolean } = {}): Promise<QuestionListRow | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select()
        .from(questionLists)
        .where(and(org, eq(questionLists.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    async findBySlug(slug: string): Promise<{ id: string } | undefined> {
      const [row] = await q
        .select({ id: questionLists.id })
        .from(questionLists)
        .where(and(org, eq(questionLists.slug, slug)));
      return row;
    },
    /** Summaries (no questions) in name order; only active ones unless asked. */
    async list(includeInactive: boolean, walk: Walk | null = null) {
      const k = walk ? keysetSql(walk.keyset, keysetColumnsOf(questionLists)) : null;
      return q
        .select({
          id: questionLists.id,
          name: questionLists.name,
          slug: questionLists.slug,
          description: questionLists.description,
          supportedLanguages: questionLists.supportedLanguages,
          hasReportSpec: questionLists.hasReportSpec,
          active: questionLists.active,
          version: questionLists.version,
          createdAt: questionLists.createdAt,
          updatedAt: questionLists.updatedAt,
          changeTxid: questionLists.changeTxid,
        })
        .from(questionLists)
        .where(and(includeInactive ? org : and(org, eq(questionLists.active, true)), k?.where))
        .orderBy(...(k?.orderBy ?? [asc(questionLists.name), asc(questionLists.id)]))
        .limit(walk ? walk.limit + 1 : 100_000);
    },
    /** What an action needs to know of the templates it is sent with. */
    async findForAction(ids: string[]) {
      const valid = ids.filter(isId);
      if (valid.length === 0) return [];
      return q
        .select({
          id: questionLists.id,
          active: questionLists.active,
          version: questionLists.version,
          supportedLanguages: questionLists.supportedLanguages,
        })
        .from(questionLists)
        .where(and(org, inArray(questionLists.id, valid)));
    },
    /**
     * The given versions of templates (`ids[i]` in version `versions[i]`), with their names and report
     * setting, in the order asked; a template that no longer exists is left out.
     */
    async versionsOf(ids: string[], versions: number[]) {
      const valid = ids.filter(isId);
      if (valid.length === 0) return [];
      const rows = await q
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
              ...ids.map((id, i) =>
                and(
                  eq(questionListVersions.questionListId, id),
                  eq(questionListVersions.version, versions[i] ?? 1),
                ),
              ),
            ),
          ),
        );
      const byId = new Map(rows.map((r) => [r.listId, r]));
      return ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [row] : [];
      });
    },
    async insert(row: NewQuestionList): Promise<QuestionListRow> {
      const [inserted] = await q
        .insert(questionLists)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      await this.addVersion(inserted!);
      return inserted!;
    },
    async update(id: string, change: Partial<NewQuestionList>): Promise<QuestionListRow | undefined> {
      const [row] = await q
        .update(questionLists)
        .set(change)
        .where(and(org, eq(questionLists.id, id)))
        .returning();
      return row;
    },
    /** Records the row's current questions as its version (versions are never changed afterwards). */
    async addVersion(row: QuestionListRow): Promise<void> {
      await q.insert(questionListVersions).values({
        organisationId: ctx.organisationId,
        questionListId: row.id,
        version: row.version,
        supportedLanguages: row.supportedLanguages,
        content: row.content,
        createdAt: row.updatedAt,
      });
    },
  };
}
