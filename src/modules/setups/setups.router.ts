import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import {
  ActionSetup,
  ActionSetupBody,
  ActionSetupCreated,
  QuickSigningSetup,
  QuickSigningSetupBody,
  SetupCreated,
} from './setups.schemas';
import {
  createActionSetup,
  createQuickSigningSetup,
  getActionSetup,
  getQuickSigningSetup,
  type SetupDeps,
} from './setups.service';

const tags = ['Deep links (setups)'];

export function setupRoutes(routes: Routes, deps: SetupDeps): void {
  routes.add(
    {
      method: 'post',
      path: '/quicksigningsetup',
      summary:
        'Prepare a quick-signing request: a contact and a document, opened by the adviser in one click',
      description:
        'Spec 4.10. Required: customer.firstname, customer.lastname, customer.email, document.fileid (a PDF of the organisation that can be signed), document.title; each missing one is named in `details`. The answer’s setupId opens `{BASE_URL}/sessionrequests/quicksigningrequest/<setupId>` in the adviser’s browser. A setup expires after SETUP_TTL_HOURS (default 24) and is used up when the adviser sends. The contact is matched by `guid` (as thirdpartyId), then e-mail, or created when the adviser sends.',
      tags,
      permission: 'create',
      accepts: ['api_key', 'session'],
      body: QuickSigningSetupBody,
      status: 200,
      response: SetupCreated,
    },
    ({ ctx, body }) => createQuickSigningSetup(deps, ctx, body),
  );
  routes.add(
    {
      method: 'get',
      path: '/quicksigningsetup/{setupId}',
      summary: 'Read a quick-signing setup back (what the wizard pre-fills)',
      description:
        'With the contact it matches, if any, and the document’s name and size. 410 once expired or used.',
      tags,
      permission: 'read',
      accepts: ['api_key', 'session'],
      params: z.object({ setupId: idParam('setupId') }),
      response: QuickSigningSetup,
      errors: [410],
    },
    ({ ctx, params }) => getQuickSigningSetup(deps, ctx, params.setupId),
  );
  routes.add(
    {
      method: 'post',
      path: '/bc/actionsetup',
      summary: 'Prepare an action: contacts to preselect, opened by the adviser in one click',
      description:
        'Spec 4.11. `customers`: 1–50, each with an email or a thirdpartyId (to find the contact, or create it when the adviser sends); thirdpartyId stays on the contact and comes back in the completion webhook. The answer’s actionSetupId opens `{BASE_URL}/sessionrequests/<actionSetupId>`. Expires after SETUP_TTL_HOURS; used up when the adviser sends.',
      tags,
      permission: 'create',
      accepts: ['api_key', 'session'],
      body: ActionSetupBody,
      status: 200,
      response: ActionSetupCreated,
    },
    ({ ctx, body }) => createActionSetup(deps, ctx, body),
  );
  routes.add(
    {
      method: 'get',
      path: '/bc/actionsetup/{actionSetupId}',
      summary: 'Read an action setup back (what the wizard pre-fills)',
      description: 'Each contact with the existing contact it matches, if any. 410 once expired or used.',
      tags,
      permission: 'read',
      accepts: ['api_key', 'session'],
      params: z.object({ actionSetupId: idParam('actionSetupId') }),
      response: ActionSetup,
      errors: [410],
    },
    ({ ctx, params }) => getActionSetup(deps, ctx, params.actionSetupId),
  );
}
