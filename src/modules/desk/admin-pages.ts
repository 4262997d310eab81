// What the administrators' staff pages share (users and API keys, OAuth clients, sign-in providers): their
// route options, the frame around each page, the form fields they have in common, and how a service's
// refusal is shown on the page.
import { AppError } from '../../platform/kernel/errors';
import { z } from '../../platform/kernel/zod';
import { staffErrorPage } from '../../platform/web/staff-layout';

/** The route options every administrators' page declares: its tag, a staff session with `admin`. */
export const adminPage = {
  tags: ['Staff pages: administration'],
  audience: 'staff' as const,
  errorPage: staffErrorPage,
  permission: 'admin' as const,
};

/** The form's CSRF token field, `_csrf`. */
export const csrfInput = z.string().max(300);

/** A checkbox list arrives as one value or several. */
export const checkboxList = z
  .union([z.string().max(50), z.array(z.string().max(50)).max(10)])
  .optional()
  .transform((g) => (g === undefined ? [] : Array.isArray(g) ? g : [g]));

/** `?done=…` after a form post's redirect: which notice the page shows. */
export const DoneQuery = z.object({ done: z.string().max(30).optional() });

/** A service refusal (409 last administrator, 400 bad name) shown on the page instead of an error page. */
export function refusalMessage(err: unknown): { status: number; message: string } {
  if (err instanceof AppError && err.status < 500 && err.status !== 404) {
    const detail = err.details?.map((d) => `${d.field} ${d.message}`).join('; ');
    return { status: err.status, message: detail ? `${err.message}: ${detail}` : err.message };
  }
  throw err;
}
