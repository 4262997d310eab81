// The desk's Test inbox page (administrators, issue 31) in each language: the e-mails and text messages
// of test mode, kept instead of sent, with their codes and links.
import type { Language } from './languages';

export interface TestInboxWords {
  title: string;
  intro: string;
  noTwin: string;
  noTwinLink: string;
  none: string;
  recipient: string;
  recipientHint: string;
  filter: string;
  showAll: string;
  caption: string;
  to: string;
  channel: string;
  kind: string;
  at: string;
  code: string;
  links: string;
  text: string;
  attachments: string;
  channels: Record<'email' | 'sms', string>;
  kinds: Record<string, string>;
  more: (n: number) => string;
  inboxLink: string;
  inboxText: string;
}

const en: TestInboxWords = {
  title: 'Test inbox',
  intro:
    'The e-mails and text messages of test mode. What is made with a test API key or a test OAuth client never reaches anyone: its messages stop here, with their one-time codes and links, so you can play the contact.',
  noTwin: 'No test data yet. Test mode starts with a test API key:',
  noTwinLink: 'make one on a user’s page (mode Test)',
  none: 'No messages.',
  recipient: 'Recipient',
  recipientHint: 'An e-mail address or phone number, as the message was addressed.',
  filter: 'Filter',
  showAll: 'Show all',
  caption: 'Messages kept in test mode, newest first',
  to: 'To',
  channel: 'Channel',
  kind: 'What',
  at: 'When',
  code: 'Code',
  links: 'Links',
  text: 'The message',
  attachments: 'Attachments',
  channels: { email: 'E-mail', sms: 'Text message' },
  kinds: {
    notification: 'Invitation or reminder',
    'signing-code': 'Signing code',
    'signed-copy': 'Signed copy',
    'adviser-notice': 'Notice to the adviser',
    'adviser-digest': 'Daily summary',
    message: 'Message',
  },
  more: (n) => `The newest ${n} are shown: filter by recipient to find an older one.`,
  inboxLink: 'open the test inbox',
  inboxText: 'Messages of test mode (test API keys and clients) are kept instead of sent:',
};

const nl: TestInboxWords = {
  title: 'Testinbox',
  intro:
    'De e-mails en sms’en van de testmodus. Wat met een test-API-sleutel of een test-OAuth-client gemaakt wordt, bereikt nooit iemand: de berichten stoppen hier, met hun eenmalige codes en links, zodat u zelf de klant kunt spelen.',
  noTwin: 'Nog geen testgegevens. De testmodus begint met een test-API-sleutel:',
  noTwinLink: 'maak er een op de pagina van een gebruiker (modus Test)',
  none: 'Geen berichten.',
  recipient: 'Ontvanger',
  recipientHint: 'Een e-mailadres of telefoonnummer, zoals het bericht geadresseerd was.',
  filter: 'Filteren',
  showAll: 'Alles tonen',
  caption: 'Berichten bewaard in de testmodus, nieuwste eerst',
  to: 'Aan',
  channel: 'Kanaal',
  kind: 'Wat',
  at: 'Wanneer',
  code: 'Code',
  links: 'Links',
  text: 'Het bericht',
  attachments: 'Bijlagen',
  channels: { email: 'E-mail', sms: 'Sms' },
  kinds: {
    notification: 'Uitnodiging of herinnering',
    'signing-code': 'Ondertekeningscode',
    'signed-copy': 'Ondertekend exemplaar',
    'adviser-notice': 'Melding aan de adviseur',
    'adviser-digest': 'Dagelijks overzicht',
    message: 'Bericht',
  },
  more: (n) => `De nieuwste ${n} worden getoond: filter op ontvanger om een ouder bericht te vinden.`,
  inboxLink: 'open de testinbox',
  inboxText:
    'Berichten van de testmodus (test-API-sleutels en -clients) worden bewaard in plaats van verstuurd:',
};

const fr: TestInboxWords = {
  title: 'Boîte de test',
  intro:
    'Les e-mails et SMS du mode test. Ce qui est créé avec une clé d’API de test ou un client OAuth de test n’atteint jamais personne : ses messages s’arrêtent ici, avec leurs codes à usage unique et leurs liens, pour que vous puissiez jouer le client.',
  noTwin: 'Pas encore de données de test. Le mode test commence par une clé d’API de test :',
  noTwinLink: 'créez-en une sur la page d’un utilisateur (mode Test)',
  none: 'Aucun message.',
  recipient: 'Destinataire',
  recipientHint: 'Une adresse e-mail ou un numéro de téléphone, tel que le message était adressé.',
  filter: 'Filtrer',
  showAll: 'Tout afficher',
  caption: 'Messages conservés en mode test, les plus récents d’abord',
  to: 'À',
  channel: 'Canal',
  kind: 'Quoi',
  at: 'Quand',
  code: 'Code',
  links: 'Liens',
  text: 'Le message',
  attachments: 'Pièces jointes',
  channels: { email: 'E-mail', sms: 'SMS' },
  kinds: {
    notification: 'Invitation ou rappel',
    'signing-code': 'Code de signature',
    'signed-copy': 'Exemplaire signé',
    'adviser-notice': 'Avis au conseiller',
    'adviser-digest': 'Résumé quotidien',
    message: 'Message',
  },
  more: (n) =>
    `Les ${n} plus récents sont affichés : filtrez par destinataire pour en trouver un plus ancien.`,
  inboxLink: 'ouvrir la boîte de test',
  inboxText:
    'Les messages du mode test (clés d’API et clients de test) sont conservés au lieu d’être envoyés :',
};

export const testInboxWords: Record<Language, TestInboxWords> = { en, nl, fr };
