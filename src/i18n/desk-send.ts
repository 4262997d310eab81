// The desk's send flow in each language: the contact step, the options every send asks, the document
// step (a PDF uploaded here), the deep links' quick-signing and action steps, the page after sending and
// a setup that cannot be used (the problems of a refused form: desk-send-problems.ts).
import type { Language } from './languages';

export interface SendWords {
  stepsLabel: string;
  done: string;
  steps: Record<
    'contacts' | 'options' | 'document' | 'contactAndDocument' | 'signingOptions' | 'sent',
    string
  >;
  sendBy: string;
  email: string;
  sms: string;
  smsHint: string;
  reminder1: string;
  reminder2: string;
  expires: string;
  language: string;
  message: string;
  signature: string;
  simple: string;
  qualified: string;
  quickTitle: string;
  signer: string;
  signers: string;
  name: string;
  emailAddress: string;
  mobile: string;
  yourRef: string;
  matched: Record<'thirdpartyId' | 'email' | 'new', string>;
  document: string;
  docTitle: string;
  docKind: string;
  file: string;
  size: (kb: string, pages: number) => string;
  firstPage: (title: string) => string;
  noPreview: string;
  signingOptions: string;
  sendForSigning: string;
  changesLead: string;
  nothing: string;
  fieldNames: Record<'email' | 'firstName' | 'lastName' | 'phone', string>;
  actionTitle: string;
  contacts: string;
  fromCrm: string;
  reference: (ref: string) => string;
  existing: string;
  newContact: string;
  templates: string;
  noTemplates: string;
  kind: string;
  qlist: string;
  multisigning: string;
  together: string;
  oneAfterAnother: string;
  send: string;
  noName: string;
  find: string;
  search: string;
  addNew: string;
  matching: (q: string, n: number) => string;
  all: (n: number) => string;
  noneFound: string;
  nextOptions: string;
  nextDocument: string;
  sentTitle: string;
  oneMade: string;
  manyMade: (n: number) => string;
  another: string;
  unknownTitle: string;
  unknownText: string;
  goneTitle: string;
  usedOn: string;
  expiredOn: string;
  goBack: string;
  startHere: string;
  pdfLabel: string;
  dropHint: (size: string) => string;
  upload: string;
  chooseAnother: string;
  pagesAndSize: (pages: number, size: string) => string;
  firstShown: (n: number) => string;
  pageOf: (page: number, pages: number) => string;
  noPreviewSigners: string;
  titleLabel: string;
  titleHint: string;
  allAtOnce: string;
  inThisOrder: string;
  order: string;
  orderOf: (name: string) => string;
}

const en: SendWords = {
  stepsLabel: 'Steps',
  done: 'Done: ',
  steps: {
    contacts: 'Contacts',
    options: 'Templates and notifications',
    document: 'Document and signers',
    contactAndDocument: 'Contact and document',
    signingOptions: 'Signing options',
    sent: 'Sent',
  },
  sendBy: 'Send the invitation by',
  email: 'E-mail',
  sms: 'SMS',
  smsHint: 'SMS needs a mobile number on the contact.',
  reminder1: 'First reminder after (days)',
  reminder2: 'Second reminder after (days)',
  expires: 'Link works until (optional)',
  language: 'Language',
  message: 'Personal message in the invitation (optional)',
  signature: 'Signature',
  simple: 'Simple: a one-time code, then a drawn or typed signature; the PDF is sealed',
  qualified: 'Qualified, through the configured trust service',
  quickTitle: 'Send a document to sign',
  signer: 'Signer',
  signers: 'Signers',
  name: 'Name',
  emailAddress: 'E-mail',
  mobile: 'Mobile',
  yourRef: 'Your reference',
  matched: {
    thirdpartyId: 'An existing contact (found by your reference).',
    email: 'An existing contact (found by e-mail).',
    new: 'A new contact: made when you send.',
  },
  document: 'Document',
  docTitle: 'Title',
  docKind: 'Kind',
  file: 'File',
  size: (kb, pages) => `${kb}, ${pages} ${pages === 1 ? 'page' : 'pages'}`,
  firstPage: (title) => `First page of ${title}`,
  noPreview: 'No preview can be drawn on this server.',
  signingOptions: 'Signing options',
  sendForSigning: 'Send for signing',
  changesLead: 'Sending updates the stored contact from your CRM:',
  nothing: '(none)',
  fieldNames: { email: 'E-mail', firstName: 'First name', lastName: 'Last name', phone: 'Mobile' },
  actionTitle: 'Send an action',
  contacts: 'Contacts',
  fromCrm: ' (from your CRM)',
  reference: (ref) => `(ref. ${ref})`,
  existing: 'existing contact',
  newContact: 'new contact',
  templates: 'Questionnaire templates',
  noTemplates: 'The organisation has no active template yet: add one first.',
  kind: 'Kind of action',
  qlist: 'Questionnaire',
  multisigning: 'Questionnaire, then signing its report',
  together: 'With several contacts: one document they all sign (otherwise one action each)',
  oneAfterAnother: 'Sign one after the other, in the order listed',
  send: 'Send',
  noName: '(no name)',
  find: 'Find contacts by name, e-mail or reference',
  search: 'Search',
  addNew: 'Not there? Add a new contact',
  matching: (q, n) => `Contacts matching “${q}” (${n})`,
  all: (n) => `Contacts (${n})`,
  noneFound: 'No contact found.',
  nextOptions: 'Next: templates and notifications',
  nextDocument: 'Next: a document to sign',
  sentTitle: 'Sent',
  oneMade: 'The action was made.',
  manyMade: (n) => `${n} actions were made.`,
  another: 'Send another',
  unknownTitle: 'This link is not known here',
  unknownText: 'It may belong to another organisation, or it was mistyped.',
  goneTitle: 'This link can no longer be used',
  usedOn: 'It was used on',
  expiredOn: 'It expired on',
  goBack: 'Go back to your CRM and open the link again: it makes a new one. Or',
  startHere: 'start a new action here',
  pdfLabel: 'The PDF to sign',
  dropHint: (size) => `Drag the file onto this box, or choose it. A PDF of at most ${size}.`,
  upload: 'Upload and show the pages',
  chooseAnother: 'Choose another file',
  pagesAndSize: (pages, size) => `${pages} ${pages === 1 ? 'page' : 'pages'}, ${size}.`,
  pageOf: (page, pages) => `Page ${page} of ${pages}`,
  firstShown: (n) => `The first ${n} pages are shown.`,
  noPreviewSigners: 'No preview can be drawn on this server; the signers see the download.',
  titleLabel: 'Title of the document',
  titleHint: 'The signers see it in the invitation, on the page and in the consent they give.',
  allAtOnce: 'All at once: everyone is invited now',
  inThisOrder: 'One after the other, in this order: each is invited when the one before has signed',
  order: 'Order',
  orderOf: (name) => ` of ${name}`,
};

const nl: SendWords = {
  stepsLabel: 'Stappen',
  done: 'Klaar: ',
  steps: {
    contacts: 'Contacten',
    options: 'Sjablonen en berichten',
    document: 'Document en ondertekenaars',
    contactAndDocument: 'Contact en document',
    signingOptions: 'Opties voor ondertekening',
    sent: 'Verstuurd',
  },
  sendBy: 'Uitnodiging versturen via',
  email: 'E-mail',
  sms: 'Sms',
  smsHint: 'Voor een sms is een gsm-nummer van het contact nodig.',
  reminder1: 'Eerste herinnering na (dagen)',
  reminder2: 'Tweede herinnering na (dagen)',
  expires: 'Link geldig tot (optioneel)',
  language: 'Taal',
  message: 'Persoonlijk bericht in de uitnodiging (optioneel)',
  signature: 'Handtekening',
  simple: 'Eenvoudig: een eenmalige code, dan een getekende of getypte handtekening; de pdf wordt verzegeld',
  qualified: 'Gekwalificeerd, via de ingestelde vertrouwensdienst',
  quickTitle: 'Document laten ondertekenen',
  signer: 'Ondertekenaar',
  signers: 'Ondertekenaars',
  name: 'Naam',
  emailAddress: 'E-mail',
  mobile: 'Gsm',
  yourRef: 'Uw referentie',
  matched: {
    thirdpartyId: 'Een bestaand contact (gevonden op uw referentie).',
    email: 'Een bestaand contact (gevonden op e-mailadres).',
    new: 'Een nieuw contact: aangemaakt bij het versturen.',
  },
  document: 'Document',
  docTitle: 'Titel',
  docKind: 'Soort',
  file: 'Bestand',
  size: (kb, pages) => `${kb}, ${pages} ${pages === 1 ? 'pagina' : 'pagina’s'}`,
  firstPage: (title) => `Eerste pagina van ${title}`,
  noPreview: 'Op deze server kan geen voorbeeld getoond worden.',
  signingOptions: 'Opties voor ondertekening',
  sendForSigning: 'Versturen ter ondertekening',
  changesLead: 'Bij het versturen wordt het bewaarde contact bijgewerkt vanuit uw CRM:',
  nothing: '(leeg)',
  fieldNames: { email: 'E-mail', firstName: 'Voornaam', lastName: 'Achternaam', phone: 'Gsm' },
  actionTitle: 'Actie versturen',
  contacts: 'Contacten',
  fromCrm: ' (uit uw CRM)',
  reference: (ref) => `(ref. ${ref})`,
  existing: 'bestaand contact',
  newContact: 'nieuw contact',
  templates: 'Vragenlijstsjablonen',
  noTemplates: 'De organisatie heeft nog geen actief sjabloon: voeg er eerst een toe.',
  kind: 'Soort actie',
  qlist: 'Vragenlijst',
  multisigning: 'Vragenlijst, daarna het verslag ondertekenen',
  together:
    'Bij meerdere contacten: één document dat ze allemaal ondertekenen (anders één actie per contact)',
  oneAfterAnother: 'Na elkaar ondertekenen, in de getoonde volgorde',
  send: 'Versturen',
  noName: '(geen naam)',
  find: 'Contacten zoeken op naam, e-mailadres of referentie',
  search: 'Zoeken',
  addNew: 'Niet gevonden? Nieuw contact toevoegen',
  matching: (q, n) => `Contacten voor “${q}” (${n})`,
  all: (n) => `Contacten (${n})`,
  noneFound: 'Geen contact gevonden.',
  nextOptions: 'Volgende: sjablonen en berichten',
  nextDocument: 'Volgende: een document om te ondertekenen',
  sentTitle: 'Verstuurd',
  oneMade: 'De actie is aangemaakt.',
  manyMade: (n) => `Er zijn ${n} acties aangemaakt.`,
  another: 'Nog een versturen',
  unknownTitle: 'Deze link is hier niet bekend',
  unknownText: 'Hij hoort misschien bij een andere organisatie, of er is een tikfout gemaakt.',
  goneTitle: 'Deze link kan niet meer gebruikt worden',
  usedOn: 'Hij werd al gebruikt op',
  expiredOn: 'Hij is verlopen op',
  goBack: 'Ga terug naar uw CRM en open de link opnieuw: dan wordt er een nieuwe gemaakt. Of',
  startHere: 'begin hier een nieuwe actie',
  pdfLabel: 'De pdf om te ondertekenen',
  dropHint: (size) => `Sleep het bestand naar dit vak, of kies het. Een pdf van hoogstens ${size}.`,
  upload: 'Opladen en pagina’s tonen',
  chooseAnother: 'Ander bestand kiezen',
  pagesAndSize: (pages, size) => `${pages} ${pages === 1 ? 'pagina' : 'pagina’s'}, ${size}.`,
  pageOf: (page, pages) => `Pagina ${page} van ${pages}`,
  firstShown: (n) => `De eerste ${n} pagina’s worden getoond.`,
  noPreviewSigners:
    'Op deze server kan geen voorbeeld getoond worden; de ondertekenaars krijgen het bestand te downloaden.',
  titleLabel: 'Titel van het document',
  titleHint: 'De ondertekenaars zien die in de uitnodiging, op de pagina en in de toestemming die ze geven.',
  allAtOnce: 'Allemaal tegelijk: iedereen wordt nu uitgenodigd',
  inThisOrder: 'Na elkaar, in deze volgorde: elk wordt uitgenodigd wanneer de vorige getekend heeft',
  order: 'Volgorde',
  orderOf: (name) => ` van ${name}`,
};

const fr: SendWords = {
  stepsLabel: 'Étapes',
  done: 'Fait : ',
  steps: {
    contacts: 'Contacts',
    options: 'Modèles et notifications',
    document: 'Document et signataires',
    contactAndDocument: 'Contact et document',
    signingOptions: 'Options de signature',
    sent: 'Envoyé',
  },
  sendBy: 'Envoyer l’invitation par',
  email: 'E-mail',
  sms: 'SMS',
  smsHint: 'Un SMS demande un numéro de mobile pour le contact.',
  reminder1: 'Premier rappel après (jours)',
  reminder2: 'Second rappel après (jours)',
  expires: 'Lien valable jusqu’au (facultatif)',
  language: 'Langue',
  message: 'Message personnel dans l’invitation (facultatif)',
  signature: 'Signature',
  simple: 'Simple : un code à usage unique, puis une signature dessinée ou tapée ; le PDF est scellé',
  qualified: 'Qualifiée, par le service de confiance configuré',
  quickTitle: 'Envoyer un document à signer',
  signer: 'Signataire',
  signers: 'Signataires',
  name: 'Nom',
  emailAddress: 'E-mail',
  mobile: 'Mobile',
  yourRef: 'Votre référence',
  matched: {
    thirdpartyId: 'Un contact existant (trouvé par votre référence).',
    email: 'Un contact existant (trouvé par e-mail).',
    new: 'Un nouveau contact : créé à l’envoi.',
  },
  document: 'Document',
  docTitle: 'Titre',
  docKind: 'Type',
  file: 'Fichier',
  size: (kb, pages) => `${kb}, ${pages} ${pages === 1 ? 'page' : 'pages'}`,
  firstPage: (title) => `Première page de ${title}`,
  noPreview: 'Aucun aperçu ne peut être affiché sur ce serveur.',
  signingOptions: 'Options de signature',
  sendForSigning: 'Envoyer pour signature',
  changesLead: 'L’envoi met à jour le contact enregistré depuis votre CRM :',
  nothing: '(vide)',
  fieldNames: { email: 'E-mail', firstName: 'Prénom', lastName: 'Nom', phone: 'Mobile' },
  actionTitle: 'Envoyer une action',
  contacts: 'Contacts',
  fromCrm: ' (de votre CRM)',
  reference: (ref) => `(réf. ${ref})`,
  existing: 'contact existant',
  newContact: 'nouveau contact',
  templates: 'Modèles de questionnaire',
  noTemplates: 'L’organisation n’a encore aucun modèle actif : ajoutez-en un d’abord.',
  kind: 'Type d’action',
  qlist: 'Questionnaire',
  multisigning: 'Questionnaire, puis signature de son rapport',
  together: 'Avec plusieurs contacts : un seul document qu’ils signent tous (sinon une action chacun)',
  oneAfterAnother: 'Signer l’un après l’autre, dans l’ordre de la liste',
  send: 'Envoyer',
  noName: '(sans nom)',
  find: 'Chercher des contacts par nom, e-mail ou référence',
  search: 'Chercher',
  addNew: 'Pas dans la liste ? Ajouter un nouveau contact',
  matching: (q, n) => `Contacts pour « ${q} » (${n})`,
  all: (n) => `Contacts (${n})`,
  noneFound: 'Aucun contact trouvé.',
  nextOptions: 'Suivant : modèles et notifications',
  nextDocument: 'Suivant : un document à signer',
  sentTitle: 'Envoyé',
  oneMade: 'L’action a été créée.',
  manyMade: (n) => `${n} actions ont été créées.`,
  another: 'En envoyer une autre',
  unknownTitle: 'Ce lien n’est pas connu ici',
  unknownText: 'Il appartient peut-être à une autre organisation, ou il a été mal recopié.',
  goneTitle: 'Ce lien ne peut plus être utilisé',
  usedOn: 'Il a été utilisé le',
  expiredOn: 'Il a expiré le',
  goBack: 'Retournez dans votre CRM et rouvrez le lien : il en crée un nouveau. Ou',
  startHere: 'commencez une nouvelle action ici',
  pdfLabel: 'Le PDF à signer',
  dropHint: (size) => `Glissez le fichier dans ce cadre, ou choisissez-le. Un PDF de ${size} au plus.`,
  upload: 'Charger et afficher les pages',
  chooseAnother: 'Choisir un autre fichier',
  pagesAndSize: (pages, size) => `${pages} ${pages === 1 ? 'page' : 'pages'}, ${size}.`,
  pageOf: (page, pages) => `Page ${page} sur ${pages}`,
  firstShown: (n) => `Les ${n} premières pages sont affichées.`,
  noPreviewSigners:
    'Aucun aperçu ne peut être affiché sur ce serveur ; les signataires reçoivent le fichier.',
  titleLabel: 'Titre du document',
  titleHint:
    'Les signataires le voient dans l’invitation, sur la page et dans le consentement qu’ils donnent.',
  allAtOnce: 'Tous en même temps : chacun est invité maintenant',
  inThisOrder: 'L’un après l’autre, dans cet ordre : chacun est invité quand le précédent a signé',
  order: 'Ordre',
  orderOf: (name) => ` de ${name}`,
};

export const sendWords: Record<Language, SendWords> = { en, nl, fr };
