import type { Database, Tx } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { inTenant } from '../../platform/db/tenant';
import { fromZodError } from '../../platform/http/validation';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, Conflict, NotFound } from '../../platform/kernel/errors';
import { newId } from '../../platform/kernel/ids';
import { iso } from '../../platform/kernel/schemas';
import { foldForSearch } from '../../platform/kernel/text';
import { z } from '../../platform/kernel/zod';
import { type WalkQuery, walking } from '../../platform/lists/cursor';
import { type QuestionListRow, questionListRepository } from './questionlists.repository';
import { checkQuestionList } from './questionlists.rules';
import type {
  CreateQuestionList,
  Language,
  QuestionList,
  QuestionListSummary,
  Section,
  UpdateQuestionList,
} from './questionlists.schemas';

export interface QuestionListDeps {
  database: Database;
  clock: Clock;
}

type SummaryRow = Omit<QuestionListRow, 'organisationId' | 'content'>;

function toSummary(row: SummaryRow): QuestionListSummary {
  return {
    _id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    supportedLanguages: row.supportedLanguages as Language[],
    hasReportSpec: row.hasReportSpec,
    active: row.active,
    version: row.version,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function toQuestionList(row: QuestionListRow): QuestionList {
  return { ...toSummary(row), sections: row.content.sections as Section[] };
}

const notFound = () => new NotFound('Question list not found');
const duplicateSlug = (slug: string, existingId?: string) =>
  new Conflict(`A question list with slug '${slug}' already exists`, [
    {
      field: 'slug',
      in: 'body',
      message: existingId ? `is already used by question list ${existingId}` : 'is already used',
      ...(existingId ? { value: existingId } : {}),
    },
  ]);

/** A slug from a name: "Intake Été 2026" → "intake-ete-2026". */
function slugOf(name: string): string {
  return foldForSearch(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}

function assertConsistent(supportedLanguages: Language[], sections: Section[]): void {
  const issues = checkQuestionList(supportedLanguages, sections);
  if (issues.length === 0) return;
  // The same 400 as a schema failure: one detail per problem, named by its path.
  throw fromZodError(
    new z.ZodError(
      issues.map((i) => ({ code: 'custom' as const, path: i.path, message: i.message, input: undefined })),
    ),
    'body',
  );
}

export async function listQuestionLists(
  deps: QuestionListDeps,
  ctx: RequestContext,
  includeInactive: boolean,
): Promise<QuestionListSummary[]> {
  return (await pageOfQuestionLists(deps, ctx, { includeInactive })).items;
}

/**
 * The templates (in name order), or one page of a walk by cursor (newest first, or the changed ones
 * with `updatedSince`). The list answers a bare array (spec 4.5): the cursor fields go in headers.
 */
export async function pageOfQuestionLists(
  deps: QuestionListDeps,
  ctx: RequestContext,
  query: { includeInactive: boolean } & WalkQuery,
) {
  const { walk, answer } = walking('questionlists', query, { includeInactive: query.includeInactive });
  const rows = await inTenant(deps.database, ctx, (tx) =>
    questionListRepository(tx, ctx).list(query.includeInactive, walk),
  );
  const { items, ...page } = answer(rows, rows.length);
  return { items: items.map(toSummary), hasMore: page.hasMore, nextCursor: page.nextCursor };
}

export async function getQuestionList(deps: QuestionListDeps, ctx: RequestContext, id: string) {
  const row = await inTenant(deps.database, ctx, (tx) => questionListRepository(tx, ctx).find(id));
  if (!row) throw notFound();
  return toQuestionList(row);
}

export async function createQuestionList(
  deps: QuestionListDeps,
  ctx: RequestContext,
  input: CreateQuestionList,
) {
  const slug = input.slug ?? slugOf(input.name);
  if (!slug) throw BadRequest.field('slug', 'is required: no slug can be derived from this name');
  assertConsistent(input.supportedLanguages, input.sections);
  try {
    return await inTenant(deps.database, ctx, async (tx) => {
      const lists = questionListRepository(tx, ctx);
      const existing = await lists.findBySlug(slug);
      if (existing) throw duplicateSlug(slug, existing.id);
      const now = deps.clock.now();
      const row = await lists.insert({
        id: newId(now.getTime()),
        name: input.name,
        slug,
        description: input.description,
        supportedLanguages: input.supportedLanguages,
        hasReportSpec: input.hasReportSpec,
        active: input.active,
        version: 1,
        content: { sections: input.sections },
        createdAt: now,
        updatedAt: now,
      });
      return toQuestionList(row);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'question_lists_org_slug_key')) throw duplicateSlug(slug);
    throw err;
  }
}

/** Applies a partial update and re-checks the whole template; new questions or languages make a new version. */
export async function updateQuestionList(
  deps: QuestionListDeps,
  ctx: RequestContext,
  id: string,
  input: UpdateQuestionList,
) {
  try {
    return await inTenant(deps.database, ctx, async (tx) => {
      const lists = questionListRepository(tx, ctx);
      const current = await lists.find(id, { forUpdate: true });
      if (!current) throw notFound();
      if (input.slug !== undefined && input.slug !== current.slug) {
        const existing = await lists.findBySlug(input.slug);
        if (existing) throw duplicateSlug(input.slug, existing.id);
      }
      const supportedLanguages = input.supportedLanguages ?? (current.supportedLanguages as Language[]);
      const sections = input.sections ?? (current.content.sections as Section[]);
      assertConsistent(supportedLanguages, sections);
      const questionsChanged =
        JSON.stringify(supportedLanguages) !== JSON.stringify(current.supportedLanguages) ||
        JSON.stringify(sections) !== JSON.stringify(current.content.sections);
      const row = await lists.update(current.id, {
        name: input.name ?? current.name,
        slug: input.slug ?? current.slug,
        description: input.description ?? current.description,
        hasReportSpec: input.hasReportSpec ?? current.hasReportSpec,
        active: input.active ?? current.active,
        supportedLanguages,
        content: { sections },
        version: questionsChanged ? current.version + 1 : current.version,
        updatedAt: deps.clock.now(),
      });
      if (questionsChanged) await lists.addVersion(row!);
      return toQuestionList(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'question_lists_org_slug_key')) throw duplicateSlug(input.slug ?? '');
    throw err;
  }
}

/**
 * The given versions of templates (`ids[i]` in version `versions[i]`), with their names and report
 * setting, in the order asked — what an action was sent with; a template since deleted is left out.
 */
export function templateVersions(tx: Tx, ctx: RequestContext, ids: string[], versions: number[]) {
  return questionListRepository(tx, ctx).versionsOf(ids, versions);
}
