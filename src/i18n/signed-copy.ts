// The signer's copy of a sealed document (modules/signing), sent to every signer once all have signed:
// its wording in each language (the greeting is the invitation's), and the name the signed file goes by.
import type { Language } from './languages';

export interface SignedCopyTexts {
  subject: (title: string, org: string) => string;
  lead: (title: string, org: string) => string;
  attached: string;
  /** The file is too large to travel with the message: the button downloads it. */
  linked: string;
  button: string;
  keep: string;
  sms: (title: string, org: string, url: string) => string;
  /** Added to the document's name: `Mandate (signed).pdf`. */
  fileSuffix: string;
}

export const signedCopyTexts: Record<Language, SignedCopyTexts> = {
  nl: {
    subject: (t) => `Uw ondertekend exemplaar van «${t}»`,
    lead: (t, o) =>
      `«${t}» is door iedereen ondertekend. Hier is uw exemplaar; ${o} heeft het ook ontvangen.`,
    attached: 'Het ondertekende document zit als PDF bij dit bericht.',
    linked: 'Het bestand is te groot om mee te sturen: download het met de knop hieronder.',
    button: 'Download het ondertekende document',
    keep: 'Bewaar het goed. Het elektronische zegel in de PDF toont dat niemand het na de ondertekening heeft gewijzigd.',
    sms: (t, o, u) => `«${t}» is door iedereen ondertekend. Uw exemplaar van ${o}: ${u}`,
    fileSuffix: 'ondertekend',
  },
  fr: {
    subject: (t) => `Votre exemplaire signé de « ${t} »`,
    lead: (t, o) => `« ${t} » est signé par tous. Voici votre exemplaire ; ${o} l’a reçu également.`,
    attached: 'Le document signé est joint à ce message en PDF.',
    linked: 'Le fichier est trop volumineux pour être joint : téléchargez-le avec le bouton ci-dessous.',
    button: 'Télécharger le document signé',
    keep: 'Conservez-le. Le sceau électronique du PDF montre que personne ne l’a modifié après la signature.',
    sms: (t, o, u) => `« ${t} » est signé par tous. Votre exemplaire de ${o} : ${u}`,
    fileSuffix: 'signé',
  },
  en: {
    subject: (t) => `Your signed copy of “${t}”`,
    lead: (t, o) => `“${t}” has been signed by everyone. Here is your copy; ${o} has received it too.`,
    attached: 'The signed document is attached to this message as a PDF.',
    linked: 'The file is too large to send with this message: download it with the button below.',
    button: 'Download the signed document',
    keep: 'Keep it safe. The electronic seal in the PDF shows that nobody changed it after it was signed.',
    sms: (t, o, u) => `“${t}” has been signed by everyone. Your copy from ${o}: ${u}`,
    fileSuffix: 'signed',
  },
};

/** The signed file's name: the document's title and the word for signed, safe in any file system. */
export function signedFileName(title: string, language: Language): string {
  const base = title
    .replace(/\.pdf$/i, '')
    .replace(/[\p{Cc}/\\:*?"<>|]+/gu, '-')
    .trim()
    .slice(0, 150);
  return `${base || 'document'} (${signedCopyTexts[language].fileSuffix}).pdf`;
}
