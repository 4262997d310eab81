// The desk's organisation page in each language (administrators): the organisation's own face to its
// contacts — name, colour, logo, the e-mails' sender and reply-to address, the SMS sender — and whether
// declining needs a code.
import type { Language } from './languages';

/** What a form post of the page just did (`?done=…`). */
export type OrganisationNotice = 'saved' | 'logo' | 'logoRemoved';

/** The page's fields a problem can be about. */
export type OrganisationField = 'brandName' | 'colour' | 'mailSenderName' | 'mailReplyTo' | 'smsSender';

export interface OrganisationWords {
  title: string;
  /** The link to this page on the administrator's own settings page. */
  link: string;
  intro: string;
  preview: string;
  previewHint: string;
  previewButton: string;
  previewLink: string;
  brandName: string;
  brandNameHint: (name: string) => string;
  colour: string;
  colourHint: string;
  darkened: (shown: string) => string;
  mailSenderName: string;
  mailSenderNameHint: string;
  mailReplyTo: string;
  mailReplyToHint: string;
  smsSender: string;
  smsSenderHint: string;
  declineLegend: string;
  requireCode: string;
  requireCodeHint: string;
  save: string;
  logo: string;
  currentLogo: string;
  noLogo: string;
  logoFile: string;
  logoHint: string;
  upload: string;
  removeLogo: string;
  confirmRemoveLogo: string;
  logoRefused: string;
  invalid: Record<OrganisationField, string>;
  notices: Record<OrganisationNotice, string>;
}

export const organisationWords: Record<Language, OrganisationWords> = {
  en: {
    title: 'Your organisation',
    link: 'Your organisation as contacts see it: name, logo, colour, sender',
    intro:
      'How contacts see your organisation: on their pages, in every e-mail and text message they get, and on the signature page of signed documents. Leave a field empty to use the default.',
    preview: 'What contacts see',
    previewHint: 'The top of a contact’s page, and a button and a link in your colour.',
    previewButton: 'Sign the document',
    previewLink: 'Download the document',
    brandName: 'Name shown to contacts',
    brandNameHint: (name) => `Empty: the organisation’s name, ${name}.`,
    colour: 'Colour of buttons and links',
    colourHint: 'Written #rrggbb, such as #0b57d0. Empty: the blue of these pages.',
    darkened: (shown) => `White text does not read well on this colour, so contacts see it darker: ${shown}.`,
    mailSenderName: 'Sender name of e-mails',
    mailSenderNameHint:
      'The name contacts see as the sender. The address stays the service’s own, so that mail is delivered.',
    mailReplyTo: 'Reply-to address of e-mails',
    mailReplyToHint: 'Where a contact’s reply goes. Empty: to the sender address.',
    smsSender: 'Sender of text messages',
    smsSenderHint:
      'Up to 11 letters, digits or spaces, with at least one letter. Used where the text message provider allows it.',
    declineLegend: 'Declining to sign',
    requireCode: 'A signer confirms a one-time code before declining too',
    requireCodeHint:
      'Off: a signer can decline without a code (their link is their own). On: the same proof of who declined as of who signed.',
    save: 'Save',
    logo: 'Logo',
    currentLogo: 'The current logo',
    noLogo: 'No logo yet.',
    logoFile: 'A new logo',
    logoHint: 'A PNG or JPEG image of at most 200 KB (SVG is not accepted).',
    upload: 'Upload the logo',
    removeLogo: 'Remove the logo',
    confirmRemoveLogo: 'Remove the logo? Contacts then see the name only.',
    logoRefused: 'The logo was not changed: it must be a PNG or JPEG image of at most 200 KB.',
    invalid: {
      brandName: 'The name shown to contacts must be one line of at most 100 characters.',
      colour: 'The colour must be written #rrggbb, such as #0b57d0.',
      mailSenderName: 'The sender name must be one line of at most 100 characters.',
      mailReplyTo: 'The reply-to address must be an e-mail address.',
      smsSender: 'The sender of text messages must be 1 to 11 letters, digits or spaces, with a letter.',
    },
    notices: {
      saved: 'Saved. Messages from now on carry it.',
      logo: 'The logo is uploaded.',
      logoRemoved: 'The logo is removed.',
    },
  },
  nl: {
    title: 'Uw organisatie',
    link: 'Uw organisatie zoals klanten ze zien: naam, logo, kleur, afzender',
    intro:
      'Hoe klanten uw organisatie zien: op hun pagina’s, in elke e-mail en sms die ze krijgen, en op de handtekeningpagina van ondertekende documenten. Laat een veld leeg voor de standaard.',
    preview: 'Wat klanten zien',
    previewHint: 'De bovenkant van een klantpagina, en een knop en een link in uw kleur.',
    previewButton: 'Het document ondertekenen',
    previewLink: 'Het document downloaden',
    brandName: 'Naam voor klanten',
    brandNameHint: (name) => `Leeg: de naam van de organisatie, ${name}.`,
    colour: 'Kleur van knoppen en links',
    colourHint: 'Geschreven als #rrggbb, zoals #0b57d0. Leeg: het blauw van deze pagina’s.',
    darkened: (shown) =>
      `Witte tekst is slecht leesbaar op deze kleur, dus klanten zien ze donkerder: ${shown}.`,
    mailSenderName: 'Afzendernaam van e-mails',
    mailSenderNameHint:
      'De naam die klanten als afzender zien. Het adres blijft dat van de dienst, zodat de e-mail aankomt.',
    mailReplyTo: 'Antwoordadres van e-mails',
    mailReplyToHint: 'Waar het antwoord van een klant naartoe gaat. Leeg: naar het afzenderadres.',
    smsSender: 'Afzender van sms’en',
    smsSenderHint:
      'Tot 11 letters, cijfers of spaties, met minstens één letter. Gebruikt waar de sms-aanbieder het toelaat.',
    declineLegend: 'Weigeren te ondertekenen',
    requireCode: 'Een ondertekenaar bevestigt ook een eenmalige code voor hij weigert',
    requireCodeHint:
      'Uit: een ondertekenaar kan weigeren zonder code (de link is de zijne). Aan: hetzelfde bewijs van wie weigerde als van wie ondertekende.',
    save: 'Bewaren',
    logo: 'Logo',
    currentLogo: 'Het huidige logo',
    noLogo: 'Nog geen logo.',
    logoFile: 'Een nieuw logo',
    logoHint: 'Een PNG- of JPEG-afbeelding van hoogstens 200 KB (SVG wordt niet aanvaard).',
    upload: 'Het logo opladen',
    removeLogo: 'Het logo verwijderen',
    confirmRemoveLogo: 'Het logo verwijderen? Klanten zien dan enkel de naam.',
    logoRefused:
      'Het logo is niet gewijzigd: het moet een PNG- of JPEG-afbeelding van hoogstens 200 KB zijn.',
    invalid: {
      brandName: 'De naam voor klanten moet één regel van hoogstens 100 tekens zijn.',
      colour: 'De kleur moet geschreven zijn als #rrggbb, zoals #0b57d0.',
      mailSenderName: 'De afzendernaam moet één regel van hoogstens 100 tekens zijn.',
      mailReplyTo: 'Het antwoordadres moet een e-mailadres zijn.',
      smsSender: 'De afzender van sms’en moet 1 tot 11 letters, cijfers of spaties zijn, met een letter.',
    },
    notices: {
      saved: 'Bewaard. Berichten vanaf nu dragen het.',
      logo: 'Het logo is opgeladen.',
      logoRemoved: 'Het logo is verwijderd.',
    },
  },
  fr: {
    title: 'Votre organisation',
    link: 'Votre organisation telle que vos clients la voient : nom, logo, couleur, expéditeur',
    intro:
      'Comment vos clients voient votre organisation : sur leurs pages, dans chaque e-mail et SMS qu’ils reçoivent, et sur la page de signature des documents signés. Laissez un champ vide pour la valeur par défaut.',
    preview: 'Ce que voient les clients',
    previewHint: 'Le haut d’une page client, et un bouton et un lien dans votre couleur.',
    previewButton: 'Signer le document',
    previewLink: 'Télécharger le document',
    brandName: 'Nom affiché aux clients',
    brandNameHint: (name) => `Vide : le nom de l’organisation, ${name}.`,
    colour: 'Couleur des boutons et des liens',
    colourHint: 'Écrite #rrggbb, par exemple #0b57d0. Vide : le bleu de ces pages.',
    darkened: (shown) =>
      `Un texte blanc se lit mal sur cette couleur : les clients la voient plus foncée, ${shown}.`,
    mailSenderName: 'Nom d’expéditeur des e-mails',
    mailSenderNameHint:
      'Le nom que les clients voient comme expéditeur. L’adresse reste celle du service, pour que l’e-mail soit remis.',
    mailReplyTo: 'Adresse de réponse des e-mails',
    mailReplyToHint: 'Où va la réponse d’un client. Vide : à l’adresse de l’expéditeur.',
    smsSender: 'Expéditeur des SMS',
    smsSenderHint:
      'Jusqu’à 11 lettres, chiffres ou espaces, avec au moins une lettre. Utilisé là où le fournisseur de SMS le permet.',
    declineLegend: 'Refuser de signer',
    requireCode: 'Un signataire confirme aussi un code à usage unique avant de refuser',
    requireCodeHint:
      'Désactivé : un signataire peut refuser sans code (son lien lui est propre). Activé : la même preuve de qui a refusé que de qui a signé.',
    save: 'Enregistrer',
    logo: 'Logo',
    currentLogo: 'Le logo actuel',
    noLogo: 'Pas encore de logo.',
    logoFile: 'Un nouveau logo',
    logoHint: 'Une image PNG ou JPEG de 200 Ko au plus (le SVG n’est pas accepté).',
    upload: 'Envoyer le logo',
    removeLogo: 'Supprimer le logo',
    confirmRemoveLogo: 'Supprimer le logo ? Les clients ne voient alors que le nom.',
    logoRefused: 'Le logo n’a pas été changé : il doit être une image PNG ou JPEG de 200 Ko au plus.',
    invalid: {
      brandName: 'Le nom affiché aux clients doit tenir sur une ligne de 100 caractères au plus.',
      colour: 'La couleur doit être écrite #rrggbb, par exemple #0b57d0.',
      mailSenderName: 'Le nom d’expéditeur doit tenir sur une ligne de 100 caractères au plus.',
      mailReplyTo: 'L’adresse de réponse doit être une adresse e-mail.',
      smsSender: 'L’expéditeur des SMS doit compter 1 à 11 lettres, chiffres ou espaces, dont une lettre.',
    },
    notices: {
      saved: 'Enregistré. Les messages envoyés désormais le reprennent.',
      logo: 'Le logo est envoyé.',
      logoRemoved: 'Le logo est supprimé.',
    },
  },
};
