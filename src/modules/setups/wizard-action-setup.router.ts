import type { Routes } from '../../platform/http/routes';
import type { RequestContext } from '../../platform/kernel/context';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { actionWizard } from './pages/wizard.pages';
import { getActionSetup } from './setups.service';
import { ActionForm, actionValues, choiceOf, readOptions } from './wizard.forms';
import { sendActions } from './wizard.service';
import {
  changesOf,
  frameOf,
  sendOrShowAgain,
  setupProblem,
  templatesOf,
  type WizardRouteDeps,
  wizardPage,
} from './wizard.view';

/** The action step of a setup: its contacts (ticked, or those in `checked`) and the templates. */
async function actionView(
  deps: WizardRouteDeps,
  ctx: RequestContext,
  setupId: string,
  checked?: Set<string>,
) {
  const setup = await getActionSetup(deps, ctx, setupId);
  const changes = await Promise.all(setup.customers.map((c) => changesOf(deps, ctx, c.contact?._id, c)));
  return {
    action: `/sessionrequests/${setupId}`,
    people: setup.customers.map((c, i) => ({
      changes: changes[i] ?? [],
      value: String(i),
      checked: checked ? checked.has(String(i)) : true,
      name: [c.firstname, c.lastname].filter(Boolean).join(' ') || c.email || c.thirdpartyId || null,
      email: c.email,
      thirdpartyId: c.thirdpartyId,
      matched: c.contact?.by ?? null,
      unmatched: !c.contact && !c.email,
    })),
    peopleField: 'include' as const,
    templates: await templatesOf(deps, ctx),
    qualified: deps.qualifiedSigning,
    fromSetup: true,
  };
}

/** The action deep link (spec 4.11): the action wizard with the setup's contacts, and its send. */
export function actionSetupWizardRoutes(routes: Routes, deps: WizardRouteDeps): void {
  const ActionParams = z.object({ actionSetupId: idParam('actionSetupId') });

  routes.staffPage(
    {
      ...wizardPage,
      path: '/sessionrequests/{actionSetupId}',
      summary: 'Action deep link (spec 4.11): the action wizard with the contacts selected',
      params: ActionParams,
      statuses: {
        200: 'The templates and notifications step',
        303: 'Not signed in: to sign-in, then back here',
        404: 'Unknown setup, or one of another organisation',
        410: 'The setup was used or has expired',
      },
    },
    async ({ ctx, params, csrf }) => {
      try {
        return {
          status: 200,
          html: actionWizard(
            await frameOf(deps, ctx, csrf()),
            await actionView(deps, ctx, params.actionSetupId),
          ),
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
      path: '/sessionrequests/{actionSetupId}',
      summary: 'Send the actions of an action setup (form post): contacts found or made, the setup spent',
      description:
        'Fields as `POST /sessionrequests/new`, with `include` (repeated: the setup’s contacts by position, from 0) instead of `contact`.',
      params: ActionParams,
      form: ActionForm,
      statuses: {
        303: 'Sent',
        400: 'The form again with the problems named',
        404: 'Unknown setup',
        410: 'The setup was used or has expired',
      },
    },
    async ({ ctx, params, form, csrf }) => {
      const { options, values, problems } = readOptions(form);
      const include = form.include.filter((i) => /^\d{1,2}$/.test(i)).map(Number);
      return sendOrShowAgain(
        deps,
        ctx,
        csrf,
        problems,
        () => sendActions(deps, ctx, { setupId: params.actionSetupId, include }, choiceOf(form, options)),
        async () =>
          actionWizard(await frameOf(deps, ctx, csrf()), {
            ...(await actionView(deps, ctx, params.actionSetupId, new Set(form.include))),
            values: actionValues(form, values),
            problems,
          }),
      );
    },
  );
}
