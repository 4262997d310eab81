import { sessionRequestStatuses } from '../../db/schema/enums';
import { deskViews } from '../../i18n/desk';
import { actionWords } from '../../i18n/desk-action';
import type { FileStorage } from '../../platform/files/storage';
import type { Routes } from '../../platform/http/routes';
import type { RequestContext } from '../../platform/kernel/context';
import { AppError } from '../../platform/kernel/errors';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { listQuestionLists } from '../questionlists';
import {
  deactivateSessionRequest,
  getSessionRequest,
  listSessionRequests,
  reopenSessionRequest,
  resendInvitation,
  type SessionRequestDeps,
} from '../sessionrequests';
import { listSessions } from '../sessions';
import { contactPageRoutes } from './contacts.router';
import { type DeskDeps, peopleOf } from './desk.service';
import { contactNames, deskFrame, deskPage, PAGE_SIZE, pageParam } from './desk-pages';
import { deskFilterOf } from './desk-views';
import { organisationPageRoutes } from './organisation.router';
import { actionPage } from './pages/action.pages';
import { actionsPage } from './pages/desk.pages';
import { settingsRoutes } from './settings.router';

export type DeskPageDeps = DeskDeps & SessionRequestDeps & { storage: FileStorage };

const tags = ['Staff pages: actions'];
const ActionParams = z.object({ id: idParam('id') });

/** What each change is called in the address it comes back to (`?done=`), which names its notice. */
const doneOf = { withdraw: 'withdrawn', reopen: 'reopened', resend: 'resent' } as const;
type Done = (typeof doneOf)[keyof typeof doneOf];
const dones: readonly string[] = Object.values(doneOf);

/**
 * The advisers' everyday pages: actions (list, filter, search, one action), then contacts, the user's
 * settings and (administrators) the organisation's.
 */
export function deskPageRoutes(routes: Routes, deps: DeskPageDeps): void {
  actionListRoutes(routes, deps);
  actionRoutes(routes, deps);
  contactPageRoutes(routes, deps);
  settingsRoutes(routes, deps);
  organisationPageRoutes(routes, deps);
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
        view: z.enum(deskViews).or(z.literal('')).optional(),
        mine: z.literal('1').or(z.literal('')).optional(),
        q: z.string().max(200).optional(),
        page: pageParam,
      }),
      statuses: { 200: 'The list', 303: 'Not signed in', 400: 'An unknown status or view' },
    },
    async ({ ctx, query, csrf }) => {
      const status = query.status || undefined;
      const view = query.view || undefined;
      const mine = query.mine === '1';
      const q = query.q?.trim() || undefined;
      const list = await listSessionRequests(deps, ctx, {
        status,
        search: q,
        page: query.page,
        limit: PAGE_SIZE,
        desk: deskFilterOf(view, ctx, mine),
      });
      const frame = await deskFrame(deps, ctx, csrf());
      const who = await contactNames(
        deps,
        ctx,
        list.sessionRequests.flatMap((a) => (a.customerId ? [a.customerId] : [])),
        frame.lang,
      );
      return {
        status: 200,
        html: actionsPage(frame, {
          rows: list.sessionRequests.map((a) => ({ ...a, contact: who(a.customerId) })),
          total: list.total,
          page: query.page,
          limit: PAGE_SIZE,
          filter: { status, view, mine, q },
        }),
      };
    },
  );
}

/** One action's page: status, timeline, answers, documents, with a notice or the refusal of a change. */
async function showAction(
  deps: DeskPageDeps,
  ctx: RequestContext,
  id: string,
  csrf: string,
  extra: { status?: number; done?: Done; error?: string } = {},
) {
  const action = await getSessionRequest(deps, ctx, id);
  const templates = await listQuestionLists(deps, ctx, true);
  const frame = await deskFrame(deps, ctx, csrf);
  const ids = [...(action.customerId ? [action.customerId] : []), ...action.signers.map((s) => s.customerId)];
  const who = await contactNames(deps, ctx, ids, frame.lang);
  const sessions = await listSessions(deps, ctx, { sessionRequestId: id, page: 1, limit: 20 });
  return {
    status: extra.status ?? 200,
    html: actionPage(frame, {
      action,
      contact: action.customerId ? { id: action.customerId, name: who(action.customerId) } : null,
      signerNames: Object.fromEntries(ids.map((c) => [c, who(c)])),
      people: await peopleOf(deps, ctx),
      templateNames: action.questionListIds.map((t) => templates.find((x) => x._id === t)?.name ?? t),
      sessions: [...sessions.sessions].sort((a, b) => b.version - a.version),
      notice: extra.done ? actionWords[frame.lang].notices[extra.done] : undefined,
      error: extra.error,
      canChange: ctx.permissions.has('update'),
    }),
  };
}

/** One action's page and its changes: withdraw it, reopen it, send its invitation again. */
function actionRoutes(routes: Routes, deps: DeskPageDeps): void {
  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff/actions/{id}',
      summary: 'One action: status, timeline, messages, answers, documents; resend, reopen and withdraw',
      permission: 'read',
      params: ActionParams,
      query: z.object({ done: z.string().max(20).optional() }),
      statuses: { 200: 'The action', 303: 'Not signed in', 404: 'Unknown action' },
    },
    async ({ ctx, params, query, csrf }) =>
      showAction(deps, ctx, params.id, csrf(), {
        done: dones.includes(query.done ?? '') ? (query.done as Done) : undefined,
      }),
  );

  const change = (
    path: 'withdraw' | 'reopen' | 'resend',
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
            redirect: `/staff/actions/${params.id}?done=${doneOf[path]}`,
          };
        } catch (err) {
          if (err instanceof AppError && (err.status === 409 || err.status === 400)) {
            return showAction(deps, ctx, params.id, csrf(), { status: err.status, error: err.message });
          }
          throw err;
        }
      },
    );
  change('resend', 'Send the invitation again (form post), now, to whoever has not answered', (ctx, id) =>
    resendInvitation(deps, ctx, id),
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
