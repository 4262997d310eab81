// The desk's views of the actions ("what needs me"): the start page shows the first few of each, the
// actions' list all of one. Both read them through the same filters.
import type { DeskView } from '../../i18n/desk';
import type { RequestContext } from '../../platform/kernel/context';
import { awaitingStatuses, type DeskFilter } from '../sessionrequests';

const DAY = 24 * 60 * 60 * 1000;

/** How soon an open action's end counts as "soon". */
export const EXPIRING_WITHIN_DAYS = 3;

/** The filter of a view at `now`; `mine`: only the actions the signed-in user made. */
export function deskFilterOf(view: DeskView | undefined, ctx: RequestContext, mine: boolean): DeskFilter {
  const now = ctx.at.getTime();
  const scope: DeskFilter = mine && ctx.userId ? { createdBy: ctx.userId } : {};
  switch (view) {
    case 'waiting':
      return { ...scope, statuses: [...awaitingStatuses] };
    case 'expiring':
      return { ...scope, expiringBefore: new Date(now + EXPIRING_WITHIN_DAYS * DAY) };
    case 'declined':
      return { ...scope, statuses: ['declined'], closedSince: new Date(now - 30 * DAY) };
    case 'failed':
      return { ...scope, failedDelivery: true };
    case 'completed':
      return { ...scope, statuses: ['completed'], completedSince: new Date(now - 7 * DAY) };
    default:
      return scope;
  }
}
