// The staff pages' shared words in each language: the frame (navigation, sign-out, errors), paging, and the
// names of statuses and kinds that every desk page shows. Each page's own words are beside it
// (src/i18n/desk.ts and the like); the staff user's language is chosen on their settings page, the
// browser's by default.
import type { SessionRequestStatus } from '../db/schema/enums';
import { type Language, languages } from './languages';

export interface StaffWords {
  skip: string;
  mainNav: string;
  nav: {
    home: string;
    actions: string;
    contacts: string;
    users: string;
    integrations: string;
    audit: string;
  };
  settings: string;
  signOut: string;
  previous: string;
  next: string;
  pages: string;
  pageOf: (page: number, pages: number) => string;
  statuses: Record<SessionRequestStatus, string>;
  kinds: Record<'qlist' | 'multisigning' | 'quicksign' | 'campaign', string>;
  signerStatuses: Record<'pending' | 'signed' | 'declined', string>;
  channels: Record<'email' | 'sms', string>;
  errors: Record<number, string> & { other: string };
  /** What an error page says beneath its title (English pages say the refusal's own words instead). */
  errorTexts: Record<number, string> & { other: string; expired: string };
  back: string;
  none: string;
  /** Above the problems of a refused form. */
  problems: string;
  /** A secret shown once: the warning, the copy button and what it says once done. */
  copyNow: string;
  copy: string;
  copied: string;
}

export const staffWords: Record<Language, StaffWords> = {
  en: {
    skip: 'Skip to content',
    mainNav: 'Main',
    nav: {
      home: 'Start',
      actions: 'Actions',
      contacts: 'Contacts',
      users: 'Users',
      integrations: 'Integrations',
      audit: 'Audit trail',
    },
    settings: 'Settings',
    signOut: 'Sign out',
    previous: 'Previous',
    next: 'Next',
    pages: 'Pages',
    pageOf: (p, n) => `Page ${p} of ${n}`,
    statuses: {
      created: 'Not sent yet',
      sent: 'Sent',
      opened: 'Opened',
      completed: 'Completed',
      reopened: 'Reopened',
      deactivated: 'Withdrawn',
      expired: 'Expired',
      declined: 'Declined',
    },
    kinds: {
      qlist: 'Questionnaire',
      multisigning: 'Questionnaire and signing',
      quicksign: 'Document to sign',
      campaign: 'Campaign link',
    },
    signerStatuses: { pending: 'Waiting', signed: 'Signed', declined: 'Declined' },
    channels: { email: 'e-mail', sms: 'SMS' },
    errors: {
      400: 'Something in the form is not right',
      403: 'Not allowed',
      404: 'Not found',
      409: 'Not possible now',
      410: 'No longer available',
      413: 'Too large',
      429: 'Too many attempts',
      other: 'Something went wrong',
    },
    errorTexts: {
      400: 'This page was sent something it cannot read. Go back and try again.',
      403: 'Your account may not do this. Ask an administrator of your organisation if you need to.',
      404: 'This page or what it shows does not exist, or it belongs to another organisation.',
      409: 'This cannot be done in the state it is in now. Go back, reload the page and look again.',
      410: 'This is no longer available.',
      413: 'What was sent is larger than this service accepts.',
      429: 'Too many attempts in a short time. Wait a minute and try again.',
      other: 'Something went wrong on our side. Please try again later.',
      expired: 'This form has expired. Go back, reload the page and try again.',
    },
    back: 'Back to ActionDesk',
    none: '—',
    problems: 'Please check',
    copyNow: 'Copy it now: it is shown only this once.',
    copy: 'Copy',
    copied: 'Copied',
  },
  nl: {
    skip: 'Naar de inhoud',
    mainNav: 'Hoofdmenu',
    nav: {
      home: 'Start',
      actions: 'Acties',
      contacts: 'Contacten',
      users: 'Gebruikers',
      integrations: 'Koppelingen',
      audit: 'Logboek',
    },
    settings: 'Instellingen',
    signOut: 'Afmelden',
    previous: 'Vorige',
    next: 'Volgende',
    pages: 'Pagina’s',
    pageOf: (p, n) => `Pagina ${p} van ${n}`,
    statuses: {
      created: 'Nog niet verstuurd',
      sent: 'Verstuurd',
      opened: 'Geopend',
      completed: 'Voltooid',
      reopened: 'Heropend',
      deactivated: 'Ingetrokken',
      expired: 'Verlopen',
      declined: 'Geweigerd',
    },
    kinds: {
      qlist: 'Vragenlijst',
      multisigning: 'Vragenlijst en ondertekening',
      quicksign: 'Te ondertekenen document',
      campaign: 'Campagnelink',
    },
    signerStatuses: { pending: 'Wacht', signed: 'Ondertekend', declined: 'Geweigerd' },
    channels: { email: 'e-mail', sms: 'sms' },
    errors: {
      400: 'Er klopt iets niet in het formulier',
      403: 'Niet toegestaan',
      404: 'Niet gevonden',
      409: 'Nu niet mogelijk',
      410: 'Niet meer beschikbaar',
      413: 'Te groot',
      429: 'Te veel pogingen',
      other: 'Er ging iets mis',
    },
    errorTexts: {
      400: 'Deze pagina kreeg iets toegestuurd dat ze niet kan lezen. Ga terug en probeer het opnieuw.',
      403: 'Uw account mag dit niet doen. Vraag het zo nodig aan een beheerder van uw organisatie.',
      404: 'Deze pagina of wat ze toont bestaat niet, of hoort bij een andere organisatie.',
      409: 'Dit kan niet in de toestand waarin het nu is. Ga terug, laad de pagina opnieuw en kijk nog eens.',
      410: 'Dit is niet meer beschikbaar.',
      413: 'Wat u verstuurde is groter dan deze dienst aanvaardt.',
      429: 'Te veel pogingen op korte tijd. Wacht een minuut en probeer het opnieuw.',
      other: 'Er ging bij ons iets mis. Probeer het later opnieuw.',
      expired: 'Dit formulier is verlopen. Ga terug, laad de pagina opnieuw en probeer het nog eens.',
    },
    back: 'Terug naar ActionDesk',
    none: '—',
    problems: 'Kijk dit even na',
    copyNow: 'Kopieer het nu: het wordt maar deze ene keer getoond.',
    copy: 'Kopiëren',
    copied: 'Gekopieerd',
  },
  fr: {
    skip: 'Aller au contenu',
    mainNav: 'Menu principal',
    nav: {
      home: 'Accueil',
      actions: 'Actions',
      contacts: 'Contacts',
      users: 'Utilisateurs',
      integrations: 'Intégrations',
      audit: 'Journal d’audit',
    },
    settings: 'Paramètres',
    signOut: 'Se déconnecter',
    previous: 'Précédente',
    next: 'Suivante',
    pages: 'Pages',
    pageOf: (p, n) => `Page ${p} sur ${n}`,
    statuses: {
      created: 'Pas encore envoyée',
      sent: 'Envoyée',
      opened: 'Ouverte',
      completed: 'Terminée',
      reopened: 'Rouverte',
      deactivated: 'Retirée',
      expired: 'Expirée',
      declined: 'Refusée',
    },
    kinds: {
      qlist: 'Questionnaire',
      multisigning: 'Questionnaire et signature',
      quicksign: 'Document à signer',
      campaign: 'Lien de campagne',
    },
    signerStatuses: { pending: 'En attente', signed: 'Signé', declined: 'Refusé' },
    channels: { email: 'e-mail', sms: 'SMS' },
    errors: {
      400: 'Quelque chose ne va pas dans le formulaire',
      403: 'Non autorisé',
      404: 'Introuvable',
      409: 'Impossible pour le moment',
      410: 'Plus disponible',
      413: 'Trop volumineux',
      429: 'Trop de tentatives',
      other: 'Une erreur s’est produite',
    },
    errorTexts: {
      400: 'Cette page a reçu quelque chose qu’elle ne peut pas lire. Revenez en arrière et réessayez.',
      403: 'Votre compte ne peut pas faire ceci. Demandez-le au besoin à un administrateur de votre organisation.',
      404: 'Cette page ou ce qu’elle montre n’existe pas, ou appartient à une autre organisation.',
      409: 'Ce n’est pas possible dans l’état actuel. Revenez en arrière, rechargez la page et regardez à nouveau.',
      410: 'Ceci n’est plus disponible.',
      413: 'Ce que vous avez envoyé dépasse la taille acceptée par ce service.',
      429: 'Trop de tentatives en peu de temps. Attendez une minute et réessayez.',
      other: 'Un problème est survenu de notre côté. Veuillez réessayer plus tard.',
      expired: 'Ce formulaire a expiré. Revenez en arrière, rechargez la page et réessayez.',
    },
    back: 'Retour à ActionDesk',
    none: '—',
    problems: 'Veuillez vérifier',
    copyNow: 'Copiez-le maintenant : il n’est affiché que cette seule fois.',
    copy: 'Copier',
    copied: 'Copié',
  },
};

/**
 * The staff pages' language: the user's choice, else the first of ours the browser asks for
 * (Accept-Language tags in its order of preference, `nl-BE` counting as `nl`), else English.
 */
export function staffLanguage(chosen: Language | null | undefined, browser: readonly string[]): Language {
  if (chosen) return chosen;
  for (const tag of browser) {
    const primary = tag.toLowerCase().split('-')[0] ?? '';
    if ((languages as readonly string[]).includes(primary)) return primary as Language;
  }
  return 'en';
}
