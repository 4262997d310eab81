import type { Routes } from '../../platform/http/routes';
import { BadRequest } from '../../platform/kernel/errors';
import { z } from '../../platform/kernel/zod';
import { staffErrorPage } from '../../platform/web/staff-layout';
import { type AuditDeps, ListAuditEventsQuery, listAuditEvents } from '../audit';
import { listUsers } from '../organisations';
import { type DeskDeps, staffFrameOf } from './desk.service';
import { auditPage } from './pages/audit.pages';

const text = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((v) => v?.trim() || undefined);
const day = z
  .string()
  .max(10)
  .optional()
  .refine((v) => !v || /^\d{4}-\d{2}-\d{2}$/.test(v), 'must be a date such as 2026-03-02')
  .transform((v) => v || undefined);

const AuditPageQuery = z.object({
  actorType: text(20),
  targetType: text(50),
  action: text(100),
  since: day,
  until: day,
  requestId: text(200),
  startingAfter: text(200),
});

/** Integrations → Audit trail: the organisation's audit trail for its administrators. */
export function auditPageRoutes(routes: Routes, deps: AuditDeps & DeskDeps): void {
  routes.staffPage(
    {
      path: '/staff/audit',
      summary: 'The audit trail: who changed what, when and from where (administrators)',
      description:
        'Query: `actorType`, `targetType`, `action`, `since` and `until` (dates, UTC), `requestId`, `startingAfter` (the next page’s cursor). 50 changes a page, newest first.',
      tags: ['Staff pages: administration'],
      audience: 'staff',
      errorPage: staffErrorPage,
      permission: 'admin',
      query: AuditPageQuery,
      statuses: {
        200: 'The page',
        303: 'Not signed in',
        400: 'A filter is not valid',
        403: 'Not an administrator',
      },
    },
    async ({ ctx, query, csrf }) => {
      const filter = {
        actorType: query.actorType,
        targetType: query.targetType,
        action: query.action,
        requestId: query.requestId,
        since: query.since ? `${query.since}T00:00:00.000Z` : undefined,
        until: query.until ? `${query.until}T23:59:59.999Z` : undefined,
        startingAfter: query.startingAfter,
        limit: '50',
      };
      const parsed = ListAuditEventsQuery.safeParse(
        Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)),
      );
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new BadRequest(
          `The filter ${String(issue?.path[0] ?? '')} is not valid: ${issue?.message ?? ''}`,
        );
      }
      const [page, users] = [await listAuditEvents(deps, ctx, parsed.data), await listUsers(deps, ctx)];
      const shown = {
        actorType: query.actorType,
        targetType: query.targetType,
        action: query.action,
        since: query.since,
        until: query.until,
        requestId: query.requestId,
      };
      const kept = new URLSearchParams(
        Object.entries(shown).filter((e): e is [string, string] => e[1] !== undefined),
      ).toString();
      return {
        status: 200,
        html: auditPage(await staffFrameOf(deps, ctx, csrf()), {
          events: page.events,
          names: new Map(users.users.map((u) => [u._id, u.name])),
          filter: shown,
          query: kept,
          nextCursor: page.nextCursor,
          older: query.startingAfter !== undefined,
        }),
      };
    },
  );
}
