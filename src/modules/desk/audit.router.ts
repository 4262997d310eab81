import { dayStartIn } from '../../i18n/dates';
import { sentenceWords } from '../../i18n/desk-audit-sentences';
import { staffWords } from '../../i18n/staff';
import type { Routes } from '../../platform/http/routes';
import { BadRequest } from '../../platform/kernel/errors';
import { z } from '../../platform/kernel/zod';
import { staffErrorPage } from '../../platform/web/staff-layout';
import { type AuditDeps, ListAuditEventsQuery, listAuditEvents } from '../audit';
import { auditScopeOf, auditSubjectsOf, type SessionRequestDeps } from '../sessionrequests';
import { storyOf } from './audit-story';
import { type DeskDeps, peopleOf, staffFrameOf } from './desk.service';
import { contactLabels } from './desk-pages';
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

const id = z
  .string()
  .max(100)
  .optional()
  .transform((v) => v?.trim() || undefined);

const AuditPageQuery = z.object({
  person: id,
  actorType: text(20),
  targetType: text(50),
  contact: id,
  action: id,
  since: day,
  until: day,
  requestId: text(200),
  startingAfter: text(200),
});
type AuditPageQuery = z.infer<typeof AuditPageQuery>;

/** The trail's own filters from the page's (dates are days in the organisation's zone). */
function trailQuery(query: AuditPageQuery, zone: string) {
  const nextDay = (d: string) =>
    new Date(Date.parse(`${d}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const filter = {
    actorUserId: query.person,
    actorType: query.actorType,
    targetType: query.targetType,
    requestId: query.requestId,
    since: query.since ? dayStartIn(query.since, zone).toISOString() : undefined,
    until: query.until
      ? new Date(dayStartIn(nextDay(query.until), zone).getTime() - 1).toISOString()
      : undefined,
    startingAfter: query.startingAfter,
    limit: '50',
  };
  const parsed = ListAuditEventsQuery.safeParse(
    Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BadRequest(`The filter ${String(issue?.path[0] ?? '')} is not valid: ${issue?.message ?? ''}`);
  }
  return parsed.data;
}

/**
 * Integrations → Audit trail (administrators): each change as a sentence, filtered by person, way,
 * kind of record, days and request; narrowed to one contact or one action from their pages.
 */
export function auditPageRoutes(routes: Routes, deps: AuditDeps & DeskDeps & SessionRequestDeps): void {
  routes.staffPage(
    {
      path: '/staff/audit',
      summary: 'The audit trail in sentences: who did what, when and from where (administrators)',
      description:
        'Query: `person` (a user id), `actorType`, `targetType`, `contact` or `action` (an id: that contact’s or action’s part of the trail), `since` and `until` (days in the organisation’s time zone), `requestId`, `startingAfter` (the next page’s cursor). 50 changes a page, newest first.',
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
      const frame = await staffFrameOf(deps, ctx, csrf());
      const scope =
        query.contact || query.action
          ? {
              targetIds: await auditScopeOf(deps, ctx, { customerId: query.contact, actionId: query.action }),
            }
          : undefined;
      const page = await listAuditEvents(deps, ctx, trailQuery(query, deps.timeZone), scope);
      const events = page.events;
      const subjects = await auditSubjectsOf(
        deps,
        ctx,
        [
          ...events.filter((e) => e.target.type === 'session_request').map((e) => e.target.id),
          ...(query.action ? [query.action] : []),
        ],
        events
          .filter((e) => e.target.type === 'signer' || e.target.type === 'session')
          .map((e) => e.target.id),
      );
      const contactIds = [
        ...events.filter((e) => e.target.type === 'customer').map((e) => e.target.id),
        ...[...subjects.parts.values(), ...subjects.actions.values()].flatMap((p) =>
          p.customerId ? [p.customerId] : [],
        ),
        ...(query.contact ? [query.contact] : []),
      ];
      const contact = await contactLabels(deps, ctx, contactIds);
      const people = await peopleOf(deps, ctx);
      const w = sentenceWords[frame.lang];
      const kinds = staffWords[frame.lang].kinds;
      const names = { people, contact, subjects };
      const shown = {
        person: query.person,
        actorType: query.actorType,
        targetType: query.targetType,
        contact: query.contact,
        action: query.action,
        since: query.since,
        until: query.until,
        requestId: query.requestId,
      };
      const kept = new URLSearchParams(
        Object.entries(shown).filter((e): e is [string, string] => e[1] !== undefined),
      ).toString();
      const actionTitle = query.action ? subjects.actions.get(query.action)?.title : undefined;
      return {
        status: 200,
        html: auditPage(frame, {
          lines: events.map((event) => ({ event, story: storyOf(event, names, w, kinds) })),
          people: [...people.entries()]
            .map(([pid, p]) => ({ id: pid, name: p.name }))
            .sort((a, b) => a.name.localeCompare(b.name)),
          about: {
            contact: query.contact ? (contact(query.contact) ?? w.deletedContact) : undefined,
            action: query.action ? (actionTitle ? w.quote(actionTitle) : w.nouns.session_request) : undefined,
          },
          filter: shown,
          query: kept,
          nextCursor: page.nextCursor,
          older: query.startingAfter !== undefined,
        }),
      };
    },
  );
}
