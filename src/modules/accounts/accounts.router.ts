import type { Routes } from '../../platform/http/routes';
import { idParam, timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { type AccountsDeps, sendPasswordLink, setPasswordByAdministrator } from './accounts.service';
import { passwordPageRoutes } from './password-pages.router';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords';
import { type AccountPagesDeps, signInPageRoutes } from './signin-pages.router';

/** Refused to test credentials: a test organisation shares its live one's staff and sign-in. */
const LIVE_ONLY = 'Staff users are managed in live mode';

/** Staff accounts: the sign-in and password pages, then the administrators' password API (in this order). */
export function accountRoutes(routes: Routes, api: Routes, deps: AccountPagesDeps): void {
  signInPageRoutes(routes, deps);
  passwordPageRoutes(routes, deps);
  passwordAdminRoutes(api, deps);
}

/** The administrators' side, through the API: a password link for a user, or the password itself. */
function passwordAdminRoutes(api: Routes, deps: AccountsDeps): void {
  const adminTags = ['Admin: users'];
  const UserParams = z.object({ userId: idParam('userId') });
  api.add(
    {
      method: 'post',
      path: '/admin/users/{userId}/password-link',
      summary: 'E-mail a staff user a link to set their password',
      description:
        'A single-use link, valid `PASSWORD_LINK_HOURS` (default 24): an invitation for a user without a password, a reset otherwise. Earlier unused links of the user stop working. 409 for a service user or a deactivated user.',
      tags: adminTags,
      permission: 'admin',
      liveOnly: LIVE_ONLY,
      params: UserParams,
      optionalBody: true,
      status: 202,
      response: z.object({ success: z.literal(true), expiresAt: timestamp }).meta({ id: 'PasswordLinkSent' }),
      errors: [409],
    },
    ({ ctx, params }) => sendPasswordLink(deps, ctx, params.userId),
  );
  api.add(
    {
      method: 'put',
      path: '/admin/users/{userId}/password',
      summary: 'Set a staff user’s password',
      description:
        'At least 12 and at most 256 characters, not the e-mail address. The user’s browser sessions end on their next request; their API keys keep working. Prefer the password link: it lets the user choose.',
      tags: adminTags,
      permission: 'admin',
      liveOnly: LIVE_ONLY,
      params: UserParams,
      body: z
        .strictObject({
          password: z
            .string()
            .min(1)
            .max(PASSWORD_MAX * 4)
            // Counted in characters (code points) by the service, as JSON Schema counts them.
            .meta({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }),
        })
        .meta({ id: 'SetPassword' }),
      response: z.object({ success: z.literal(true) }).meta({ id: 'PasswordSet' }),
      errors: [409],
    },
    ({ ctx, params, body }) => setPasswordByAdministrator(deps, ctx, params.userId, body.password),
  );
}
