import type { Routes } from '../../platform/http/routes';
import { NotFound } from '../../platform/kernel/errors';
import { z } from '../../platform/kernel/zod';
import { BrandSettings, UpdateBrand } from './brand.schemas';
import { type BrandDeps, getBrand, publicLogo, removeLogo, setLogo, updateBrand } from './brand.service';
import { receiveLogo } from './brand.upload';

const tags = ['Admin: organisation brand'];

/**
 * The organisation's own face to its contacts (administrators): name, colour, logo, the e-mails' sender
 * name and reply-to address, the SMS sender id, and whether declining needs a one-time code.
 */
export function brandRoutes(routes: Routes, deps: BrandDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/admin/organisation/brand',
      summary: 'The organisation’s brand: what contacts see of it',
      description:
        'The name, colour and logo on the contact’s pages, in every e-mail and on the signature page of signed documents; the e-mails’ sender name and reply-to address; the SMS sender id; whether a signer confirms a code before declining.',
      tags,
      permission: 'admin',
      response: BrandSettings,
    },
    ({ ctx }) => getBrand(deps, ctx),
  );
  routes.add(
    {
      method: 'patch',
      path: '/admin/organisation/brand',
      summary: 'Change the organisation’s brand',
      description:
        'Send any of the fields; `null` clears one (back to the organisation’s name, the product’s colour, MAIL_FROM’s name and address, SMS_FROM). A colour on which white text would not read (contrast under 4.5:1) is kept as sent and shown darkened (`shownColour`). Applies to messages composed from now on. Audited (`organisation.updated`).',
      tags,
      permission: 'admin',
      body: UpdateBrand,
      response: BrandSettings,
    },
    ({ ctx, body }) => updateBrand(deps, ctx, body),
  );
  routes.add(
    {
      method: 'put',
      path: '/admin/organisation/brand/logo',
      summary: 'Set the organisation’s logo (multipart/form-data, field `file`)',
      description:
        'One part only: the image, in the field `file`. A PNG or JPEG of at most 200 KB, recognised by its content; anything else (an SVG included: it can carry script) → 400 naming `file`, and nothing changes. The logo gets a new public address with every upload (`logo.url`). Audited (`organisation_logo.created` / `.updated`).',
      tags,
      permission: 'admin',
      multipart: { field: 'file', description: 'The logo (PNG or JPEG, at most 200 KB)' },
      response: BrandSettings,
      errors: [415],
    },
    async ({ ctx, req }) => setLogo(deps, ctx, await receiveLogo(req)),
  );
  routes.add(
    {
      method: 'delete',
      path: '/admin/organisation/brand/logo',
      summary: 'Remove the organisation’s logo',
      description: '404 when there is none. Audited (`organisation_logo.deleted`).',
      tags,
      permission: 'admin',
      status: 204,
      errors: [404],
    },
    async ({ ctx }) => {
      await removeLogo(deps, ctx);
      return undefined;
    },
  );
}

const LogoParams = z.object({
  organisationId: z
    .string()
    .max(100)
    .meta({ param: { name: 'organisationId', in: 'path' }, description: 'The organisation' }),
  logoId: z
    .string()
    .max(100)
    .meta({ param: { name: 'logoId', in: 'path' }, description: 'The logo (new with every upload)' }),
});

/**
 * The logo at its public address, for the contact's pages and e-mails: cached for a year (the address
 * changes with the image), never sniffed as anything but the image it is.
 */
export function logoRoutes(routes: Routes, deps: BrandDeps): void {
  routes.public(
    {
      method: 'get',
      path: '/logos/{organisationId}/{logoId}',
      summary: 'An organisation’s logo (PNG or JPEG)',
      description:
        'The address is in `GET /api/v1/admin/organisation/brand` (`logo.url`) and on the contact’s pages; it is random per upload, so it cannot be guessed from another organisation’s. 404 for any other address, and once the logo is replaced or removed.',
      tags: ['Public pages'],
      params: LogoParams,
      binary: {
        contentType: 'image/png',
        alsoContentTypes: ['image/jpeg'],
        description: 'The logo, as uploaded',
      },
      errors: [404],
    },
    async ({ params, res }) => {
      const logo = await publicLogo(deps, params.organisationId, params.logoId);
      if (!logo) throw new NotFound('No such logo');
      res.status(200);
      res.setHeader('Content-Type', logo.contentType);
      res.setHeader('Content-Length', String(logo.bytes.length));
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      // Mail clients on other sites show it in their own pages.
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.end(logo.bytes);
      return undefined;
    },
  );
}
