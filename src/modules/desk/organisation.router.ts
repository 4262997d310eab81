import type { OrganisationField, OrganisationNotice } from '../../i18n/desk-organisation';
import type { Routes } from '../../platform/http/routes';
import type { RequestContext } from '../../platform/kernel/context';
import { AppError, NotFound } from '../../platform/kernel/errors';
import { z } from '../../platform/kernel/zod';
import { getBrand, receiveLogo, removeLogo, setLogo, UpdateBrand, updateBrand } from '../organisations';
import { adminPage, csrfInput, DoneQuery } from './admin-pages';
import type { DeskDeps } from './desk.service';
import { deskFrame } from './desk-pages';
import {
  type OrganisationFormValues,
  type OrganisationPageView,
  organisationPage,
  valuesOf,
} from './pages/organisation.pages';

const PAGE = '/staff/settings/organisation';
const notices: readonly OrganisationNotice[] = ['saved', 'logo', 'logoRemoved'];
const fields: readonly OrganisationField[] = [
  'brandName',
  'colour',
  'mailSenderName',
  'mailReplyTo',
  'smsSender',
];

/** The form as the browser sends it: text fields (empty: back to the default) and the checkbox. */
const OrganisationForm = z.object({
  _csrf: csrfInput,
  brandName: z.string().max(500).optional(),
  colour: z.string().max(500).optional(),
  mailSenderName: z.string().max(500).optional(),
  mailReplyTo: z.string().max(500).optional(),
  smsSender: z.string().max(500).optional(),
  requireCodeToDecline: z.literal('yes').optional(),
});
type OrganisationForm = z.infer<typeof OrganisationForm>;

const sentValues = (form: OrganisationForm): OrganisationFormValues => ({
  brandName: form.brandName?.trim() ?? '',
  colour: form.colour?.trim() ?? '',
  mailSenderName: form.mailSenderName?.trim() ?? '',
  mailReplyTo: form.mailReplyTo?.trim() ?? '',
  smsSender: form.smsSender?.trim() ?? '',
  requireCodeToDecline: form.requireCodeToDecline === 'yes',
});

async function show(
  deps: DeskDeps,
  ctx: RequestContext,
  token: string,
  view: Partial<OrganisationPageView> & { status?: number } = {},
) {
  const { status, ...rest } = view;
  const brand = await getBrand(deps, ctx);
  return {
    status: status ?? 200,
    html: organisationPage(await deskFrame(deps, ctx, token), { brand, values: valuesOf(brand), ...rest }),
  };
}

/**
 * Settings → Organisation (administrators): the organisation as its contacts see it — name, colour,
 * e-mail sender and reply-to, SMS sender, whether declining needs a code — with a preview, and its logo.
 * The same use cases as `/api/v1/admin/organisation/brand`.
 */
export function organisationPageRoutes(routes: Routes, deps: DeskDeps): void {
  routes.staffPage(
    {
      ...adminPage,
      path: PAGE,
      summary: 'The organisation as contacts see it: name, colour, logo, sender, declining',
      query: DoneQuery,
      statuses: { 200: 'The page', 303: 'Not signed in', 403: 'Not an administrator' },
    },
    async ({ ctx, query, csrf }) =>
      show(deps, ctx, csrf(), {
        notice: notices.find((n) => n === query.done),
      }),
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: PAGE,
      summary: 'Save the organisation’s brand (form post)',
      description:
        'Fields: `_csrf`, `brandName`, `colour`, `mailSenderName`, `mailReplyTo`, `smsSender` (empty: the default), `requireCodeToDecline` (`yes`: on). Checked as `PATCH /api/v1/admin/organisation/brand`; problems are shown on the page, each on its field, and nothing is saved.',
      form: OrganisationForm,
      statuses: { 303: 'Saved: back to the page', 400: 'A field is invalid (the page again, saying which)' },
    },
    async ({ ctx, form, csrf }) => {
      const values = sentValues(form);
      const blankToNull = (v: string) => (v === '' ? null : v);
      const parsed = UpdateBrand.safeParse({
        brandName: blankToNull(values.brandName),
        colour: blankToNull(values.colour),
        mailSenderName: blankToNull(values.mailSenderName),
        mailReplyTo: blankToNull(values.mailReplyTo),
        smsSender: blankToNull(values.smsSender),
        requireCodeToDecline: values.requireCodeToDecline,
      });
      if (!parsed.success) {
        const wrong = new Set(parsed.error.issues.map((i) => String(i.path[0])));
        const problems = fields.filter((f) => wrong.has(f));
        return show(deps, ctx, csrf(), { status: 400, values, problems });
      }
      await updateBrand(deps, ctx, parsed.data);
      return { redirect: `${PAGE}?done=saved` };
    },
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: `${PAGE}/logo`,
      summary: 'Upload the organisation’s logo (multipart form post)',
      description:
        'Query: `_csrf` (the page’s token: the body is a file). One part: the image in `file`, a PNG or JPEG of at most 200 KB recognised by its content (an SVG is refused). As `PUT /api/v1/admin/organisation/brand/logo`.',
      upload: { field: 'file', description: 'The logo (PNG or JPEG, at most 200 KB)' },
      statuses: {
        303: 'Uploaded: back to the page',
        400: 'No file, or not a PNG or JPEG of at most 200 KB (the page again, saying so)',
        415: 'Not sent as multipart/form-data (the page again, saying so)',
      },
    },
    async ({ ctx, req, csrf }) => {
      try {
        await setLogo(deps, ctx, await receiveLogo(req));
        return { redirect: `${PAGE}?done=logo#logo` };
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500 || err.status === 404) throw err;
        return show(deps, ctx, csrf(), { status: err.status, logoRefused: true });
      }
    },
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: `${PAGE}/logo/delete`,
      summary: 'Remove the organisation’s logo (form post)',
      description: 'Fields: `_csrf`. Contacts then see the name only.',
      form: z.object({ _csrf: csrfInput }),
      statuses: { 303: 'Removed (or there was none): back to the page' },
    },
    async ({ ctx }) => {
      try {
        await removeLogo(deps, ctx);
      } catch (err) {
        // Removed already (another tab, a double click): the page shows what is.
        if (!(err instanceof NotFound)) throw err;
      }
      return { redirect: `${PAGE}?done=logoRemoved#logo` };
    },
  );
}
