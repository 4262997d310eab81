// The signed PDF's signature and audit pages (modules/signing): their wording in each language.
import type { SignerTrailEntry } from '../db/schema';
import type { Language } from './languages';

/** The wording of a signed document's signature and audit pages, in one language. */
export interface SignedDocumentTexts {
  signatures: string;
  signedBy: (name: string) => string;
  signedOn: string;
  confirmed: Record<'email' | 'sms', (to: string) => string>;
  audit: string;
  document: string;
  sha256: string;
  pages: string;
  action: string;
  organisation: string;
  /** The name the organisation's contacts know it by (its brand), when it is not its own name. */
  shownAs: string;
  signer: string;
  email: string;
  phone: string;
  delivery: string;
  ip: string;
  userAgent: string;
  consent: string;
  steps: Record<SignerTrailEntry['step'], string>;
  step: string;
  utc: string;
  /** On every page of a document signed in test mode (issue 31). */
  testMark: string;
  seal: string;
  sealText: string;
  /** The PAdES baseline level the document is sealed at (docs/signing.md#pades-levels). */
  level: string;
  levels: Record<'B-B' | 'B-T' | 'B-LT' | 'B-LTA', string>;
  subject: string;
  fingerprint: string;
  page: (n: number, of: number) => string;
}

/** The signature and audit pages' wording, by the action's language. */
export const signedDocumentTexts: Record<Language, SignedDocumentTexts> = {
  nl: {
    signatures: 'Handtekeningen',
    signedBy: (n) => `Ondertekend door ${n}`,
    signedOn: 'Ondertekend op',
    confirmed: {
      email: (to) => `Identiteit bevestigd met een eenmalige code per e-mail naar ${to}`,
      sms: (to) => `Identiteit bevestigd met een eenmalige code per sms naar ${to}`,
    },
    audit: 'Audittrail',
    document: 'Document',
    sha256: 'SHA-256 van het originele document',
    pages: 'Pagina’s in het origineel',
    action: 'Actie',
    organisation: 'Organisatie',
    shownAs: 'Naam voor klanten',
    signer: 'Ondertekenaar',
    email: 'E-mail',
    phone: 'Telefoon',
    delivery: 'Code verstuurd via',
    ip: 'IP-adres',
    userAgent: 'Browser (user agent)',
    consent: 'Toestemming',
    steps: {
      opened: 'Geopend',
      'code-sent': 'Code verstuurd',
      'code-wrong': 'Verkeerde code',
      'code-locked': 'Code geblokkeerd',
      'code-verified': 'Code bevestigd',
      signed: 'Ondertekend',
      declined: 'Geweigerd',
    },
    step: 'Stap',
    utc: 'UTC',
    testMark: 'TEST — geen juridische waarde',
    seal: 'Elektronisch zegel',
    sealText:
      'Elke handtekening is een digitale PDF-handtekening (CMS, ETSI.CAdES.detached) met het zegelcertificaat van de organisatie, na elkaar toegevoegd; de laatste dekt het volledige bestand. Elke latere wijziging maakt ze ongeldig.',
    level: 'Niveau',
    levels: {
      'B-B': 'PAdES baseline B-B (ETSI EN 319 142-1): handtekeningen zonder vertrouwde tijdstempel',
      'B-T':
        'PAdES baseline B-T (ETSI EN 319 142-1): elke handtekening met een vertrouwde tijdstempel (RFC 3161)',
      'B-LT':
        'PAdES baseline B-LT (ETSI EN 319 142-1): elke handtekening met een vertrouwde tijdstempel; de certificaten en intrekkingslijsten om ze later te valideren zitten in het bestand',
      'B-LTA':
        'PAdES baseline B-LTA (ETSI EN 319 142-1): elke handtekening met een vertrouwde tijdstempel; de certificaten en intrekkingslijsten om ze later te valideren zitten in het bestand, en een documenttijdstempel dekt het geheel',
    },
    subject: 'Certificaat',
    fingerprint: 'SHA-256-vingerafdruk',
    page: (n, of) => `Pagina ${n} van ${of}`,
  },
  fr: {
    signatures: 'Signatures',
    signedBy: (n) => `Signé par ${n}`,
    signedOn: 'Signé le',
    confirmed: {
      email: (to) => `Identité confirmée par un code à usage unique envoyé par e-mail à ${to}`,
      sms: (to) => `Identité confirmée par un code à usage unique envoyé par SMS au ${to}`,
    },
    audit: 'Piste d’audit',
    document: 'Document',
    sha256: 'SHA-256 du document original',
    pages: 'Pages de l’original',
    action: 'Action',
    organisation: 'Organisation',
    shownAs: 'Nom pour les clients',
    signer: 'Signataire',
    email: 'E-mail',
    phone: 'Téléphone',
    delivery: 'Code envoyé par',
    ip: 'Adresse IP',
    userAgent: 'Navigateur (user agent)',
    consent: 'Consentement',
    steps: {
      opened: 'Ouvert',
      'code-sent': 'Code envoyé',
      'code-wrong': 'Code erroné',
      'code-locked': 'Code bloqué',
      'code-verified': 'Code confirmé',
      signed: 'Signé',
      declined: 'Refusé',
    },
    step: 'Étape',
    utc: 'UTC',
    testMark: 'TEST — sans valeur juridique',
    seal: 'Cachet électronique',
    sealText:
      'Chaque signature est une signature numérique PDF (CMS, ETSI.CAdES.detached) faite avec le certificat de cachet de l’organisation, ajoutées l’une après l’autre ; la dernière couvre tout le fichier. Toute modification ultérieure les invalide.',
    level: 'Niveau',
    levels: {
      'B-B': 'PAdES baseline B-B (ETSI EN 319 142-1) : signatures sans horodatage de confiance',
      'B-T':
        'PAdES baseline B-T (ETSI EN 319 142-1) : chaque signature porte un horodatage de confiance (RFC 3161)',
      'B-LT':
        'PAdES baseline B-LT (ETSI EN 319 142-1) : chaque signature porte un horodatage de confiance ; les certificats et listes de révocation pour les valider plus tard sont intégrés au fichier',
      'B-LTA':
        'PAdES baseline B-LTA (ETSI EN 319 142-1) : chaque signature porte un horodatage de confiance ; les certificats et listes de révocation pour les valider plus tard sont intégrés au fichier, et un horodatage du document couvre l’ensemble',
    },
    subject: 'Certificat',
    fingerprint: 'Empreinte SHA-256',
    page: (n, of) => `Page ${n} sur ${of}`,
  },
  en: {
    signatures: 'Signatures',
    signedBy: (n) => `Signed by ${n}`,
    signedOn: 'Signed on',
    confirmed: {
      email: (to) => `Identity confirmed with a one-time code sent by e-mail to ${to}`,
      sms: (to) => `Identity confirmed with a one-time code sent by text message to ${to}`,
    },
    audit: 'Audit trail',
    document: 'Document',
    sha256: 'SHA-256 of the original document',
    pages: 'Pages in the original',
    action: 'Action',
    organisation: 'Organisation',
    shownAs: 'Name shown to contacts',
    signer: 'Signer',
    email: 'E-mail',
    phone: 'Phone',
    delivery: 'Code sent by',
    ip: 'IP address',
    userAgent: 'Browser (user agent)',
    consent: 'Consent',
    steps: {
      opened: 'Opened',
      'code-sent': 'Code sent',
      'code-wrong': 'Wrong code',
      'code-locked': 'Code locked',
      'code-verified': 'Code verified',
      signed: 'Signed',
      declined: 'Declined',
    },
    step: 'Step',
    utc: 'UTC',
    testMark: 'TEST — no legal value',
    seal: 'Electronic seal',
    sealText:
      'Each signature is a PDF digital signature (CMS, ETSI.CAdES.detached) made with the organisation’s seal certificate, added one after the other; the last one covers the whole file. Any later change breaks them.',
    level: 'Level',
    levels: {
      'B-B': 'PAdES baseline B-B (ETSI EN 319 142-1): signatures without a trusted timestamp',
      'B-T': 'PAdES baseline B-T (ETSI EN 319 142-1): each signature with a trusted timestamp (RFC 3161)',
      'B-LT':
        'PAdES baseline B-LT (ETSI EN 319 142-1): each signature with a trusted timestamp; the certificates and revocation lists to validate them later are in the file',
      'B-LTA':
        'PAdES baseline B-LTA (ETSI EN 319 142-1): each signature with a trusted timestamp; the certificates and revocation lists to validate them later are in the file, and a document timestamp covers it all',
    },
    subject: 'Certificate',
    fingerprint: 'SHA-256 fingerprint',
    page: (n, of) => `Page ${n} of ${of}`,
  },
};
