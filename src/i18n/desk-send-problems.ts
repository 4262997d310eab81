// The send flow's problems in each language: what its own checks find, what is wrong with a signer, and
// a refusal of the service said against the part of the form it concerns.
import type { Language } from './languages';

/** A problem the send flow's own checks find, by name. */
export type SendProblemKey =
  | 'reminder1Days'
  | 'reminder2Days'
  | 'reminderOrder'
  | 'expiresOn'
  | 'messageLong'
  | 'channels'
  | 'titleMissing'
  | 'titleLong'
  | 'noContacts'
  | 'tooManySigners'
  | 'noTemplates'
  | 'noPortfolio'
  | 'noFile'
  | 'notPdf'
  | 'notMultipart'
  | 'fileGone';

/** What is wrong with one signer. */
export type SignerSays = 'noEmail' | 'noPhone' | 'badPhone' | 'noWay' | 'unknown' | 'unmatched';

/** The form's parts a refusal of the service is said against. */
export type SendField = 'file' | 'title' | 'signers' | 'channels' | 'expires' | 'reminders' | 'templates';

/**
 * A refused send's problem: one of the flow's own (by name), a signer's (the contact's id, or the
 * reference a deep link gave), a file too large (its limit), or a refusal the flow has no words for
 * (the service's words, said against the form's part).
 */
export type SendProblem =
  | SendProblemKey
  | { signer: string | null; says: SignerSays }
  | { tooLarge: number }
  | { field: SendField | null; text: string };

export interface SendProblemWords {
  problems: Record<SendProblemKey, string>;
  signerProblems: Record<SignerSays, (who: string) => string>;
  aSigner: string;
  tooLarge: (size: string) => string;
  fields: Record<SendField, string>;
  /** A refusal the flow has no words for, said against the form's part. */
  said: (part: string, text: string) => string;
}

const en: SendProblemWords = {
  problems: {
    reminder1Days: 'First reminder: give a number of days from 1 to 365',
    reminder2Days: 'Second reminder: give a number of days from 1 to 365',
    reminderOrder: 'Second reminder: must come after the first',
    expiresOn: 'Link works until: give a date such as 2026-12-31',
    messageLong: 'Personal message: at most 2000 characters',
    channels: 'Send the invitation by: choose e-mail, SMS or both',
    titleMissing: 'Title of the document: give the document a name',
    titleLong: 'Title of the document: at most 200 characters',
    noContacts: 'Contacts: choose at least one contact',
    tooManySigners: 'Signers: at most 10 signers sign one document',
    noTemplates: 'Questionnaire templates: choose at least one template',
    noPortfolio: 'Contacts: a new contact cannot be made, the organisation has no default portfolio',
    noFile: 'The PDF: choose a file',
    notPdf: 'The PDF: this file is not a PDF',
    notMultipart: 'The PDF: the file did not arrive; choose it again',
    fileGone: 'The PDF: upload the file again',
  },
  signerProblems: {
    noEmail: (who) => `${who}: no e-mail address for the e-mail invitation`,
    noPhone: (who) => `${who}: no mobile number for the SMS invitation`,
    badPhone: (who) => `${who}: the mobile number cannot receive an SMS`,
    noWay: (who) => `${who}: neither an e-mail address nor a mobile number to receive the code for signing`,
    unknown: (who) => `${who}: not a contact of this organisation`,
    unmatched: (who) => `No contact has the reference ${who}, and there is no e-mail address to make one.`,
  },
  aSigner: 'A signer',
  tooLarge: (size) => `The PDF: the file is larger than ${size}`,
  fields: {
    file: 'The PDF',
    title: 'Title of the document',
    signers: 'Signers',
    channels: 'Send the invitation by',
    expires: 'Link works until',
    reminders: 'Reminders',
    templates: 'Questionnaire templates',
  },
  said: (part, text) => `${part}: ${text}`,
};

const nl: SendProblemWords = {
  problems: {
    reminder1Days: 'Eerste herinnering: geef een aantal dagen van 1 tot 365',
    reminder2Days: 'Tweede herinnering: geef een aantal dagen van 1 tot 365',
    reminderOrder: 'Tweede herinnering: moet na de eerste komen',
    expiresOn: 'Link geldig tot: geef een datum zoals 2026-12-31',
    messageLong: 'Persoonlijk bericht: hoogstens 2000 tekens',
    channels: 'Uitnodiging versturen via: kies e-mail, sms of beide',
    titleMissing: 'Titel van het document: geef het document een naam',
    titleLong: 'Titel van het document: hoogstens 200 tekens',
    noContacts: 'Contacten: kies minstens één contact',
    tooManySigners: 'Ondertekenaars: hoogstens 10 ondertekenaars per document',
    noTemplates: 'Vragenlijstsjablonen: kies minstens één sjabloon',
    noPortfolio:
      'Contacten: er kan geen nieuw contact gemaakt worden, de organisatie heeft geen standaardportefeuille',
    noFile: 'De pdf: kies een bestand',
    notPdf: 'De pdf: dit bestand is geen pdf',
    notMultipart: 'De pdf: het bestand is niet aangekomen; kies het opnieuw',
    fileGone: 'De pdf: laad het bestand opnieuw op',
  },
  signerProblems: {
    noEmail: (who) => `${who}: geen e-mailadres voor de uitnodiging per e-mail`,
    noPhone: (who) => `${who}: geen gsm-nummer voor de uitnodiging per sms`,
    badPhone: (who) => `${who}: op het gsm-nummer kan geen sms ontvangen worden`,
    noWay: (who) =>
      `${who}: geen e-mailadres en geen gsm-nummer om de code voor de ondertekening te ontvangen`,
    unknown: (who) => `${who}: geen contact van deze organisatie`,
    unmatched: (who) =>
      `Geen enkel contact heeft de referentie ${who}, en er is geen e-mailadres om er een te maken.`,
  },
  aSigner: 'Een ondertekenaar',
  tooLarge: (size) => `De pdf: het bestand is groter dan ${size}`,
  fields: {
    file: 'De pdf',
    title: 'Titel van het document',
    signers: 'Ondertekenaars',
    channels: 'Uitnodiging versturen via',
    expires: 'Link geldig tot',
    reminders: 'Herinneringen',
    templates: 'Vragenlijstsjablonen',
  },
  said: (part, text) => `${part}: ${text}`,
};

const fr: SendProblemWords = {
  problems: {
    reminder1Days: 'Premier rappel : indiquez un nombre de jours de 1 à 365',
    reminder2Days: 'Second rappel : indiquez un nombre de jours de 1 à 365',
    reminderOrder: 'Second rappel : doit venir après le premier',
    expiresOn: 'Lien valable jusqu’au : indiquez une date comme 2026-12-31',
    messageLong: 'Message personnel : 2000 caractères au plus',
    channels: 'Envoyer l’invitation par : choisissez e-mail, SMS ou les deux',
    titleMissing: 'Titre du document : donnez un nom au document',
    titleLong: 'Titre du document : 200 caractères au plus',
    noContacts: 'Contacts : choisissez au moins un contact',
    tooManySigners: 'Signataires : 10 signataires au plus par document',
    noTemplates: 'Modèles de questionnaire : choisissez au moins un modèle',
    noPortfolio:
      'Contacts : aucun nouveau contact ne peut être créé, l’organisation n’a pas de portefeuille par défaut',
    noFile: 'Le PDF : choisissez un fichier',
    notPdf: 'Le PDF : ce fichier n’est pas un PDF',
    notMultipart: 'Le PDF : le fichier n’est pas arrivé ; choisissez-le à nouveau',
    fileGone: 'Le PDF : chargez à nouveau le fichier',
  },
  signerProblems: {
    noEmail: (who) => `${who} : pas d’adresse e-mail pour l’invitation par e-mail`,
    noPhone: (who) => `${who} : pas de numéro de mobile pour l’invitation par SMS`,
    badPhone: (who) => `${who} : le numéro de mobile ne peut pas recevoir de SMS`,
    noWay: (who) => `${who} : ni adresse e-mail ni numéro de mobile pour recevoir le code de signature`,
    unknown: (who) => `${who} : pas un contact de cette organisation`,
    unmatched: (who) =>
      `Aucun contact n’a la référence ${who}, et il n’y a pas d’adresse e-mail pour en créer un.`,
  },
  aSigner: 'Un signataire',
  tooLarge: (size) => `Le PDF : le fichier dépasse ${size}`,
  fields: {
    file: 'Le PDF',
    title: 'Titre du document',
    signers: 'Signataires',
    channels: 'Envoyer l’invitation par',
    expires: 'Lien valable jusqu’au',
    reminders: 'Rappels',
    templates: 'Modèles de questionnaire',
  },
  said: (part, text) => `${part} : ${text}`,
};

export const sendProblemWords: Record<Language, SendProblemWords> = { en, nl, fr };
