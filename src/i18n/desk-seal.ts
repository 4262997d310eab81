// The desk's page for the organisation's document seal in each language (administrators): which
// certificate seals its documents, uploading its own (a PKCS#12 file and its password), removing it.
import type { Language } from './languages';

/** Why an uploaded seal was refused; the API says it in English, the page in the reader's language. */
export type SealRefusal =
  | 'notBase64'
  | 'tooLarge'
  | 'tooSlow'
  | 'notPkcs12'
  | 'noKey'
  | 'wrongPassword'
  | 'expired'
  | 'notYetValid'
  | 'mayNotSign'
  | 'noRevocation'
  /** The form itself could not be read (not multipart, a part it does not know, cut short). */
  | 'unreadable';

/** What a form post of the page just did (`?done=…`). */
export type SealNotice = 'uploaded' | 'removed';

export interface SealWords {
  title: string;
  /** The link to this page on the administrator's settings page. */
  link: string;
  intro: string;
  inUse: string;
  /** The facts' first line: which seal. */
  which: string;
  own: string;
  service: string;
  level: string;
  subject: string;
  issuer: string;
  serialNumber: string;
  validFrom: string;
  validUntil: string;
  daysLeft: (days: number) => string;
  fingerprint: string;
  uploadedOn: string;
  ownExpired: (date: string) => string;
  expiresSoon: (days: number) => string;
  testNote: string;
  upload: string;
  replace: string;
  file: string;
  fileHint: string;
  password: string;
  passwordHint: string;
  send: string;
  remove: string;
  confirmRemove: string;
  refused: Record<SealRefusal, string>;
  notices: Record<SealNotice, string>;
}

export const sealWords: Record<Language, SealWords> = {
  en: {
    title: 'Document seal',
    link: 'The seal on your signed documents: the service’s, or your organisation’s own certificate',
    intro:
      'Every signed document carries an electronic seal: a PDF digital signature that shows it was made through this service and has not been changed since. By default it is the service’s seal. Upload your organisation’s own seal certificate (a PKCS#12 file from a trust service provider) to have documents sealed in your organisation’s name.',
    inUse: 'The seal in use',
    which: 'Seal',
    own: 'Your organisation’s own seal',
    service: 'The service’s seal',
    level: 'Level',
    subject: 'Certificate of',
    issuer: 'Issued by',
    serialNumber: 'Serial number',
    validFrom: 'Valid from',
    validUntil: 'Valid until',
    daysLeft: (days) => (days === 1 ? '1 day left' : `${days} days left`),
    fingerprint: 'SHA-256 fingerprint',
    uploadedOn: 'Uploaded on',
    ownExpired: (date) =>
      `Your organisation’s own seal expired on ${date}. Documents are sealed with the service’s seal until you upload a new one.`,
    expiresSoon: (days) =>
      `Your seal expires in ${days === 1 ? '1 day' : `${days} days`}. Upload its successor before then; after that, documents are sealed with the service’s seal.`,
    testNote: 'Documents signed in test mode are always sealed with the test seal, whatever is set here.',
    upload: 'Upload your own seal',
    replace: 'Replace your seal',
    file: 'PKCS#12 file (.p12 or .pfx)',
    fileHint:
      'The private key (RSA), its certificate and the chain up to the authority, at most 64 KB. The certificate must be valid now and allow signing.',
    password: 'Password of the file',
    passwordHint: 'Kept encrypted, and never shown again.',
    send: 'Upload the seal',
    remove: 'Remove your own seal',
    confirmRemove: 'Remove your own seal? Documents are then sealed with the service’s seal.',
    refused: {
      notBase64: 'The file could not be read. Choose the PKCS#12 file again.',
      tooLarge: 'The file is larger than 64 KB: it is not a seal’s PKCS#12 file.',
      tooSlow:
        'The file takes too long to open: its password protection asks for far more work than a seal needs. Export it again with the usual settings.',
      notPkcs12: 'This is not a PKCS#12 file (.p12 or .pfx).',
      noKey: 'The file must hold a private key and the certificate that goes with it.',
      wrongPassword: 'This password does not open the file.',
      expired: 'The certificate in the file has expired.',
      notYetValid: 'The certificate in the file is not valid yet.',
      mayNotSign: 'The certificate in the file may not be used for signing (its key usage).',
      noRevocation:
        'Documents are sealed for long-term validation, which needs to check whether each certificate is revoked, and this file gives no way to: include the chain up to the authority, or ask your provider for a certificate that names an OCSP responder or CRL.',
      unreadable:
        'The upload could not be read. Choose the file again, type its password and send the form once.',
    },
    notices: {
      uploaded: 'Your seal is uploaded. Documents signed from now on are sealed with it.',
      removed: 'Your seal is removed. Documents are sealed with the service’s seal.',
    },
  },
  nl: {
    title: 'Documentzegel',
    link: 'Het zegel op uw ondertekende documenten: dat van de dienst, of het eigen certificaat van uw organisatie',
    intro:
      'Elk ondertekend document draagt een elektronisch zegel: een digitale PDF-handtekening die toont dat het via deze dienst gemaakt is en sindsdien niet gewijzigd werd. Standaard is dat het zegel van de dienst. Laad het eigen zegelcertificaat van uw organisatie op (een PKCS#12-bestand van een vertrouwensdienstverlener) om documenten in naam van uw organisatie te laten verzegelen.',
    inUse: 'Het gebruikte zegel',
    which: 'Zegel',
    own: 'Het eigen zegel van uw organisatie',
    service: 'Het zegel van de dienst',
    level: 'Niveau',
    subject: 'Certificaat van',
    issuer: 'Uitgegeven door',
    serialNumber: 'Serienummer',
    validFrom: 'Geldig vanaf',
    validUntil: 'Geldig tot',
    daysLeft: (days) => (days === 1 ? 'nog 1 dag' : `nog ${days} dagen`),
    fingerprint: 'SHA-256-vingerafdruk',
    uploadedOn: 'Opgeladen op',
    ownExpired: (date) =>
      `Het eigen zegel van uw organisatie is verlopen op ${date}. Documenten worden met het zegel van de dienst verzegeld tot u een nieuw oplaadt.`,
    expiresSoon: (days) =>
      `Uw zegel verloopt over ${days === 1 ? '1 dag' : `${days} dagen`}. Laad de opvolger vóór dan op; daarna worden documenten met het zegel van de dienst verzegeld.`,
    testNote:
      'Documenten die in testmodus ondertekend worden, krijgen altijd het testzegel, wat hier ook ingesteld is.',
    upload: 'Uw eigen zegel opladen',
    replace: 'Uw zegel vervangen',
    file: 'PKCS#12-bestand (.p12 of .pfx)',
    fileHint:
      'De privésleutel (RSA), het certificaat en de keten tot de uitgever, hoogstens 64 KB. Het certificaat moet nu geldig zijn en ondertekenen toelaten.',
    password: 'Wachtwoord van het bestand',
    passwordHint: 'Wordt versleuteld bewaard en nooit meer getoond.',
    send: 'Het zegel opladen',
    remove: 'Uw eigen zegel verwijderen',
    confirmRemove: 'Uw eigen zegel verwijderen? Documenten krijgen dan het zegel van de dienst.',
    refused: {
      notBase64: 'Het bestand kon niet gelezen worden. Kies het PKCS#12-bestand opnieuw.',
      tooLarge: 'Het bestand is groter dan 64 KB: het is geen PKCS#12-bestand van een zegel.',
      tooSlow:
        'Het bestand opent te traag: de wachtwoordbeveiliging vraagt veel meer werk dan een zegel nodig heeft. Exporteer het opnieuw met de gewone instellingen.',
      notPkcs12: 'Dit is geen PKCS#12-bestand (.p12 of .pfx).',
      noKey: 'Het bestand moet een privésleutel bevatten en het certificaat dat erbij hoort.',
      wrongPassword: 'Dit wachtwoord opent het bestand niet.',
      expired: 'Het certificaat in het bestand is verlopen.',
      notYetValid: 'Het certificaat in het bestand is nog niet geldig.',
      mayNotSign:
        'Het certificaat in het bestand mag niet gebruikt worden om te ondertekenen (sleutelgebruik).',
      noRevocation:
        'Documenten worden verzegeld voor validatie op lange termijn, waarvoor van elk certificaat nagegaan moet worden of het ingetrokken is, en dit bestand biedt daar geen weg voor: voeg de keten tot de uitgever toe, of vraag uw leverancier een certificaat dat een OCSP-responder of CRL vermeldt.',
      unreadable:
        'Het opladen kon niet gelezen worden. Kies het bestand opnieuw, typ het wachtwoord en verstuur het formulier één keer.',
    },
    notices: {
      uploaded: 'Uw zegel is opgeladen. Documenten die vanaf nu ondertekend worden, krijgen dit zegel.',
      removed: 'Uw zegel is verwijderd. Documenten krijgen het zegel van de dienst.',
    },
  },
  fr: {
    title: 'Cachet des documents',
    link: 'Le cachet de vos documents signés : celui du service, ou le certificat propre à votre organisation',
    intro:
      'Chaque document signé porte un cachet électronique : une signature numérique PDF qui montre qu’il a été établi par ce service et n’a pas été modifié depuis. Par défaut, c’est le cachet du service. Chargez le certificat de cachet propre à votre organisation (un fichier PKCS#12 d’un prestataire de services de confiance) pour que les documents soient scellés au nom de votre organisation.',
    inUse: 'Le cachet utilisé',
    which: 'Cachet',
    own: 'Le cachet propre à votre organisation',
    service: 'Le cachet du service',
    level: 'Niveau',
    subject: 'Certificat de',
    issuer: 'Émis par',
    serialNumber: 'Numéro de série',
    validFrom: 'Valable à partir du',
    validUntil: 'Valable jusqu’au',
    daysLeft: (days) => (days === 1 ? 'encore 1 jour' : `encore ${days} jours`),
    fingerprint: 'Empreinte SHA-256',
    uploadedOn: 'Chargé le',
    ownExpired: (date) =>
      `Le cachet propre à votre organisation a expiré le ${date}. Les documents sont scellés avec le cachet du service jusqu’à ce que vous en chargiez un nouveau.`,
    expiresSoon: (days) =>
      `Votre cachet expire dans ${days === 1 ? '1 jour' : `${days} jours`}. Chargez son successeur avant ; ensuite, les documents sont scellés avec le cachet du service.`,
    testNote:
      'Les documents signés en mode test portent toujours le cachet de test, quel que soit le réglage ici.',
    upload: 'Charger votre propre cachet',
    replace: 'Remplacer votre cachet',
    file: 'Fichier PKCS#12 (.p12 ou .pfx)',
    fileHint:
      'La clé privée (RSA), son certificat et la chaîne jusqu’à l’autorité, 64 Ko au plus. Le certificat doit être valable maintenant et permettre de signer.',
    password: 'Mot de passe du fichier',
    passwordHint: 'Conservé chiffré, et plus jamais affiché.',
    send: 'Charger le cachet',
    remove: 'Supprimer votre propre cachet',
    confirmRemove: 'Supprimer votre propre cachet ? Les documents portent alors le cachet du service.',
    refused: {
      notBase64: 'Le fichier n’a pas pu être lu. Choisissez à nouveau le fichier PKCS#12.',
      tooLarge: 'Le fichier dépasse 64 Ko : ce n’est pas le fichier PKCS#12 d’un cachet.',
      tooSlow:
        'Le fichier est trop long à ouvrir : sa protection par mot de passe demande bien plus de travail qu’un cachet n’en a besoin. Exportez-le à nouveau avec les réglages habituels.',
      notPkcs12: 'Ce n’est pas un fichier PKCS#12 (.p12 ou .pfx).',
      noKey: 'Le fichier doit contenir une clé privée et le certificat qui l’accompagne.',
      wrongPassword: 'Ce mot de passe n’ouvre pas le fichier.',
      expired: 'Le certificat du fichier a expiré.',
      notYetValid: 'Le certificat du fichier n’est pas encore valable.',
      mayNotSign: 'Le certificat du fichier ne peut pas servir à signer (usage de la clé).',
      noRevocation:
        'Les documents sont scellés pour une validation à long terme, qui doit vérifier si chaque certificat est révoqué, et ce fichier n’en donne pas le moyen : ajoutez la chaîne jusqu’à l’autorité, ou demandez à votre prestataire un certificat qui indique un répondeur OCSP ou une CRL.',
      unreadable:
        'Le chargement n’a pas pu être lu. Choisissez à nouveau le fichier, tapez son mot de passe et envoyez le formulaire une fois.',
    },
    notices: {
      uploaded: 'Votre cachet est chargé. Les documents signés à partir de maintenant le portent.',
      removed: 'Votre cachet est supprimé. Les documents portent le cachet du service.',
    },
  },
};
