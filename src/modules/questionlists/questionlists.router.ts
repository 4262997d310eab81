import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/schemas';
import { z } from '../../platform/zod';
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
  listQuestionLists,
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
      tags,
      permission: 'read',
      query: ListQuestionListsQuery,
      response: z.array(QuestionListSummary),
    },
    ({ ctx, query }) => listQuestionLists(deps, ctx, query.includeInactive === 'true'),
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
