// The one-time code a signer confirms with (modules/signing), by e-mail and SMS: its wording in each language.
import type { Language } from './languages';

/** The code message's wording in one language. */
export interface CodeMessageTexts {
  subject: (code: string, org: string) => string;
  lead: (title: string, org: string) => string;
  valid: (m: number) => string;
  ignore: string;
  sms: (code: string, title: string, org: string, m: number) => string;
}

export const codeMessageTexts: Record<Language, CodeMessageTexts> = {
  nl: {
    subject: (c, o) => `${c} is uw code om te ondertekenen bij ${o}`,
    lead: (t, o) => `Gebruik deze code om «${t}» van ${o} te ondertekenen:`,
    valid: (m) => `De code is ${m} minuten geldig en werkt één keer.`,
    ignore: 'Hebt u deze code niet gevraagd? Dan mag u dit bericht negeren; geef de code aan niemand door.',
    sms: (c, t, o, m) =>
      `${c} is uw code om «${t}» van ${o} te ondertekenen. ${m} min geldig. Geef hem aan niemand door.`,
  },
  fr: {
    subject: (c, o) => `${c} est votre code de signature chez ${o}`,
    lead: (t, o) => `Utilisez ce code pour signer « ${t} » de ${o} :`,
    valid: (m) => `Le code est valable ${m} minutes et ne sert qu’une fois.`,
    ignore: 'Vous n’avez pas demandé ce code ? Ignorez ce message et ne communiquez le code à personne.',
    sms: (c, t, o, m) =>
      `${c} est votre code pour signer « ${t} » de ${o}. Valable ${m} min. Ne le communiquez à personne.`,
  },
  en: {
    subject: (c, o) => `${c} is your code to sign with ${o}`,
    lead: (t, o) => `Use this code to sign “${t}” from ${o}:`,
    valid: (m) => `The code is valid for ${m} minutes and works once.`,
    ignore: 'Did not ask for this code? Ignore this message and never share the code.',
    sms: (c, t, o, m) => `${c} is your code to sign "${t}" from ${o}. Valid ${m} min. Never share it.`,
  },
};
