import type { SessionRequestStatus } from '../../db/schema';

/** States in which the link works and the contact can still answer. */
export const openStatuses: readonly SessionRequestStatus[] = ['created', 'sent', 'opened', 'reopened'];

/** Open states in which the invitation went out and the contact has not yet answered: they are awaited. */
export const awaitingStatuses: readonly SessionRequestStatus[] = ['sent', 'opened', 'reopened'];

export type Transition = 'open' | 'complete' | 'reopen' | 'deactivate' | 'expire' | 'decline';

/** The lifecycle (docs/sessionrequests.md): from which states each transition may start, and where it ends. */
export const transitions: Record<
  Transition,
  { from: readonly SessionRequestStatus[]; to: SessionRequestStatus }
> = {
  open: { from: ['created', 'sent'], to: 'opened' },
  complete: { from: openStatuses, to: 'completed' },
  reopen: { from: ['completed'], to: 'reopened' },
  deactivate: { from: openStatuses, to: 'deactivated' },
  expire: { from: openStatuses, to: 'expired' },
  decline: { from: openStatuses, to: 'declined' },
};

export const isOpen = (status: SessionRequestStatus): boolean => openStatuses.includes(status);

/** Whether the contact is awaited: the invitation went out, no answer yet (see awaitingStatuses). */
export const isAwaiting = (status: SessionRequestStatus): boolean => awaitingStatuses.includes(status);

/** Whether an action of this type is signed (quick-signing, or a questionnaire then signing). */
export const isSigningType = (type: string): boolean => type === 'quicksign' || type === 'multisigning';

const refusal: Record<Transition, string> = {
  open: 'only a created or sent action can be opened',
  complete: 'only an open action can be completed',
  reopen: 'only a completed action can be reopened',
  deactivate: 'only an open action (created, sent, opened or reopened) can be deactivated',
  expire: 'only an open action can expire',
  decline: 'only an open action can be declined',
};

export function refusalOf(transition: Transition, current: SessionRequestStatus): string {
  return `Cannot ${transition} an action that is ${current}: ${refusal[transition]}`;
}
