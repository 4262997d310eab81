// The invitation, reminder and reopening messages to a contact (modules/sessionrequests), by e-mail and
// SMS: their wording in each language. Which message goes out, to whom and with what, is the module's.
import type { Language } from './languages';

/** What an action asks of its contact, as its message words it. */
export type MessageKind = 'questionnaire' | 'signature' | 'questionnaireAndSignature';
/** Why a message goes out (the notification's purpose): each has its subject and lead. */
export type MessagePurpose = 'invitation' | 'reminder1' | 'reminder2' | 'reopened';

/** The invitation, reminder and reopening messages' wording in one language. */
export interface MessageTexts {
  /** What the contact is asked to do, as the lead and the SMS word it. */
  task: Record<MessageKind, string>;
  subject: Record<MessagePurpose, (org: string, task: string) => string>;
  greeting: (name: string | null) => string;
  lead: Record<MessagePurpose, (who: string, task: string) => string>;
  open: string;
  until: (date: string) => string;
  regards: string;
  sms: (org: string, task: string, url: string) => string;
}

export const messageTexts: Record<Language, MessageTexts> = {
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
  },
};
