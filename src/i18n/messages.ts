// The invitation, reminder and reopening messages to a contact (modules/sessionrequests), by e-mail and
// SMS: their wording in each language. Which message goes out, to whom and with what, is the module's.
import type { Language } from './languages';

/** What an action asks of its contact, as its message words it. */
export type MessageKind = 'questionnaire' | 'signature' | 'questionnaireAndSignature';
/** Why a message goes out (the notification's purpose): each has its subject and lead. */
export type MessagePurpose = 'invitation' | 'reminder1' | 'reminder2' | 'reopened';

/** The invitation, reminder and reopening messages' wording in one language. */
export interface MessageTexts {
  /** What the contact is asked to do, as the SMS (and an e-mail about nothing by name) words it. */
  task: Record<MessageKind, string>;
  /** The same, naming what (the quoted names, `quote`): the e-mail's lead and subject. */
  named: Record<MessageKind, (what: string) => string>;
  /** A document's or questionnaire's name, quoted as the language does. */
  quote: (name: string) => string;
  /** `what`: the quoted names (null when there are none: the subject then names nothing). */
  subject: Record<MessagePurpose, (org: string, task: string, what: string | null) => string>;
  greeting: (name: string | null) => string;
  lead: Record<MessagePurpose, (who: string, task: string, what: string | null) => string>;
  /** The e-mail's one button. */
  button: Record<MessageKind, string>;
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
    named: {
      questionnaire: (what) => `${what} in te vullen`,
      signature: (what) => `${what} te ondertekenen`,
      questionnaireAndSignature: (what) => `${what} in te vullen en te ondertekenen`,
    },
    quote: (name) => `«${name}»`,
    subject: {
      invitation: (org, task, what) =>
        what ? `${org} vraagt u ${task}` : `${org}: er staat een actie voor u klaar`,
      reminder1: (org, task, what) =>
        what ? `Herinnering: ${org} vraagt u nog ${task}` : `Herinnering: ${org} wacht nog op uw antwoord`,
      reminder2: (org, task, what) =>
        what
          ? `Laatste herinnering: ${org} vraagt u nog ${task}`
          : `Laatste herinnering: ${org} wacht nog op uw antwoord`,
      reopened: (org, _task, what) =>
        what ? `${org} heeft ${what} heropend` : `${org}: uw dossier is heropend`,
    },
    greeting: (n) => (n ? `Beste ${n},` : 'Beste,'),
    lead: {
      invitation: (who, task) => `${who} vraagt u ${task}.`,
      reminder1: (who, task) => `${who} herinnert u eraan ${task}.`,
      reminder2: (who, task) => `${who} herinnert u er nog een laatste keer aan ${task}.`,
      reopened: (who, _task, what) =>
        `${who} heeft ${what ?? 'uw dossier'} heropend zodat u uw antwoorden kunt aanvullen of corrigeren.`,
    },
    button: {
      questionnaire: 'Vragenlijst openen',
      signature: 'Document openen',
      questionnaireAndSignature: 'Vragenlijst openen',
    },
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
    named: {
      questionnaire: (what) => `compléter ${what}`,
      signature: (what) => `signer ${what}`,
      questionnaireAndSignature: (what) => `compléter et signer ${what}`,
    },
    quote: (name) => `« ${name} »`,
    subject: {
      invitation: (org, task, what) =>
        what ? `${org} vous invite à ${task}` : `${org} : une action vous attend`,
      reminder1: (org, task, what) =>
        what
          ? `Rappel : ${org} vous invite toujours à ${task}`
          : `Rappel : ${org} attend encore votre réponse`,
      reminder2: (org, task, what) =>
        what
          ? `Dernier rappel : ${org} vous invite toujours à ${task}`
          : `Dernier rappel : ${org} attend encore votre réponse`,
      reopened: (org, _task, what) =>
        what ? `${org} a rouvert ${what}` : `${org} : votre dossier a été rouvert`,
    },
    greeting: (n) => (n ? `Bonjour ${n},` : 'Bonjour,'),
    lead: {
      invitation: (who, task) => `${who} vous invite à ${task}.`,
      reminder1: (who, task) => `${who} vous rappelle de ${task}.`,
      reminder2: (who, task) => `${who} vous rappelle une dernière fois de ${task}.`,
      reopened: (who, _task, what) =>
        `${who} a rouvert ${what ?? 'votre dossier'} pour que vous puissiez compléter ou corriger vos réponses.`,
    },
    button: {
      questionnaire: 'Ouvrir le questionnaire',
      signature: 'Ouvrir le document',
      questionnaireAndSignature: 'Ouvrir le questionnaire',
    },
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
    named: {
      questionnaire: (what) => `to fill in ${what}`,
      signature: (what) => `to sign ${what}`,
      questionnaireAndSignature: (what) => `to fill in and sign ${what}`,
    },
    quote: (name) => `“${name}”`,
    subject: {
      invitation: (org, task, what) =>
        what ? `${org} asks you ${task}` : `${org}: an action is waiting for you`,
      reminder1: (org, task, what) =>
        what ? `Reminder: ${org} still asks you ${task}` : `Reminder: ${org} is waiting for your answer`,
      reminder2: (org, task, what) =>
        what
          ? `Last reminder: ${org} still asks you ${task}`
          : `Last reminder: ${org} is waiting for your answer`,
      reopened: (org, _task, what) =>
        what ? `${org} has reopened ${what}` : `${org}: your file has been reopened`,
    },
    greeting: (n) => (n ? `Dear ${n},` : 'Hello,'),
    lead: {
      invitation: (who, task) => `${who} asks you ${task}.`,
      reminder1: (who, task) => `${who} reminds you ${task}.`,
      reminder2: (who, task) => `${who} reminds you one last time ${task}.`,
      reopened: (who, _task, what) =>
        `${who} has reopened ${what ?? 'your file'} so that you can complete or correct your answers.`,
    },
    button: {
      questionnaire: 'Open the questionnaire',
      signature: 'Open the document',
      questionnaireAndSignature: 'Open the questionnaire',
    },
    until: (d) => `The link is valid until ${d}.`,
    regards: 'Kind regards,',
    sms: (org, task, url) => `${org} asks you ${task}: ${url}`,
  },
};
