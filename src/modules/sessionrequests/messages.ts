import { escapeHtml } from '../../platform/web/html';
import type { Language } from '../questionlists';
import type { Purpose } from './sessionrequests.view';

export interface MessageInput {
  language: Language;
  purpose: Purpose;
  kind: 'questionnaire' | 'signature' | 'questionnaireAndSignature';
  organisation: string;
  adviser: string | null;
  firstName: string | null;
  message: string | null;
  url: string;
  expiresAt: Date | null;
  timeZone: string;
}

export interface ComposedMessage {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

interface Words {
  task: Record<MessageInput['kind'], string>;
  subject: Record<Purpose, (org: string, task: string) => string>;
  greeting: (name: string | null) => string;
  lead: Record<Purpose, (who: string, task: string) => string>;
  open: string;
  until: (date: string) => string;
  regards: string;
  sms: (org: string, task: string, url: string) => string;
  locale: string;
}

const words: Record<Language, Words> = {
  nl: {
    task: {
      questionnaire: 'een vragenlijst in te vullen',
      signature: 'een document te ondertekenen',
      questionnaireAndSignature: 'een vragenlijst in te vullen en te ondertekenen',
    },
    subject: {
      invitation: (org) => `${org}: er staat een actie voor u klaar`,
      reminder1: (org) => `Herinnering: ${org} wacht nog op uw antwoord`,
      reminder2: (org) => `Laatste herinnering: ${org} wacht nog op uw antwoord`,
      reopened: (org) => `${org}: uw dossier is heropend`,
    },
    greeting: (n) => (n ? `Beste ${n},` : 'Beste,'),
    lead: {
      invitation: (who, task) => `${who} vraagt u ${task}.`,
      reminder1: (who, task) => `${who} herinnert u eraan ${task}.`,
      reminder2: (who, task) => `${who} herinnert u er nog een laatste keer aan ${task}.`,
      reopened: (who) =>
        `${who} heeft uw dossier heropend zodat u uw antwoorden kunt aanvullen of corrigeren.`,
    },
    open: 'Open deze link:',
    until: (d) => `De link is geldig tot ${d}.`,
    regards: 'Met vriendelijke groeten,',
    sms: (org, task, url) => `${org} vraagt u ${task}: ${url}`,
    locale: 'nl-BE',
  },
  fr: {
    // Infinitives without their preposition: « inviter à », « rappeler de ».
    task: {
      questionnaire: 'compléter un questionnaire',
      signature: 'signer un document',
      questionnaireAndSignature: 'compléter et signer un questionnaire',
    },
    subject: {
      invitation: (org) => `${org} : une action vous attend`,
      reminder1: (org) => `Rappel : ${org} attend encore votre réponse`,
      reminder2: (org) => `Dernier rappel : ${org} attend encore votre réponse`,
      reopened: (org) => `${org} : votre dossier a été rouvert`,
    },
    greeting: (n) => (n ? `Bonjour ${n},` : 'Bonjour,'),
    lead: {
      invitation: (who, task) => `${who} vous invite à ${task}.`,
      reminder1: (who, task) => `${who} vous rappelle de ${task}.`,
      reminder2: (who, task) => `${who} vous rappelle une dernière fois de ${task}.`,
      reopened: (who) =>
        `${who} a rouvert votre dossier pour que vous puissiez compléter ou corriger vos réponses.`,
    },
    open: 'Ouvrez ce lien :',
    until: (d) => `Le lien est valable jusqu’au ${d}.`,
    regards: 'Cordialement,',
    sms: (org, task, url) => `${org} vous invite à ${task} : ${url}`,
    locale: 'fr-BE',
  },
  en: {
    task: {
      questionnaire: 'to fill in a questionnaire',
      signature: 'to sign a document',
      questionnaireAndSignature: 'to fill in and sign a questionnaire',
    },
    subject: {
      invitation: (org) => `${org}: an action is waiting for you`,
      reminder1: (org) => `Reminder: ${org} is waiting for your answer`,
      reminder2: (org) => `Last reminder: ${org} is waiting for your answer`,
      reopened: (org) => `${org}: your file has been reopened`,
    },
    greeting: (n) => (n ? `Dear ${n},` : 'Hello,'),
    lead: {
      invitation: (who, task) => `${who} asks you ${task}.`,
      reminder1: (who, task) => `${who} reminds you ${task}.`,
      reminder2: (who, task) => `${who} reminds you one last time ${task}.`,
      reopened: (who) => `${who} has reopened your file so that you can complete or correct your answers.`,
    },
    open: 'Open this link:',
    until: (d) => `The link is valid until ${d}.`,
    regards: 'Kind regards,',
    sms: (org, task, url) => `${org} asks you ${task}: ${url}`,
    locale: 'en-GB',
  },
};

/** The invitation, reminder or reopening message in the action's language, as e-mail (text + HTML) and SMS. */
export function composeMessage(m: MessageInput): ComposedMessage {
  const w = words[m.language];
  const task = w.task[m.kind];
  const who = m.adviser ? `${m.adviser} (${m.organisation})` : m.organisation;
  const until = m.expiresAt
    ? w.until(
        new Intl.DateTimeFormat(w.locale, {
          dateStyle: 'long',
          timeStyle: 'short',
          timeZone: m.timeZone,
        }).format(m.expiresAt),
      )
    : null;
  const signature = [m.adviser, m.organisation].filter(Boolean) as string[];
  const paragraphs = [
    w.greeting(m.firstName),
    w.lead[m.purpose](who, task),
    ...(m.message ? [m.message] : []),
  ];
  const text = [
    ...paragraphs,
    `${w.open}\n${m.url}`,
    ...(until ? [until] : []),
    `${w.regards}\n${signature.join('\n')}`,
  ].join('\n\n');
  const p = (s: string) => `<p>${escapeHtml(s).replace(/\n/g, '<br>')}</p>`;
  const html = [
    `<!doctype html><html lang="${m.language}"><body style="font-family:sans-serif;line-height:1.5">`,
    ...paragraphs.map(p),
    `<p><a href="${escapeHtml(m.url)}">${escapeHtml(m.url)}</a></p>`,
    ...(until ? [p(until)] : []),
    p(`${w.regards}\n${signature.join('\n')}`),
    '</body></html>',
  ].join('\n');
  return {
    subject: w.subject[m.purpose](m.organisation, task),
    text,
    html,
    sms: w.sms(m.organisation, task, m.url),
  };
}
