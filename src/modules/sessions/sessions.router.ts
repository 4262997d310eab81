import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { ListSessionsQuery, SessionDetail, SessionList } from './sessions.schemas';
import { getSession, listSessions, type SessionDeps } from './sessions.service';

const tags = ['Sessions'];

export function sessionRoutes(routes: Routes, deps: SessionDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/sessions',
      summary: 'List submitted sessions, newest first; filter by action or contact',
      tags,
      permission: 'read',
      query: ListSessionsQuery,
      response: SessionList,
    },
    ({ ctx, query }) => listSessions(deps, ctx, query),
  );
  routes.add(
    {
      method: 'get',
      path: '/sessions/{sessionId}',
      summary: 'Get a session: answers, generated documents and earlier versions',
      tags,
      permission: 'read',
      params: z.object({ sessionId: idParam('sessionId') }),
      response: SessionDetail,
    },
    ({ ctx, params }) => getSession(deps, ctx, params.sessionId),
  );
}
