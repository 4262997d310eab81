// The desk's contact pages in each language: the list and its search, one contact, and the form that
// adds or changes one.
import type { Language } from './languages';

export interface ContactWords {
  title: string;
  search: string;
  searchHint: string;
  searchButton: string;
  count: (n: number) => string;
  caption: string;
  name: string;
  email: string;
  phone: string;
  reference: string;
  added: string;
  none: string;
  byReference: (ref: string) => string;
  back: string;
  send: string;
  edit: string;
  data: string;
  actions: string;
  noActions: string;
  form: {
    newTitle: string;
    editTitle: (name: string) => string;
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    phoneHint: string;
    reference: string;
    referenceHint: string;
    create: string;
    createAndSend: string;
    save: string;
    cancel: string;
    problems: string;
    nameOrEmail: string;
    badEmail: string;
    referenceTaken: (ref: string) => string;
    created: string;
    saved: string;
  };
}

export const contactWords: Record<Language, ContactWords> = {
  en: {
    title: 'Contacts',
    search: 'Search',
    searchHint: 'Name, e-mail address, phone number or CRM reference.',
    searchButton: 'Search',
    count: (n) => (n === 1 ? '1 contact' : `${n} contacts`),
    caption: 'Contacts, newest first',
    name: 'Name',
    email: 'E-mail address',
    phone: 'Phone',
    reference: 'CRM reference',
    added: 'Added',
    none: 'No contact matches.',
    byReference: (ref) => `The contact with CRM reference ${ref}.`,
    back: '← Contacts',
    send: 'Send an action',
    edit: 'Edit',
    data: 'Details',
    actions: 'Actions',
    noActions: 'No actions yet.',
    form: {
      newTitle: 'New contact',
      editTitle: (name) => `Edit ${name}`,
      firstName: 'First name',
      lastName: 'Last name',
      email: 'E-mail address',
      phone: 'Mobile phone',
      phoneHint: 'For the SMS invitation, e.g. 0475 12 34 56 or +32 475 12 34 56.',
      reference: 'CRM reference (optional)',
      referenceHint: 'The contact’s number in your CRM, so that it finds this contact again.',
      create: 'Add the contact',
      createAndSend: 'Add and continue',
      save: 'Save',
      cancel: 'Cancel',
      problems: 'Please correct the following:',
      nameOrEmail: 'Give a first name, a last name or an e-mail address.',
      badEmail: 'The e-mail address is not valid: it looks like name@example.be.',
      referenceTaken: (ref) => `Another contact already has CRM reference ${ref}.`,
      created: 'The contact is added.',
      saved: 'The changes are saved.',
    },
  },
  nl: {
    title: 'Contacten',
    search: 'Zoeken',
    searchHint: 'Naam, e-mailadres, telefoonnummer of CRM-referentie.',
    searchButton: 'Zoeken',
    count: (n) => (n === 1 ? '1 contact' : `${n} contacten`),
    caption: 'Contacten, nieuwste eerst',
    name: 'Naam',
    email: 'E-mailadres',
    phone: 'Telefoon',
    reference: 'CRM-referentie',
    added: 'Toegevoegd',
    none: 'Geen enkel contact komt overeen.',
    byReference: (ref) => `Het contact met CRM-referentie ${ref}.`,
    back: '← Contacten',
    send: 'Een actie versturen',
    edit: 'Wijzigen',
    data: 'Gegevens',
    actions: 'Acties',
    noActions: 'Nog geen acties.',
    form: {
      newTitle: 'Nieuw contact',
      editTitle: (name) => `${name} wijzigen`,
      firstName: 'Voornaam',
      lastName: 'Achternaam',
      email: 'E-mailadres',
      phone: 'Gsm-nummer',
      phoneHint: 'Voor de uitnodiging per sms, bv. 0475 12 34 56 of +32 475 12 34 56.',
      reference: 'CRM-referentie (niet verplicht)',
      referenceHint: 'Het nummer van het contact in uw CRM, zodat het dit contact terugvindt.',
      create: 'Contact toevoegen',
      createAndSend: 'Toevoegen en verder',
      save: 'Bewaren',
      cancel: 'Annuleren',
      problems: 'Verbeter het volgende:',
      nameOrEmail: 'Geef een voornaam, een achternaam of een e-mailadres.',
      badEmail: 'Het e-mailadres klopt niet: het ziet eruit als naam@voorbeeld.be.',
      referenceTaken: (ref) => `Een ander contact heeft al CRM-referentie ${ref}.`,
      created: 'Het contact is toegevoegd.',
      saved: 'De wijzigingen zijn bewaard.',
    },
  },
  fr: {
    title: 'Contacts',
    search: 'Rechercher',
    searchHint: 'Nom, adresse e-mail, numéro de téléphone ou référence CRM.',
    searchButton: 'Rechercher',
    count: (n) => (n <= 1 ? `${n} contact` : `${n} contacts`),
    caption: 'Contacts, les plus récents d’abord',
    name: 'Nom',
    email: 'Adresse e-mail',
    phone: 'Téléphone',
    reference: 'Référence CRM',
    added: 'Ajouté',
    none: 'Aucun contact ne correspond.',
    byReference: (ref) => `Le contact dont la référence CRM est ${ref}.`,
    back: '← Contacts',
    send: 'Envoyer une action',
    edit: 'Modifier',
    data: 'Coordonnées',
    actions: 'Actions',
    noActions: 'Pas encore d’actions.',
    form: {
      newTitle: 'Nouveau contact',
      editTitle: (name) => `Modifier ${name}`,
      firstName: 'Prénom',
      lastName: 'Nom',
      email: 'Adresse e-mail',
      phone: 'Numéro de GSM',
      phoneHint: 'Pour l’invitation par SMS, p. ex. 0475 12 34 56 ou +32 475 12 34 56.',
      reference: 'Référence CRM (facultative)',
      referenceHint: 'Le numéro du contact dans votre CRM, pour qu’il retrouve ce contact.',
      create: 'Ajouter le contact',
      createAndSend: 'Ajouter et continuer',
      save: 'Enregistrer',
      cancel: 'Annuler',
      problems: 'Veuillez corriger ce qui suit :',
      nameOrEmail: 'Indiquez un prénom, un nom ou une adresse e-mail.',
      badEmail: 'L’adresse e-mail n’est pas valide : elle ressemble à nom@exemple.be.',
      referenceTaken: (ref) => `Un autre contact a déjà la référence CRM ${ref}.`,
      created: 'Le contact est ajouté.',
      saved: 'Les modifications sont enregistrées.',
    },
  },
};
