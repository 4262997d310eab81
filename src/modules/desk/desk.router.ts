import { deskViews } from '../../i18n/desk';
import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/kernel/zod';
import { listSessionRequests, type SessionRequestDeps } from '../sessionrequests';
import type { DeskDeps } from './desk.service';
import { contactNames, deskFrame, deskPage } from './desk-pages';
import { deskFilterOf } from './desk-views';
import { homePage } from './pages/home.pages';

const tags = ['Staff pages'];

/** How many actions of each group the start page lists. */
const SHOWN = 5;

/** The staff start page: what needs the adviser, in five groups, each with its first few actions. */
export function deskRoutes(routes: Routes, deps: DeskDeps & SessionRequestDeps): void {
  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff',
      summary:
        'The staff start page: actions waiting, ending soon, declined, not delivered, completed this week',
      permission: 'read',
      query: z.object({ mine: z.literal('1').or(z.literal('')).optional() }),
      statuses: { 200: 'The start page', 303: 'Not signed in: to the sign-in page' },
    },
    async ({ ctx, query, csrf }) => {
      const mine = query.mine === '1';
      const lists = await Promise.all(
        deskViews.map((view) =>
          listSessionRequests(deps, ctx, { page: 1, limit: SHOWN, desk: deskFilterOf(view, ctx, mine) }),
        ),
      );
      const frame = await deskFrame(deps, ctx, csrf());
      const who = await contactNames(
        deps,
        ctx,
        lists.flatMap((l) => l.sessionRequests.flatMap((a) => (a.customerId ? [a.customerId] : []))),
        frame.lang,
      );
      const groups = Object.fromEntries(
        deskViews.map((view, i) => {
          const list = lists[i]!;
          return [
            view,
            {
              total: list.total,
              rows: list.sessionRequests.map((a) => ({ ...a, contact: who(a.customerId) })),
            },
          ];
        }),
      ) as Parameters<typeof homePage>[1]['groups'];
      return { status: 200, html: homePage(frame, { groups, mine }) };
    },
  );
}
