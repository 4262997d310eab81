// How a single sign-on ends: signed in, or refused with a reason (logged) and the values the page's
// sentence names (the page says it in the browser's language).
import type { SsoRefused } from '../../i18n/staff-signin';

export type FinishOutcome =
  | {
      kind: 'signed-in';
      organisationId: string;
      userId: string;
      /** The user's e-mail address in ActionDesk (this browser is remembered for it). */
      email: string;
      next?: string;
      created: boolean;
    }
  | ({ kind: 'refused'; detail?: string } & SsoRefused);

export type Refused = Extract<FinishOutcome, { kind: 'refused' }>;

/** A refusal: the reason (logged) with the values its sentence names, and a detail for the log if any. */
export const refuse = (refusal: SsoRefused, detail?: string): Refused => ({
  kind: 'refused',
  ...refusal,
  ...(detail ? { detail } : {}),
});

export type StartOutcome = { kind: 'redirect'; url: string } | Refused;
