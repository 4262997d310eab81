import type { Routes } from '../../platform/http/routes';
import { AppError } from '../../platform/kernel/errors';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { sendPageImage } from '../../platform/web/headers';
import { filePage } from './wizard.service';
import { tags } from './wizard.view';
import { actionSetupWizardRoutes } from './wizard-action-setup.router';
import { type DocumentRouteDeps, documentWizardRoutes } from './wizard-document.router';
import { newActionWizardRoutes } from './wizard-new-action.router';
import { quickSigningWizardRoutes } from './wizard-quicksigning.router';

export type { WizardRouteDeps } from './wizard.view';
export type { DocumentRouteDeps } from './wizard-document.router';

/**
 * The wizard's pages, in this order: without a setup (and the desk's own document step), the quick-signing deep link, the action deep link
 * (its `/sessionrequests/{actionSetupId}` comes after the literal paths), then the PDF page previews.
 */
export function wizardRoutes(routes: Routes, deps: DocumentRouteDeps): void {
  newActionWizardRoutes(routes, deps);
  documentWizardRoutes(routes, deps);
  quickSigningWizardRoutes(routes, deps);
  actionSetupWizardRoutes(routes, deps);

  routes.add(
    {
      method: 'get',
      path: '/staff/files/{fileId}/pages/{page}',
      summary: 'A page of a PDF of the organisation as an image (PNG), for the wizard’s preview',
      tags,
      permission: 'read',
      accepts: ['session', 'api_key'],
      params: z.object({ fileId: idParam('fileId'), page: z.string().max(5) }),
      binary: { contentType: 'image/png', description: 'The page, 1100 pixels wide' },
      errors: [404],
    },
    async ({ ctx, params, res }) => {
      const page = /^\d{1,4}$/.test(params.page) ? Number(params.page) : 0;
      const png = await filePage(deps, ctx, params.fileId, page);
      if (!png) throw new AppError(404, 'This page cannot be drawn on this server');
      sendPageImage(res, png);
      return undefined;
    },
  );
}
