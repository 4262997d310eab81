import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { createSessionRequest } from './create.service';
import {
  CreateSessionRequest,
  ListSessionRequestsQuery,
  ReopenSessionRequest,
  SessionRequestDetail,
  SessionRequestList,
} from './sessionrequests.schemas';
import {
  deactivateSessionRequest,
  getSessionRequest,
  listSessionRequests,
  reopenSessionRequest,
  type SessionRequestDeps,
} from './sessionrequests.service';

const Params = z.object({ actionId: idParam('actionId') });
const tags = ['Session requests (actions)'];

export function sessionRequestRoutes(routes: Routes, deps: SessionRequestDeps): void {
  routes.add(
    {
      method: 'post',
      path: '/sessionrequests',
      summary: 'Create an action for a contact; optionally send the invitation by e-mail and/or SMS',
      description:
        'Answers 201 at once: the invitation is queued in the same transaction and the action is `sent`; its delivery is tracked in `notifications`. Without an invitation the action is `created` and its url can be shared by other means.',
      tags,
      permission: 'create',
      body: CreateSessionRequest,
      status: 201,
      response: SessionRequestDetail,
    },
    ({ ctx, body }) => createSessionRequest(deps, ctx, body),
  );
  routes.add(
    {
      method: 'get',
      path: '/sessionrequests',
      summary: 'List actions, newest first (or oldest change first with updatedSince), paginated',
      tags,
      permission: 'read',
      query: ListSessionRequestsQuery,
      response: SessionRequestList,
    },
    ({ ctx, query }) => listSessionRequests(deps, ctx, query),
  );
  routes.add(
    {
      method: 'get',
      path: '/sessionrequests/{actionId}',
      summary: 'Get an action with its notifications and status history',
      tags,
      permission: 'read',
      params: Params,
      response: SessionRequestDetail,
    },
    ({ ctx, params }) => getSessionRequest(deps, ctx, params.actionId),
  );
  routes.add(
    {
      method: 'post',
      path: '/sessionrequests/{actionId}/reopen',
      summary: 'Reopen a completed action so the contact can make corrections',
      description:
        'Only a completed action can be reopened (otherwise 409, whose `details` names the current `status`). Nothing is sent unless the optional body asks for it.',
      tags,
      permission: 'update',
      params: Params,
      body: ReopenSessionRequest,
      optionalBody: true,
      response: SessionRequestDetail,
      errors: [409],
    },
    ({ ctx, params, body }) => reopenSessionRequest(deps, ctx, params.actionId, body),
  );
  routes.add(
    {
      method: 'post',
      path: '/sessionrequests/{actionId}/deactivate',
      summary: 'Withdraw an open action immediately; its link stops working at once',
      description:
        'Only an open action (created, sent, opened, reopened) can be withdrawn; otherwise 409, whose `details` names the current `status`.',
      tags,
      permission: 'update',
      params: Params,
      response: SessionRequestDetail,
      errors: [409],
    },
    ({ ctx, params }) => deactivateSessionRequest(deps, ctx, params.actionId),
  );
}
