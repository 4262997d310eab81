import type { Routes } from '../../platform/http/routes';
import type { RequestContext } from '../../platform/kernel/context';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { quickSignWizard } from './pages/wizard.pages';
import { getQuickSigningSetup } from './setups.service';
import { QuickForm, readOptions } from './wizard.forms';
import { filePages, sendQuickSigning } from './wizard.service';
import {
  changesOf,
  frameOf,
  sendOrShowAgain,
  setupProblem,
  type WizardRouteDeps,
  wizardPage,
} from './wizard.view';

/** The quick-signing step of a setup: its contact (and what sending changes on it) and its PDF. */
async function quickView(deps: WizardRouteDeps, ctx: RequestContext, setupId: string) {
  const setup = await getQuickSigningSetup(deps, ctx, setupId);
  const pages = await filePages(deps, ctx, setup.document.fileid);
  const c = setup.customer;
  const person = { firstname: c.firstname, lastname: c.lastname, email: c.email, phone: c.gsm };
  return {
    action: `/sessionrequests/quicksigningrequest/${setupId}`,
    contact: {
      name: `${c.firstname} ${c.lastname}`,
      email: c.email,
      phone: c.gsm,
      guid: c.guid,
      matched: setup.customer.contact?.by ?? null,
      changes: await changesOf(deps, ctx, setup.customer.contact?._id, person),
    },
    document: {
      title: setup.document.title,
      type: setup.document.type,
      fileName: setup.document.fileName,
      size: setup.document.size,
      pages: pages.pages,
      preview: pages.images ? `/staff/files/${setup.document.fileid}/pages/1` : null,
    },
    qualified: deps.qualifiedSigning,
  };
}

/** The quick-signing deep link (spec 4.10): the signing options step, and its send. */
export function quickSigningWizardRoutes(routes: Routes, deps: WizardRouteDeps): void {
  const QuickParams = z.object({ setupId: idParam('setupId') });

  routes.staffPage(
    {
      ...wizardPage,
      path: '/sessionrequests/quicksigningrequest/{setupId}',
      summary:
        'Quick-signing deep link (spec 4.10): opens at the signing options with the contact and the PDF',
      params: QuickParams,
      statuses: {
        200: 'The signing options step',
        303: 'Not signed in: to sign-in, then back here',
        404: 'Unknown setup, or one of another organisation',
        410: 'The setup was used or has expired',
      },
    },
    async ({ ctx, params, csrf }) => {
      try {
        return {
          status: 200,
          html: quickSignWizard(await frameOf(deps, ctx, csrf()), await quickView(deps, ctx, params.setupId)),
        };
      } catch (err) {
        return setupProblem(deps, err, ctx, csrf());
      }
    },
  );

  routes.staffPage(
    {
      ...wizardPage,
      method: 'post',
      path: '/sessionrequests/quicksigningrequest/{setupId}',
      summary: 'Send the quick-signing action (form post): the contact found or made, the setup spent',
      description:
        'Fields: `_csrf`, `email`/`sms` (`yes`), `reminder1Days`, `reminder2Days`, `expiresOn`, `language`, `message`, `signatureLevel`.',
      params: QuickParams,
      form: QuickForm,
      statuses: {
        303: 'Sent',
        400: 'The form again with the problems named',
        404: 'Unknown setup',
        410: 'The setup was used (e.g. sent from another tab) or has expired',
      },
    },
    async ({ ctx, params, form, csrf }) => {
      const { options, values, problems } = readOptions(form);
      return sendOrShowAgain(
        deps,
        ctx,
        csrf,
        problems,
        () => sendQuickSigning(deps, ctx, params.setupId, options),
        async () =>
          quickSignWizard(await frameOf(deps, ctx, csrf()), {
            ...(await quickView(deps, ctx, params.setupId)),
            values,
            problems,
          }),
      );
    },
  );
}
