// How a single sign-on ends: signed in, or refused with a reason (logged) and a message (shown).

export type SsoRefusal =
  | 'state'
  | 'disabled'
  | 'cancelled'
  | 'provider'
  | 'id-token'
  | 'unverified'
  | 'domain'
  | 'no-account'
  | 'linked-elsewhere'
  | 'deactivated';

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
  | { kind: 'refused'; reason: SsoRefusal; message: string; detail?: string };

/** A refusal: the reason for the log, the message for the page, and a detail for the log if any. */
export const refuse = (reason: SsoRefusal, message: string, detail?: string): FinishOutcome => ({
  kind: 'refused',
  reason,
  message,
  ...(detail ? { detail } : {}),
});

export type StartOutcome = { kind: 'redirect'; url: string } | Extract<FinishOutcome, { kind: 'refused' }>;
