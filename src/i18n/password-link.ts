// The e-mail that sends a staff user the link to set or reset their password (modules/accounts). The
// staff side of ActionDesk speaks English, so this wording has one language.

/** Why the link was sent: a new account's first password, or a reset. */
type PasswordLinkPurpose = 'invite' | 'reset';

/** The password-link e-mail's wording. */
export const passwordLinkTexts: {
  subject: Record<PasswordLinkPurpose, (organisation: string) => string>;
  greeting: (name: string) => string;
  lead: Record<PasswordLinkPurpose, (organisation: string) => string>;
  /** `until`: when the link stops working, in UTC. */
  note: (until: string) => string;
} = {
  subject: {
    invite: (o) => `Set your password for ActionDesk (${o})`,
    reset: (o) => `Reset your ActionDesk password (${o})`,
  },
  greeting: (name) => `Hello ${name},`,
  lead: {
    invite: (o) => `${o} gave you an ActionDesk account. Choose your password with this link:`,
    reset: (o) =>
      `Someone asked to reset the password of your ActionDesk account at ${o}. Choose a new one with this link:`,
  },
  note: (until) =>
    `The link works once, until ${until} UTC. If you did not expect this message, you can ignore it: nothing changes until the link is used.`,
};
