import { sessionRequestStatuses } from '../../db/schema/enums';
import type { FileStorage } from '../../platform/files/storage';
import type { Routes } from '../../platform/http/routes';
import type { RequestContext } from '../../platform/kernel/context';
import { AppError } from '../../platform/kernel/errors';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { contactLabel, getCustomersById } from '../customers';
import { listQuestionLists } from '../questionlists';
import {
  deactivateSessionRequest,
  getSessionRequest,
  listSessionRequests,
  reopenSessionRequest,
  type SessionRequestDeps,
} from '../sessionrequests';
import { listSessions } from '../sessions';
import { contactPageRoutes } from './contacts.router';
import type { DeskDeps } from './desk.service';
import { deskFrame, deskPage, PAGE_SIZE, pageParam } from './desk-pages';
import { actionPage, actionsPage } from './pages/desk.pages';

export type DeskPageDeps = DeskDeps & SessionRequestDeps & { storage: FileStorage };

const tags = ['Staff pages: actions'];
const ActionParams = z.object({ id: idParam('id') });

const notices: Record<string, string> = {
  withdrawn: 'The action was withdrawn: its link no longer works.',
  reopened: 'The action is open again.',
};

/** The advisers' everyday pages: actions (list, filter, search, one action), then contacts. */
export function deskPageRoutes(routes: Routes, deps: DeskPageDeps): void {
  actionListRoutes(routes, deps);
  actionRoutes(routes, deps);
  contactPageRoutes(routes, deps);
}

/** The contacts' names by id, in one query (a page of actions names up to 25). */
async function names(deps: DeskPageDeps, ctx: RequestContext, ids: string[]) {
  const found = await getCustomersById(deps, ctx, ids);
  const out: Record<string, string> = {};
  for (const id of ids) {
    const c = found.get(id);
    out[id] = c ? contactLabel(c.data) : '(deleted contact)';
  }
  return out;
}

/** The actions' list: newest first, filtered by status, searched by contact or document. */
function actionListRoutes(routes: Routes, deps: DeskPageDeps): void {
  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff/actions',
      summary: 'Actions: newest first, filtered by status, searched by contact or document',
      permission: 'read',
      query: z.object({
        status: z.enum(sessionRequestStatuses).or(z.literal('')).optional(),
        q: z.string().max(200).optional(),
        page: pageParam,
      }),
      statuses: { 200: 'The list', 303: 'Not signed in', 400: 'An unknown status' },
    },
    async ({ ctx, query, csrf }) => {
      const status = query.status || undefined;
      const q = query.q?.trim() || undefined;
      const list = await listSessionRequests(deps, ctx, {
        status,
        search: q,
        page: query.page,
        limit: PAGE_SIZE,
      });
      const who = await names(
        deps,
        ctx,
        list.sessionRequests.flatMap((a) => (a.customerId ? [a.customerId] : [])),
      );
      return {
        status: 200,
        html: actionsPage(await deskFrame(deps, ctx, csrf()), {
          rows: list.sessionRequests.map((a) => ({
            ...a,
            contact: a.customerId ? (who[a.customerId] ?? '') : 'Campaign',
          })),
          total: list.total,
          page: query.page,
          limit: PAGE_SIZE,
          status,
          q,
        }),
      };
    },
  );
}

/** One action's page: status, history, answers, documents, with a notice or the refusal of a change. */
async function showAction(
  deps: DeskPageDeps,
  ctx: RequestContext,
  id: string,
  csrf: string,
  extra: { status?: number; notice?: string; error?: string } = {},
) {
  const action = await getSessionRequest(deps, ctx, id);
  const templates = await listQuestionLists(deps, ctx, true);
  const who = await names(deps, ctx, [
    ...(action.customerId ? [action.customerId] : []),
    ...action.signers.map((s) => s.customerId),
  ]);
  const sessions = await listSessions(deps, ctx, { sessionRequestId: id, page: 1, limit: 20 });
  return {
    status: extra.status ?? 200,
    html: actionPage(await deskFrame(deps, ctx, csrf), {
      action,
      contact: action.customerId ? { id: action.customerId, name: who[action.customerId] ?? '' } : null,
      signerNames: who,
      templateNames: action.questionListIds.map((t) => templates.find((x) => x._id === t)?.name ?? t),
      sessions: [...sessions.sessions].sort((a, b) => b.version - a.version),
      notice: extra.notice,
      error: extra.error,
      canChange: ctx.permissions.has('update'),
    }),
  };
}

/** One action's page and its changes: withdraw it, reopen it. */
function actionRoutes(routes: Routes, deps: DeskPageDeps): void {
  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff/actions/{id}',
      summary: 'One action: status, history, notifications, answers, documents; reopen and withdraw',
      permission: 'read',
      params: ActionParams,
      query: z.object({ done: z.string().max(20).optional() }),
      statuses: { 200: 'The action', 303: 'Not signed in', 404: 'Unknown action' },
    },
    async ({ ctx, params, query, csrf }) =>
      showAction(deps, ctx, params.id, csrf(), { notice: notices[query.done ?? ''] }),
  );

  const change = (
    path: 'withdraw' | 'reopen',
    summary: string,
    run: (ctx: RequestContext, id: string, form: { email?: string }) => Promise<unknown>,
  ) =>
    routes.staffPage(
      {
        ...deskPage,
        tags,
        method: 'post',
        path: `/staff/actions/{id}/${path}`,
        summary,
        permission: 'update',
        params: ActionParams,
        form: z.object({ _csrf: z.string().max(300), email: z.literal('yes').optional() }),
        statuses: {
          303: 'Done: back to the action',
          404: 'Unknown action',
          409: 'Not possible in its state (named)',
        },
      },
      async ({ ctx, params, form, csrf }) => {
        try {
          await run(ctx, params.id, form);
          return {
            redirect: `/staff/actions/${params.id}?done=${path === 'withdraw' ? 'withdrawn' : 'reopened'}`,
          };
        } catch (err) {
          if (err instanceof AppError && (err.status === 409 || err.status === 400)) {
            return showAction(deps, ctx, params.id, csrf(), { status: err.status, error: err.message });
          }
          throw err;
        }
      },
    );
  change('withdraw', 'Withdraw an action (form post): its link stops working', (ctx, id) =>
    deactivateSessionRequest(deps, ctx, id),
  );
  change(
    'reopen',
    'Reopen a completed action (form post), optionally e-mailing the contact',
    (ctx, id, form) =>
      reopenSessionRequest(deps, ctx, id, form.email === 'yes' ? { notificationEmail: { send: true } } : {}),
  );
}
