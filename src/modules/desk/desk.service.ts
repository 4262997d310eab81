import type { NotifyChoice } from '../../db/schema/enums';
import type { Language } from '../../i18n/languages';
import { staffLanguage } from '../../i18n/staff';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import { type RequestContext, requestLanguages } from '../../platform/kernel/context';
import type { StaffPageFrame } from '../../platform/web/staff-layout';
import { allUsers, setUserPreferences, userById } from '../organisations';

export interface DeskDeps {
  database: Database;
  clock: Clock;
  /** The organisation's time zone: every time on a staff page is shown in it, named. */
  timeZone: string;
}

/**
 * What every signed-in staff page is drawn with: the user as the bar shows them, the page's CSRF token,
 * the user's language (their choice, else their browser's) and the organisation's time zone.
 */
export async function staffFrameOf(
  deps: DeskDeps,
  ctx: RequestContext,
  csrf: string,
): Promise<StaffPageFrame> {
  const user = await inTenant(deps.database, ctx, (tx) => userById(tx, ctx, ctx.userId ?? ''));
  return {
    me: { name: user?.name ?? '', administrator: ctx.permissions.has('admin') },
    csrf,
    lang: staffLanguage(user?.language, requestLanguages()),
    zone: deps.timeZone,
  };
}

/** The organisation's users by id, as pages name them: a person, or an integration's account. */
export async function peopleOf(
  deps: DeskDeps,
  ctx: RequestContext,
): Promise<Map<string, { name: string; kind: 'staff' | 'service' }>> {
  const users = await inTenant(deps.database, ctx, (tx) => allUsers(tx, ctx));
  return new Map(users.map((u) => [u.id, { name: u.name, kind: u.kind }]));
}

/** The signed-in user's own settings, as the settings page shows them. */
export async function settingsOf(deps: DeskDeps, ctx: RequestContext) {
  const user = await inTenant(deps.database, ctx, (tx) => userById(tx, ctx, ctx.userId ?? ''));
  return { language: user?.language ?? null, notify: user?.notify ?? 'each' };
}

/** Saves the signed-in user's own settings: the pages' language (null: the browser's) and notifications. */
export async function saveSettings(
  deps: DeskDeps,
  ctx: RequestContext,
  change: { language: Language | null; notify: NotifyChoice },
): Promise<void> {
  await inTenant(deps.database, ctx, (tx) => setUserPreferences(tx, ctx, ctx.userId ?? '', change));
}
