import type { Language } from './languages';

/** The e-mail that tells an organisation's administrators its own seal expires soon (issue 32). */
export interface SealExpiryTexts {
  subject: (organisation: string, days: number) => string;
  text: (organisation: string, subject: string, expires: string, url: string) => string;
}

export const sealExpiryTexts: Record<Language, SealExpiryTexts> = {
  nl: {
    subject: (organisation, days) => `Het zegelcertificaat van ${organisation} verloopt over ${days} dagen`,
    text: (organisation, subject, expires, url) =>
      [
        `Het zegelcertificaat waarmee ${organisation} ondertekende documenten verzegelt, verloopt op ${expires}.`,
        `Certificaat: ${subject}`,
        '',
        'Vraag tijdig een nieuw certificaat aan bij uw certificatieautoriteit en laad het op als PKCS#12-bestand:',
        `  PUT ${url}`,
        'Na de vervaldatum worden documenten met het zegel van de dienst verzegeld, tot u een nieuw certificaat oplaadt.',
      ].join('\n'),
  },
  fr: {
    subject: (organisation, days) => `Le certificat de cachet de ${organisation} expire dans ${days} jours`,
    text: (organisation, subject, expires, url) =>
      [
        `Le certificat avec lequel ${organisation} scelle les documents signés expire le ${expires}.`,
        `Certificat : ${subject}`,
        '',
        'Demandez à temps un nouveau certificat à votre autorité de certification et chargez-le en fichier PKCS#12 :',
        `  PUT ${url}`,
        'Après l’expiration, les documents sont scellés avec le cachet du service, jusqu’au chargement d’un nouveau certificat.',
      ].join('\n'),
  },
  en: {
    subject: (organisation, days) => `The seal certificate of ${organisation} expires in ${days} days`,
    text: (organisation, subject, expires, url) =>
      [
        `The certificate ${organisation} seals signed documents with expires on ${expires}.`,
        `Certificate: ${subject}`,
        '',
        'Ask your certification authority for a new one in time, and upload it as a PKCS#12 file:',
        `  PUT ${url}`,
        'Once it has expired, documents are sealed with the service’s seal until a new certificate is uploaded.',
      ].join('\n'),
  },
};
