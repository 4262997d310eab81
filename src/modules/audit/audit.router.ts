import type { Routes } from '../../platform/http/routes';
import { AuditEventList, ListAuditEventsQuery } from './audit.schemas';
import { type AuditDeps, listAuditEvents } from './audit.service';

/** Administrators read who changed what (the audit trail). */
export function auditRoutes(routes: Routes, deps: AuditDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/audit-events',
      summary: 'The audit trail: who changed what, when, through which credentials',
      description:
        'Every change to the organisation’s records, newest first, each recorded in the same transaction as its change: who (actor type, user, API key or OAuth client, the system’s part), what (action, target, the changed fields — secrets only as set/replaced, contacts’ data and answers only by key or count), when, from which address, under which request id. Filters combine; page with `startingAfter` = the previous page’s `nextCursor`. See docs/api.md#audit-trail-permission-admin.',
      tags: ['Admin: audit'],
      permission: 'admin',
      query: ListAuditEventsQuery,
      response: AuditEventList,
    },
    ({ ctx, query }) => listAuditEvents(deps, ctx, query),
  );
}
