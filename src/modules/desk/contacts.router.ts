import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { getCustomer, listCustomers } from '../customers';
import { listSessionRequests, type SessionRequestDeps } from '../sessionrequests';
import type { DeskDeps } from './desk.service';
import { deskFrame, deskPage, PAGE_SIZE, pageParam } from './desk-pages';
import { contactPage, contactsPage } from './pages/desk.pages';

const tags = ['Staff pages: contacts'];

/** The advisers' contact pages: the list, searched by name or e-mail, and one contact with its actions. */
export function contactPageRoutes(routes: Routes, deps: DeskDeps & SessionRequestDeps): void {
  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff/contacts',
      summary: 'Contacts, searched by name or e-mail',
      permission: 'read',
      query: z.object({ q: z.string().max(200).optional(), page: pageParam }),
      statuses: { 200: 'The list', 303: 'Not signed in' },
    },
    async ({ ctx, query, csrf }) => {
      const q = query.q?.trim() || undefined;
      const list = await listCustomers(deps, ctx, { search: q, page: query.page, limit: PAGE_SIZE });
      return {
        status: 200,
        html: contactsPage(await deskFrame(deps, ctx, csrf()), {
          rows: list.customers,
          total: list.total,
          page: query.page,
          limit: PAGE_SIZE,
          q,
        }),
      };
    },
  );

  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff/contacts/{id}',
      summary: 'A contact: data and actions',
      permission: 'read',
      params: z.object({ id: idParam('id') }),
      statuses: { 200: 'The contact', 303: 'Not signed in', 404: 'Unknown contact' },
    },
    async ({ ctx, params, csrf }) => {
      const contact = await getCustomer(deps, ctx, params.id);
      const actions = await listSessionRequests(deps, ctx, { customerId: contact._id, page: 1, limit: 50 });
      return {
        status: 200,
        html: contactPage(await deskFrame(deps, ctx, csrf()), { contact, actions: actions.sessionRequests }),
      };
    },
  );
}
