import type { Routes } from '../../platform/http/routes';
import { html } from '../../platform/web/html';
import { staffErrorPage, staffLayout } from '../../platform/web/staff-layout';
import { type DeskDeps, staffUserOf } from './desk.service';

const tags = ['Staff pages'];

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
