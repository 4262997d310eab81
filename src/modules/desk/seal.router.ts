import type { SealNotice } from '../../i18n/desk-seal';
import type { Routes } from '../../platform/http/routes';
import type { RequestContext } from '../../platform/kernel/context';
import { AppError, NotFound } from '../../platform/kernel/errors';
import { z } from '../../platform/kernel/zod';
import type { PadesProfile } from '../../platform/signing/seal';
import {
  getOrganisationSeal,
  receiveSeal,
  removeOrganisationSeal,
  type SealDeps,
  SealRefused,
  setOrganisationSeal,
} from '../organisations';
import { adminPage, csrfInput, DoneQuery } from './admin-pages';
import type { DeskDeps } from './desk.service';
import { deskFrame } from './desk-pages';
import { type SealPageView, sealPage } from './pages/seal.pages';

const PAGE = '/staff/settings/seal';
const notices: readonly SealNotice[] = ['uploaded', 'removed'];

export type SealPageDeps = DeskDeps & SealDeps & { pades: PadesProfile };

async function show(
  deps: SealPageDeps,
  ctx: RequestContext,
  token: string,
  view: Omit<SealPageView, 'seal' | 'level'> & { status?: number } = {},
) {
  const { status, ...rest } = view;
  const seal = await getOrganisationSeal(deps, ctx);
  return {
    status: status ?? 200,
    html: sealPage(await deskFrame(deps, ctx, token), { seal, level: deps.pades.level, ...rest }),
  };
}

/**
 * Settings → Document seal (administrators): which certificate seals the organisation's live documents,
 * uploading its own PKCS#12 seal with its password, removing it. The same use cases as
 * `/api/v1/admin/organisation/seal`.
 */
export function sealPageRoutes(routes: Routes, deps: SealPageDeps): void {
  routes.staffPage(
    {
      ...adminPage,
      path: PAGE,
      summary: 'The seal on the organisation’s documents: the service’s or its own, uploading its own',
      query: DoneQuery,
      statuses: { 200: 'The page', 303: 'Not signed in', 403: 'Not an administrator' },
    },
    async ({ ctx, query, csrf }) =>
      show(deps, ctx, csrf(), { notice: notices.find((n) => n === query.done) }),
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: PAGE,
      summary: 'Upload the organisation’s own seal (multipart form post)',
      description:
        'Query: `_csrf` (the page’s token: the body is a file). Parts: the PKCS#12 file in `file` (at most 64 KB) and its password in `password`. Checked as `PUT /api/v1/admin/organisation/seal`; a refusal is shown on the page, on its field, and nothing changes.',
      upload: {
        field: 'file',
        description: 'The PKCS#12 file (.p12/.pfx): an RSA key, its certificate and the chain',
        fields: { password: 'The password that opens the file (empty when it has none)' },
      },
      statuses: {
        303: 'Uploaded: back to the page',
        400: 'Not a PKCS#12 file that opens with the password, holds a valid signing certificate, at most 64 KB, or the form holds another part (the page again, saying which)',
        415: 'Not sent as multipart/form-data (the page again, saying so)',
      },
    },
    async ({ ctx, req, csrf }) => {
      try {
        await setOrganisationSeal(deps, ctx, await receiveSeal(req));
        return { redirect: `${PAGE}?done=uploaded` };
      } catch (err) {
        if (err instanceof SealRefused) return show(deps, ctx, csrf(), { status: 400, refused: err.reason });
        // The form itself refused (not multipart, a part it does not know, cut short): the page again.
        if (!(err instanceof AppError) || err.status >= 500 || err.status === 404) throw err;
        return show(deps, ctx, csrf(), { status: err.status, refused: 'unreadable' });
      }
    },
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: `${PAGE}/delete`,
      summary: 'Remove the organisation’s own seal (form post)',
      description: 'Fields: `_csrf`. Documents are then sealed with the service’s seal.',
      form: z.object({ _csrf: csrfInput }),
      statuses: { 303: 'Removed (or there was none): back to the page' },
    },
    async ({ ctx }) => {
      try {
        await removeOrganisationSeal(deps, ctx);
      } catch (err) {
        // Removed already (another tab, a double click): the page shows what is.
        if (!(err instanceof NotFound)) throw err;
      }
      return { redirect: `${PAGE}?done=removed` };
    },
  );
}
