import type { Routes } from '../../platform/http/routes';
import { OrganisationSeal, UploadSeal } from './seal.schemas';
import {
  getOrganisationSeal,
  removeOrganisationSeal,
  type SealDeps,
  setOrganisationSeal,
} from './seal.service';

const tags = ['Admin: organisation seal'];
const LIVE_ONLY = 'The organisation’s seal signs live documents';

/** The organisation's own seal certificate (administrators): see docs/signing.md#the-organisations-seal. */
export function sealRoutes(routes: Routes, deps: SealDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/admin/organisation/seal',
      summary: 'The certificate the organisation’s documents are sealed with',
      description:
        'Its own seal when one was uploaded and has not expired, else the service’s (`source`), with what the certificate says and the days left.',
      tags,
      permission: 'admin',
      response: OrganisationSeal,
    },
    ({ ctx }) => getOrganisationSeal(deps, ctx),
  );
  routes.add(
    {
      method: 'put',
      path: '/admin/organisation/seal',
      summary: 'Set the organisation’s own seal (PKCS#12)',
      description:
        'From now on live documents of the organisation are sealed with it (PAdES, at the level the service is configured for). It must open with `password`, hold an RSA key and its certificate, be valid now and allow signing, open within 2 s, and (at PAdES B-LT and above) say where its revocation status is found; else 400 naming the field, and nothing changes. Kept sealed with ENCRYPTION_KEYS; never returned. The administrators are e-mailed 30 days before it expires. Replaces any earlier one. Audited (`organisation_seal.created` / `.updated`).',
      tags,
      permission: 'admin',
      liveOnly: LIVE_ONLY,
      body: UploadSeal,
      response: OrganisationSeal,
    },
    ({ ctx, body }) => setOrganisationSeal(deps, ctx, body),
  );
  routes.add(
    {
      method: 'delete',
      path: '/admin/organisation/seal',
      summary: 'Remove the organisation’s own seal',
      description:
        'Documents are sealed with the service’s seal again; 404 when the organisation has none. Audited (`organisation_seal.deleted`).',
      tags,
      permission: 'admin',
      liveOnly: LIVE_ONLY,
      status: 204,
      errors: [404],
    },
    async ({ ctx }) => {
      await removeOrganisationSeal(deps, ctx);
      return undefined;
    },
  );
}
