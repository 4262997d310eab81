import { escapeHtml } from '../../platform/web/html';
import type { Language } from '../questionlists';

export interface CodeMessageInput {
  language: Language;
  code: string;
  organisation: string;
  title: string;
  minutes: number;
}

const words: Record<
  Language,
  {
    subject: (code: string, org: string) => string;
    lead: (title: string, org: string) => string;
    valid: (m: number) => string;
    ignore: string;
    sms: (code: string, title: string, org: string, m: number) => string;
  }
> = {
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

/** The one-time code message, as e-mail (text and HTML) and SMS. */
export function composeCodeMessage(m: CodeMessageInput) {
  const w = words[m.language];
  const text = [w.lead(m.title, m.organisation), m.code, w.valid(m.minutes), w.ignore].join('\n\n');
  const html = [
    `<!doctype html><html lang="${m.language}"><body style="font-family:sans-serif;line-height:1.5">`,
    `<p>${escapeHtml(w.lead(m.title, m.organisation))}</p>`,
    `<p style="font-size:1.75rem;font-weight:700;letter-spacing:.2em">${escapeHtml(m.code)}</p>`,
    `<p>${escapeHtml(w.valid(m.minutes))}</p>`,
    `<p>${escapeHtml(w.ignore)}</p>`,
    '</body></html>',
  ].join('\n');
  return {
    subject: w.subject(m.code, m.organisation),
    text,
    html,
    sms: w.sms(m.code, m.title, m.organisation, m.minutes),
  };
}
