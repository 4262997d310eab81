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
        'Newest first. Recorded in the same transaction as each change: sign-in providers (added, changed — the secret only as `replaced` —, removed) and the changes directory synchronisation makes to users. Page with `startingAfter` = the previous page’s `nextCursor`.',
      tags: ['Admin: audit'],
      permission: 'admin',
      query: ListAuditEventsQuery,
      response: AuditEventList,
    },
    ({ ctx, query }) => listAuditEvents(deps, ctx, query),
  );
}
