import { contactWords } from '../../i18n/desk-contacts';
import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import {
  contactLabel,
  createCustomer,
  getCustomer,
  listCustomers,
  searchOfPhone,
  updateCustomer,
} from '../customers';
import { listSessionRequests, type SessionRequestDeps } from '../sessionrequests';
import { ContactForm, dataOf, problemOfRefusal, problemsOf, valuesOf, valuesOfContact } from './contact.form';
import type { DeskDeps } from './desk.service';
import { deskFrame, deskPage, PAGE_SIZE, pageParam } from './desk-pages';
import { contactFormPage, contactPage, contactsPage } from './pages/contacts.pages';

const tags = ['Staff pages: contacts'];
const Id = z.object({ id: idParam('id') });
const From = z.enum(['send']).optional();

/** Where a contact made inside the send flow goes on: back to its contact step, the contact ticked. */
const nextStep = (id: string) => `/sessionrequests/new?contact=${id}`;

/**
 * The advisers' contact pages: the list, searched by name, e-mail, phone or CRM reference; one contact
 * with its actions; the form that adds one (also from inside the send flow) or changes one.
 */
export function contactPageRoutes(routes: Routes, deps: DeskDeps & SessionRequestDeps): void {
  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff/contacts',
      summary: 'Contacts, searched by name, e-mail address, phone number or CRM reference',
      permission: 'read',
      query: z.object({ q: z.string().max(200).optional(), page: pageParam }),
      statuses: { 200: 'The list', 303: 'Not signed in' },
    },
    async ({ ctx, query, csrf }) => {
      const q = query.q?.trim() || undefined;
      // A CRM reference is exact: the contact that has it, if any, is the answer.
      const byReference = q
        ? await listCustomers(deps, ctx, { thirdpartyId: q, page: 1, limit: 1 })
        : undefined;
      const found = byReference?.customers.length ? byReference : undefined;
      const list =
        found ??
        (await listCustomers(deps, ctx, {
          search: q && searchOfPhone(q),
          page: query.page,
          limit: PAGE_SIZE,
        }));
      return {
        status: 200,
        html: contactsPage(await deskFrame(deps, ctx, csrf()), {
          rows: list.customers,
          total: list.total,
          page: query.page,
          limit: PAGE_SIZE,
          q,
          byReference: found ? q : undefined,
        }),
      };
    },
  );

  // The form first: `/staff/contacts/new` is not a contact's id.
  contactFormRoutes(routes, deps);
  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff/contacts/{id}',
      summary: 'A contact: details and actions',
      permission: 'read',
      params: Id,
      query: z.object({ done: z.enum(['created', 'saved']).optional() }),
      statuses: { 200: 'The contact', 303: 'Not signed in', 404: 'Unknown contact' },
    },
    async ({ ctx, params, query, csrf }) => {
      const contact = await getCustomer(deps, ctx, params.id);
      const actions = await listSessionRequests(deps, ctx, { customerId: contact._id, page: 1, limit: 50 });
      const frame = await deskFrame(deps, ctx, csrf());
      const w = contactWords[frame.lang].form;
      return {
        status: 200,
        html: contactPage(frame, {
          contact,
          actions: actions.sessionRequests,
          notice: query.done === 'created' ? w.created : query.done === 'saved' ? w.saved : undefined,
          canChange: ctx.permissions.has('update'),
        }),
      };
    },
  );
}

/** The form that adds a contact (from the send flow too) or changes one. */
function contactFormRoutes(routes: Routes, deps: DeskDeps & SessionRequestDeps): void {
  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff/contacts/new',
      summary: 'The form that adds a contact (from the send flow too: `from=send` goes back there)',
      permission: 'create',
      query: z.object({ from: From }),
      statuses: { 200: 'The form', 303: 'Not signed in', 403: 'Not allowed to add contacts' },
    },
    async ({ ctx, query, csrf }) => ({
      status: 200,
      html: contactFormPage(await deskFrame(deps, ctx, csrf()), {
        values: { firstName: '', lastName: '', email: '', phone: '', reference: '' },
        problems: {},
        fromSend: query.from === 'send',
      }),
    }),
  );

  routes.staffPage(
    {
      ...deskPage,
      tags,
      method: 'post',
      path: '/staff/contacts/new',
      summary: 'Add a contact (form post)',
      permission: 'create',
      query: z.object({ from: From }),
      form: ContactForm,
      statuses: {
        303: 'Added: to the contact, or on in the send flow',
        400: 'Problems, named on the form',
        409: 'The CRM reference is taken, named on the form',
      },
    },
    async ({ ctx, query, form, csrf }) => {
      const frame = await deskFrame(deps, ctx, csrf());
      const values = valuesOf(form);
      const refuse = (status: number, problems: ReturnType<typeof problemsOf>) => ({
        status,
        html: contactFormPage(frame, { values, problems, fromSend: query.from === 'send' }),
      });
      const problems = problemsOf(values, frame.lang);
      if (Object.keys(problems).length) return refuse(400, problems);
      const data = Object.fromEntries(Object.entries(dataOf(values)).filter(([, v]) => v !== null));
      try {
        const made = await createCustomer(deps, ctx, {
          data: data as Record<string, string>,
          ...(values.reference ? { thirdpartyId: values.reference } : {}),
        });
        return {
          redirect: query.from === 'send' ? nextStep(made._id) : `/staff/contacts/${made._id}?done=created`,
        };
      } catch (err) {
        return refuse(409, problemOfRefusal(err, values, frame.lang));
      }
    },
  );

  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff/contacts/{id}/edit',
      summary: 'The form that changes a contact',
      permission: 'update',
      params: Id,
      statuses: {
        200: 'The form',
        303: 'Not signed in',
        403: 'Not allowed to change contacts',
        404: 'Unknown contact',
      },
    },
    async ({ ctx, params, csrf }) => {
      const contact = await getCustomer(deps, ctx, params.id);
      return {
        status: 200,
        html: contactFormPage(await deskFrame(deps, ctx, csrf()), {
          id: contact._id,
          name: contactLabel(contact.data),
          values: valuesOfContact(contact),
          problems: {},
        }),
      };
    },
  );

  routes.staffPage(
    {
      ...deskPage,
      tags,
      method: 'post',
      path: '/staff/contacts/{id}/edit',
      summary: 'Change a contact (form post): its name, e-mail address, phone and CRM reference',
      permission: 'update',
      params: Id,
      form: ContactForm,
      statuses: {
        303: 'Saved: back to the contact',
        400: 'Problems, named on the form',
        404: 'Unknown contact',
        409: 'The CRM reference is taken, named on the form',
      },
    },
    async ({ ctx, params, form, csrf }) => {
      const contact = await getCustomer(deps, ctx, params.id);
      const frame = await deskFrame(deps, ctx, csrf());
      const values = valuesOf(form);
      const refuse = (status: number, problems: ReturnType<typeof problemsOf>) => ({
        status,
        html: contactFormPage(frame, { id: contact._id, name: contactLabel(contact.data), values, problems }),
      });
      const problems = problemsOf(values, frame.lang);
      if (Object.keys(problems).length) return refuse(400, problems);
      try {
        await updateCustomer(deps, ctx, contact._id, {
          data: dataOf(values),
          thirdpartyId: values.reference || null,
        });
        return { redirect: `/staff/contacts/${contact._id}?done=saved` };
      } catch (err) {
        return refuse(409, problemOfRefusal(err, values, frame.lang));
      }
    },
  );
}
