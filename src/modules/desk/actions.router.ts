import { sessionRequestStatuses } from '../../db/schema/enums';
import type { RequestContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/schemas';
import type { FileStorage } from '../../platform/storage';
import { z } from '../../platform/zod';
import {
  actionPage,
  actionsPage,
  contactName,
  contactPage,
  contactsPage,
  type DeskFrame,
} from '../../web/staff-desk-pages';
import { staffErrorPage } from '../../web/staff-layout';
import { getCustomer, getCustomersById, listCustomers } from '../customers';
import { listQuestionLists } from '../questionlists';
import {
  deactivateSessionRequest,
  getSessionRequest,
  listSessionRequests,
  reopenSessionRequest,
  type SessionRequestDeps,
} from '../sessionrequests';
import { listSessions } from '../sessions';
import { type DeskDeps, staffUserOf } from './desk.service';

export type DeskPageDeps = DeskDeps & SessionRequestDeps & { storage: FileStorage };

const PAGE = 25;
const pageParam = z
  .string()
  .max(7)
  .optional()
  .transform((p) => Math.min(Math.max(Number.parseInt(p ?? '1', 10) || 1, 1), 100_000));

const notices: Record<string, string> = {
  withdrawn: 'The action was withdrawn: its link no longer works.',
  reopened: 'The action is open again.',
};

/** The advisers' everyday pages: actions (list, filter, search, one action) and contacts. */
export function deskPageRoutes(routes: Routes, deps: DeskPageDeps): void {
  const common = { audience: 'staff' as const, errorPage: staffErrorPage };
  const frame = async (ctx: RequestContext, csrf: string): Promise<DeskFrame> => ({
    me: await staffUserOf(deps, ctx),
    csrf,
  });
  /** The contacts' names by id, in one query (a page of actions names up to 25). */
  const names = async (ctx: RequestContext, ids: string[]) => {
    const found = await getCustomersById(deps, ctx, ids);
    const out: Record<string, string> = {};
    for (const id of ids) {
      const c = found.get(id);
      out[id] = c ? contactName(c.data) : '(deleted contact)';
    }
    return out;
  };

  routes.staffPage(
    {
      ...common,
      tags: ['Staff pages: actions'],
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
      const list = await listSessionRequests(deps, ctx, { status, search: q, page: query.page, limit: PAGE });
      const who = await names(
        ctx,
        list.sessionRequests.flatMap((a) => (a.customerId ? [a.customerId] : [])),
      );
      return {
        status: 200,
        html: actionsPage(await frame(ctx, csrf()), {
          rows: list.sessionRequests.map((a) => ({
            ...a,
            contact: a.customerId ? (who[a.customerId] ?? '') : 'Campaign',
          })),
          total: list.total,
          page: query.page,
          limit: PAGE,
          status,
          q,
        }),
      };
    },
  );

  const ActionParams = z.object({ id: idParam('id') });
  const showAction = async (
    ctx: RequestContext,
    id: string,
    csrf: string,
    extra: { status?: number; notice?: string; error?: string } = {},
  ) => {
    const action = await getSessionRequest(deps, ctx, id);
    const templates = await listQuestionLists(deps, ctx, true);
    const who = await names(ctx, [
      ...(action.customerId ? [action.customerId] : []),
      ...action.signers.map((s) => s.customerId),
    ]);
    const sessions = await listSessions(deps, ctx, { sessionRequestId: id, page: 1, limit: 20 });
    return {
      status: extra.status ?? 200,
      html: actionPage(await frame(ctx, csrf), {
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
  };

  routes.staffPage(
    {
      ...common,
      tags: ['Staff pages: actions'],
      path: '/staff/actions/{id}',
      summary: 'One action: status, history, notifications, answers, documents; reopen and withdraw',
      permission: 'read',
      params: ActionParams,
      query: z.object({ done: z.string().max(20).optional() }),
      statuses: { 200: 'The action', 303: 'Not signed in', 404: 'Unknown action' },
    },
    async ({ ctx, params, query, csrf }) =>
      showAction(ctx, params.id, csrf(), { notice: notices[query.done ?? ''] }),
  );

  const change = (
    path: 'withdraw' | 'reopen',
    summary: string,
    run: (ctx: RequestContext, id: string, form: { email?: string }) => Promise<unknown>,
  ) =>
    routes.staffPage(
      {
        ...common,
        tags: ['Staff pages: actions'],
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
            return showAction(ctx, params.id, csrf(), { status: err.status, error: err.message });
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

  routes.staffPage(
    {
      ...common,
      tags: ['Staff pages: contacts'],
      path: '/staff/contacts',
      summary: 'Contacts, searched by name or e-mail',
      permission: 'read',
      query: z.object({ q: z.string().max(200).optional(), page: pageParam }),
      statuses: { 200: 'The list', 303: 'Not signed in' },
    },
    async ({ ctx, query, csrf }) => {
      const q = query.q?.trim() || undefined;
      const list = await listCustomers(deps, ctx, { search: q, page: query.page, limit: PAGE });
      return {
        status: 200,
        html: contactsPage(await frame(ctx, csrf()), {
          rows: list.customers,
          total: list.total,
          page: query.page,
          limit: PAGE,
          q,
        }),
      };
    },
  );

  routes.staffPage(
    {
      ...common,
      tags: ['Staff pages: contacts'],
      path: '/staff/contacts/{id}',
      summary: 'A contact: data and actions',
      permission: 'read',
      params: ActionParams,
      statuses: { 200: 'The contact', 303: 'Not signed in', 404: 'Unknown contact' },
    },
    async ({ ctx, params, csrf }) => {
      const contact = await getCustomer(deps, ctx, params.id);
      const actions = await listSessionRequests(deps, ctx, { customerId: contact._id, page: 1, limit: 50 });
      return {
        status: 200,
        html: contactPage(await frame(ctx, csrf()), { contact, actions: actions.sessionRequests }),
      };
    },
  );
}
