// The adviser's desk in each language: the start page ("what needs me"), the lists of actions and
// contacts, and the user's own settings. The action's page has its own words (desk-action.ts).
import type { Language } from './languages';

/** The start page's groups, and the lists' views of the same name. */
export const deskViews = ['waiting', 'expiring', 'declined', 'failed', 'completed'] as const;
export type DeskView = (typeof deskViews)[number];

export interface DeskWords {
  home: {
    title: string;
    welcome: (name: string) => string;
    intro: string;
    send: string;
    newContact: string;
    mine: string;
    everyone: string;
    scope: string;
    show: string;
    seeAll: (n: number) => string;
    groups: Record<DeskView, { title: string; hint: string; empty: string }>;
  };
  actions: {
    title: string;
    send: string;
    status: string;
    all: string;
    view: string;
    everything: string;
    onlyMine: string;
    search: string;
    filter: string;
    count: (n: number) => string;
    caption: string;
    contact: string;
    kind: string;
    what: string;
    statusColumn: string;
    created: string;
    templates: (n: number) => string;
    none: string;
    campaign: string;
    deletedContact: string;
  };
  settings: {
    title: string;
    language: string;
    browser: (name: string) => string;
    notify: string;
    notifyHint: string;
    notifyEach: string;
    notifyDigest: string;
    notifyNone: string;
    save: string;
    saved: string;
    zone: (zone: string) => string;
  };
}

export const deskWords: Record<Language, DeskWords> = {
  en: {
    home: {
      title: 'Start',
      welcome: (name) => `Welcome, ${name}`,
      intro: 'What needs you today.',
      send: 'Send a new action',
      newContact: 'New contact',
      mine: 'Only mine',
      everyone: 'Everyone’s',
      scope: 'Whose actions',
      show: 'Show',
      seeAll: (n) => `See all ${n}`,
      groups: {
        waiting: {
          title: 'Waiting for the contact',
          hint: 'Sent, not yet completed.',
          empty: 'Nothing is waiting.',
        },
        expiring: {
          title: 'Ending within 3 days',
          hint: 'Still open, and the link stops working soon.',
          empty: 'Nothing ends soon.',
        },
        declined: {
          title: 'Declined',
          hint: 'In the last 30 days.',
          empty: 'Nobody declined.',
        },
        failed: {
          title: 'Messages not delivered',
          hint: 'An invitation or reminder could not be sent.',
          empty: 'Every message went out.',
        },
        completed: {
          title: 'Completed this week',
          hint: 'In the last 7 days.',
          empty: 'Nothing completed this week yet.',
        },
      },
    },
    actions: {
      title: 'Actions',
      send: 'Send a new action',
      status: 'Status',
      all: 'All',
      view: 'Needs attention',
      everything: 'Everything',
      onlyMine: 'Only the actions I sent',
      search: 'Contact or document',
      filter: 'Filter',
      count: (n) => (n === 1 ? '1 action' : `${n} actions`),
      caption: 'Actions, newest first',
      contact: 'Contact',
      kind: 'Kind',
      what: 'Document or templates',
      statusColumn: 'Status',
      created: 'Created',
      templates: (n) => (n === 1 ? '1 template' : `${n} templates`),
      none: 'No action matches.',
      campaign: 'Campaign',
      deletedContact: '(deleted contact)',
    },
    settings: {
      title: 'Your settings',
      language: 'Language of these pages',
      browser: (name) => `As my browser asks (now: ${name})`,
      notify: 'E-mails about my actions',
      notifyHint:
        'When an action you sent is completed, signed by everyone, declined or expired, or its message could not be delivered.',
      notifyEach: 'An e-mail for each event',
      notifyDigest: 'One e-mail a day with all of them',
      notifyNone: 'No e-mails',
      save: 'Save',
      saved: 'Your settings are saved.',
      zone: (zone) => `Times are shown in the organisation’s time zone, ${zone}.`,
    },
  },
  nl: {
    home: {
      title: 'Start',
      welcome: (name) => `Welkom, ${name}`,
      intro: 'Wat vandaag uw aandacht vraagt.',
      send: 'Nieuwe actie versturen',
      newContact: 'Nieuw contact',
      mine: 'Alleen de mijne',
      everyone: 'Van iedereen',
      scope: 'Wiens acties',
      show: 'Tonen',
      seeAll: (n) => `Alle ${n} bekijken`,
      groups: {
        waiting: {
          title: 'Wacht op het contact',
          hint: 'Verstuurd, nog niet voltooid.',
          empty: 'Er wacht niets.',
        },
        expiring: {
          title: 'Verloopt binnen 3 dagen',
          hint: 'Nog open, en de link werkt binnenkort niet meer.',
          empty: 'Er verloopt binnenkort niets.',
        },
        declined: {
          title: 'Geweigerd',
          hint: 'In de laatste 30 dagen.',
          empty: 'Niemand weigerde.',
        },
        failed: {
          title: 'Berichten niet afgeleverd',
          hint: 'Een uitnodiging of herinnering kon niet worden verstuurd.',
          empty: 'Elk bericht is vertrokken.',
        },
        completed: {
          title: 'Deze week voltooid',
          hint: 'In de laatste 7 dagen.',
          empty: 'Deze week nog niets voltooid.',
        },
      },
    },
    actions: {
      title: 'Acties',
      send: 'Nieuwe actie versturen',
      status: 'Status',
      all: 'Alle',
      view: 'Vraagt aandacht',
      everything: 'Alles',
      onlyMine: 'Alleen de acties die ik verstuurde',
      search: 'Contact of document',
      filter: 'Filteren',
      count: (n) => (n === 1 ? '1 actie' : `${n} acties`),
      caption: 'Acties, nieuwste eerst',
      contact: 'Contact',
      kind: 'Soort',
      what: 'Document of vragenlijsten',
      statusColumn: 'Status',
      created: 'Aangemaakt',
      templates: (n) => (n === 1 ? '1 vragenlijst' : `${n} vragenlijsten`),
      none: 'Geen enkele actie komt overeen.',
      campaign: 'Campagne',
      deletedContact: '(verwijderd contact)',
    },
    settings: {
      title: 'Uw instellingen',
      language: 'Taal van deze pagina’s',
      browser: (name) => `Zoals mijn browser vraagt (nu: ${name})`,
      notify: 'E-mails over mijn acties',
      notifyHint:
        'Wanneer een actie die u verstuurde voltooid is, door iedereen ondertekend, geweigerd of verlopen, of wanneer een bericht niet kon worden afgeleverd.',
      notifyEach: 'Een e-mail per gebeurtenis',
      notifyDigest: 'Eén e-mail per dag met alles samen',
      notifyNone: 'Geen e-mails',
      save: 'Bewaren',
      saved: 'Uw instellingen zijn bewaard.',
      zone: (zone) => `Tijden staan in de tijdzone van de organisatie, ${zone}.`,
    },
  },
  fr: {
    home: {
      title: 'Accueil',
      welcome: (name) => `Bienvenue, ${name}`,
      intro: 'Ce qui demande votre attention aujourd’hui.',
      send: 'Envoyer une nouvelle action',
      newContact: 'Nouveau contact',
      mine: 'Seulement les miennes',
      everyone: 'De tout le monde',
      scope: 'Actions de qui',
      show: 'Afficher',
      seeAll: (n) => `Voir les ${n}`,
      groups: {
        waiting: {
          title: 'En attente du contact',
          hint: 'Envoyées, pas encore terminées.',
          empty: 'Rien n’attend.',
        },
        expiring: {
          title: 'Expirent dans les 3 jours',
          hint: 'Encore ouvertes, et le lien cessera bientôt de fonctionner.',
          empty: 'Rien n’expire bientôt.',
        },
        declined: {
          title: 'Refusées',
          hint: 'Au cours des 30 derniers jours.',
          empty: 'Personne n’a refusé.',
        },
        failed: {
          title: 'Messages non remis',
          hint: 'Une invitation ou un rappel n’a pas pu être envoyé.',
          empty: 'Tous les messages sont partis.',
        },
        completed: {
          title: 'Terminées cette semaine',
          hint: 'Au cours des 7 derniers jours.',
          empty: 'Rien de terminé cette semaine.',
        },
      },
    },
    actions: {
      title: 'Actions',
      send: 'Envoyer une nouvelle action',
      status: 'Statut',
      all: 'Tous',
      view: 'Demande de l’attention',
      everything: 'Tout',
      onlyMine: 'Seulement les actions que j’ai envoyées',
      search: 'Contact ou document',
      filter: 'Filtrer',
      count: (n) => (n <= 1 ? `${n} action` : `${n} actions`),
      caption: 'Actions, les plus récentes d’abord',
      contact: 'Contact',
      kind: 'Type',
      what: 'Document ou questionnaires',
      statusColumn: 'Statut',
      created: 'Créée',
      templates: (n) => (n <= 1 ? `${n} questionnaire` : `${n} questionnaires`),
      none: 'Aucune action ne correspond.',
      campaign: 'Campagne',
      deletedContact: '(contact supprimé)',
    },
    settings: {
      title: 'Vos paramètres',
      language: 'Langue de ces pages',
      browser: (name) => `Celle de mon navigateur (actuellement : ${name})`,
      notify: 'E-mails sur mes actions',
      notifyHint:
        'Quand une action que vous avez envoyée est terminée, signée par tous, refusée ou expirée, ou quand un message n’a pas pu être remis.',
      notifyEach: 'Un e-mail par événement',
      notifyDigest: 'Un e-mail par jour avec tout',
      notifyNone: 'Aucun e-mail',
      save: 'Enregistrer',
      saved: 'Vos paramètres sont enregistrés.',
      zone: (zone) => `Les heures sont affichées dans le fuseau horaire de l’organisation, ${zone}.`,
    },
  },
};
