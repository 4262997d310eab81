import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/kernel/zod';
import { contactEmail, contactLabel, getCustomersById, listCustomers, searchOfPhone } from '../customers';
import { actionWizard, contactStep, sentPage } from './pages/wizard.pages';
import { ActionForm, actionValues, choiceOf, many, readOptions } from './wizard.forms';
import { sendActions, sentActions } from './wizard.service';
import { frameOf, pickedPeople, problemsOf, sent, templatesOf, wizardPage } from './wizard.view';
import { type DocumentRouteDeps, documentStepPage } from './wizard-document.router';

/**
 * The action wizard without a setup (/sessionrequests/new): pick contacts, then templates and
 * notifications, send; and the page listing the actions a wizard just made.
 */
export function newActionWizardRoutes(routes: Routes, deps: DocumentRouteDeps): void {
  // Registered before /sessionrequests/{actionSetupId}: these paths are not setup ids.
  routes.staffPage(
    {
      ...wizardPage,
      path: '/sessionrequests/new',
      summary: 'The action wizard without a setup: pick contacts, then templates and notifications',
      description:
        'Query: `q` (search the contacts), `contact` (repeated: the contacts ticked), `step=options` (go on with them to templates), `step=document` (go on with them to a PDF to sign, uploaded here), `file` (with `step=document`: the PDF uploaded).',
      query: z.object({
        q: z.string().max(200).optional(),
        contact: many(50),
        step: z.enum(['options', 'document']).optional(),
        file: z.string().max(40).optional(),
      }),
      statuses: { 200: 'The contact step, the options step, or the document step', 303: 'Not signed in' },
    },
    async ({ ctx, query, csrf, nonce }) => {
      if (query.step === 'document' && query.contact.length > 0)
        return documentStepPage(
          deps,
          ctx,
          { csrf: csrf(), nonce },
          { contactIds: query.contact.slice(0, 10), ...(query.file ? { fileId: query.file } : {}) },
        );
      const frame = await frameOf(deps, ctx, csrf());
      if (query.step === 'options' && query.contact.length > 0) {
        const people = await pickedPeople(deps, ctx, query.contact);
        return {
          status: 200,
          html: actionWizard(frame, {
            action: '/sessionrequests/new',
            people,
            peopleField: 'contact',
            templates: await templatesOf(deps, ctx),
            qualified: deps.qualifiedSigning,
            fromSetup: false,
          }),
        };
      }
      const q = query.q?.trim() ?? '';
      const found = await listCustomers(deps, ctx, {
        search: q ? searchOfPhone(q) : undefined,
        page: 1,
        limit: 25,
      });
      // Contacts already ticked (one just added from here) come first, ticked.
      const ticked = [...(await getCustomersById(deps, ctx, query.contact)).values()];
      const pick = (c: (typeof ticked)[number], checked: boolean) => ({
        id: c._id,
        name: contactLabel(c.data),
        email: contactEmail(c.data) ?? '',
        checked,
      });
      return {
        status: 200,
        html: contactStep(frame, {
          q,
          total: found.total,
          found: [
            ...ticked.map((c) => pick(c, true)),
            ...found.customers.filter((c) => !query.contact.includes(c._id)).map((c) => pick(c, false)),
          ],
        }),
      };
    },
  );

  routes.staffPage(
    {
      ...wizardPage,
      method: 'post',
      path: '/sessionrequests/new',
      summary: 'Send actions to the contacts picked (form post)',
      description:
        'Fields: `_csrf`, `contact` (repeated), `questionListIds` (repeated), `type` (qlist|multisigning), `together` (`yes`: one multisigning action they all sign), `signingOrder` (`sequential`), `email`/`sms` (`yes`), `reminder1Days`, `reminder2Days`, `expiresOn` (YYYY-MM-DD, end of that day UTC), `language`, `message`, `signatureLevel`. All actions are made, or none.',
      form: ActionForm,
      statuses: { 303: 'Sent: to the page listing them', 400: 'The form again with the problems named' },
    },
    async ({ ctx, form, csrf }) => {
      const { options, values, problems } = readOptions(form);
      if (problems.length === 0) {
        try {
          return sent(await sendActions(deps, ctx, { contactIds: form.contact }, choiceOf(form, options)));
        } catch (err) {
          problems.push(...problemsOf(err, form.contact));
        }
      }
      const people = await pickedPeople(deps, ctx, form.contact);
      return {
        status: 400,
        html: actionWizard(await frameOf(deps, ctx, csrf()), {
          action: '/sessionrequests/new',
          people,
          peopleField: 'contact',
          templates: await templatesOf(deps, ctx),
          values: actionValues(form, values),
          problems,
          qualified: deps.qualifiedSigning,
          fromSetup: false,
        }),
      };
    },
  );

  routes.staffPage(
    {
      ...wizardPage,
      path: '/sessionrequests/sent',
      summary: 'The actions a wizard just made',
      query: z.object({ id: many(50) }),
      statuses: { 200: 'The list', 303: 'Not signed in' },
    },
    async ({ ctx, query, csrf }) => {
      const actions = await sentActions(deps, ctx, query.id);
      return {
        status: 200,
        html: sentPage(
          await frameOf(deps, ctx, csrf()),
          actions.map((a) => ({ id: a.id, type: a.type, url: `${deps.baseUrl}/action/${a.code}` })),
        ),
      };
    },
  );
}
