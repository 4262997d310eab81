import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import {
  CreateQuestionList,
  ListQuestionListsQuery,
  QuestionList,
  QuestionListSummary,
  UpdateQuestionList,
} from './questionlists.schemas';
import {
  createQuestionList,
  getQuestionList,
  pageOfQuestionLists,
  type QuestionListDeps,
  updateQuestionList,
} from './questionlists.service';

const Params = z.object({ questionListId: idParam('questionListId') });
const tags = ['Question lists'];

export function questionListRoutes(routes: Routes, deps: QuestionListDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/questionlists',
      summary: 'List the organisation’s active questionnaire templates (a bare array)',
      description:
        'In name order. Paged by cursor with `limit`, `startingAfter` or `updatedSince` (docs/api.md#the-other-lists): the array is then one page (newest first, or with `updatedSince` oldest change first), and the headers `Has-More` (`true`/`false`), `Next-Cursor` (pass as `startingAfter`) and `Link` (`rel="next"`) say how to go on.',
      tags,
      permission: 'read',
      query: ListQuestionListsQuery,
      response: z.array(QuestionListSummary).meta({ id: 'QuestionListSummaries' }),
    },
    async ({ ctx, query, req, res }) => {
      const page = await pageOfQuestionLists(deps, ctx, {
        ...query,
        includeInactive: query.includeInactive === 'true',
      });
      if (
        query.limit !== undefined ||
        query.startingAfter !== undefined ||
        query.updatedSince !== undefined
      ) {
        res.setHeader('Has-More', String(page.hasMore));
        if (page.nextCursor) {
          res.setHeader('Next-Cursor', page.nextCursor);
          const next = new URLSearchParams({
            ...(query.includeInactive ? { includeInactive: query.includeInactive } : {}),
            ...(query.limit !== undefined ? { limit: String(query.limit) } : {}),
            startingAfter: page.nextCursor,
          });
          if (page.hasMore) res.setHeader('Link', `<${req.originalUrl.split('?')[0]}?${next}>; rel="next"`);
        }
      }
      return page.items;
    },
  );
  routes.add(
    {
      method: 'get',
      path: '/questionlists/{questionListId}',
      summary: 'Get a template with its sections and questions (active or not)',
      tags,
      permission: 'read',
      params: Params,
      response: QuestionList,
    },
    ({ ctx, params }) => getQuestionList(deps, ctx, params.questionListId),
  );
  routes.add(
    {
      method: 'post',
      path: '/questionlists',
      summary: 'Create a questionnaire template',
      description:
        'Rejected with 400 when the questions are inconsistent (repeated ids, a choice without options, a missing language, a condition on an unknown or later question). A slug already used gives 409.',
      tags,
      permission: 'admin',
      body: CreateQuestionList,
      status: 201,
      response: QuestionList,
      errors: [409],
    },
    ({ ctx, body }) => createQuestionList(deps, ctx, body),
  );
  routes.add(
    {
      method: 'patch',
      path: '/questionlists/{questionListId}',
      summary: 'Update a template; `active: false` withdraws it from the list and from new actions',
      description:
        'The whole template is re-checked after the change. Changing sections or supportedLanguages makes a new version; actions already sent keep the version they were sent with.',
      tags,
      permission: 'admin',
      params: Params,
      body: UpdateQuestionList,
      response: QuestionList,
      errors: [409],
    },
    ({ ctx, params, body }) => updateQuestionList(deps, ctx, params.questionListId, body),
  );
}
