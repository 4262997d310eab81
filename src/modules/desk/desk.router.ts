import type { Clock } from '../../platform/clock';
import type { RequestContext } from '../../platform/context';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Routes } from '../../platform/http/routes';
import { html } from '../../platform/web/html';
import { type StaffUser, staffErrorPage, staffLayout } from '../../web/staff-layout';
import { userById } from '../admin';

export interface DeskDeps {
  database: Database;
  clock: Clock;
}

const tags = ['Staff pages'];

/** The signed-in user as the page frame shows them. */
export async function staffUserOf(deps: DeskDeps, ctx: RequestContext): Promise<StaffUser> {
  const user = await inTenant(deps.database, ctx, (tx) => userById(tx, ctx, ctx.userId ?? ''));
  return { name: user?.name ?? '', administrator: ctx.permissions.has('admin') };
}

export function deskRoutes(routes: Routes, deps: DeskDeps): void {
  const common = { tags, audience: 'staff' as const, errorPage: staffErrorPage };
  routes.staffPage(
    {
      ...common,
      path: '/staff',
      summary: 'The staff start page',
      permission: 'read',
      statuses: { 200: 'The start page', 303: 'Not signed in: to the sign-in page' },
    },
    async ({ ctx, csrf }) => {
      const user = await staffUserOf(deps, ctx);
      return {
        status: 200,
        html: staffLayout({
          title: 'Start',
          user: { ...user, csrf: csrf() },
          body: html`<h1>Welcome, ${user.name}</h1>
<ul><li><a href="/staff/actions">Actions</a></li><li><a href="/staff/contacts">Contacts</a></li><li><a href="/sessionrequests/new">Send a new action</a></li>${
            user.administrator ? html`<li><a href="/staff/users">Users and API keys</a></li>` : ''
          }</ul>`,
        }),
      };
    },
  );
}
