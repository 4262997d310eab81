// A sign-in provider's page in each language, its reports: directory synchronisation (a Microsoft-type
// provider's settings, last run and the changes it made to users) and the provider's history.
import type { Language } from './languages';

/** What a provider's page reports (desk-providers.ts has the rest of its words). */
export interface ProviderReportWords {
  directory: {
    heading: string;
    syncOn: string;
    syncNames: string;
    url: string;
    mapping: (groups: string) => string;
    hint: string;
    on: string;
    off: string;
    lastRun: string;
    nothingChanged: string;
    outcome: (users: number, deactivated: number, updated: number) => string;
    notDone: string;
    notRun: string;
    syncNow: string;
    confirmSync: string;
    latest: string;
    user: string;
    /** Why directory synchronisation deactivated a user. */
    reasons: Record<'disabled' | 'gone', string>;
  };
  history: {
    heading: string;
    caption: (name: string) => string;
    when: string;
    who: string;
    what: string;
    none: string;
    removedUser: string;
    system: string;
    apiKey: (name: string) => string;
    app: (name: string) => string;
    actions: Record<string, string>;
    /** The changed settings (and, for directory synchronisation's changes, the user's fields). */
    fields: Record<string, string>;
    yes: string;
    no: string;
    secret: Record<'set' | 'replaced', string>;
  };
}

const en: ProviderReportWords = {
  directory: {
    heading: 'Directory synchronisation',
    syncOn:
      'Read the directory on a schedule (DIRECTORY_SYNC_MINUTES, every hour by default): users removed or disabled there are deactivated here',
    syncNames: 'Names follow the directory',
    url: 'Microsoft Graph address (empty: https://graph.microsoft.com/v1.0)',
    mapping: (groups) => `Group mapping: one a line, directory group id = group here (${groups})`,
    hint: 'Only users linked to this provider or of its allowed domains are managed; the last active administrator is never deactivated; a run that would deactivate more than half of them changes nothing.',
    on: 'On',
    off: 'Off',
    lastRun: 'Last run',
    nothingChanged: 'nothing changed',
    outcome: (users, deactivated, updated) =>
      `${users} ${users === 1 ? 'user' : 'users'} in the directory, ${deactivated} deactivated, ${updated} updated`,
    notDone: 'not done',
    notRun: 'It has not run yet.',
    syncNow: 'Synchronise now',
    confirmSync:
      'Synchronise now? Users removed or disabled in the directory are deactivated here and signed out at once.',
    latest: 'Latest changes to users',
    user: 'User',
    reasons: { disabled: 'disabled in the directory', gone: 'not in the directory' },
  },
  history: {
    heading: 'History',
    caption: (name) => `Changes of ${name}`,
    when: 'When',
    who: 'Who',
    what: 'What',
    none: 'No change recorded.',
    removedUser: 'a removed user',
    system: 'the system',
    apiKey: (name) => `${name} (API key)`,
    app: (name) => `${name} (an application)`,
    actions: {
      'user.deactivated': 'Deactivated',
      'user.updated': 'Updated',
      'sso_provider.created': 'Added',
      'sso_provider.updated': 'Changed',
      'sso_provider.deleted': 'Removed',
      'sso_provider.sync_requested': 'Synchronisation requested',
    },
    fields: {
      name: 'Name',
      issuer: 'Issuer URL',
      tenantId: 'Directory (tenant) id',
      clientId: 'Client ID',
      clientSecret: 'Client secret',
      enabled: 'Enabled',
      allowedDomains: 'Allowed e-mail domains',
      jitGroup: 'Create unknown users',
      directorySync: 'Directory synchronisation',
      directoryUrl: 'Microsoft Graph address',
      groupMapping: 'Group mapping',
      syncNames: 'Names follow the directory',
      email: 'E-mail address',
      groups: 'Groups',
      status: 'Status',
    },
    yes: 'yes',
    no: 'no',
    secret: { set: 'set', replaced: 'replaced' },
  },
};

const nl: ProviderReportWords = {
  directory: {
    heading: 'Synchronisatie met de directory',
    syncOn:
      'De directory geregeld lezen (DIRECTORY_SYNC_MINUTES, standaard elk uur): gebruikers die daar verwijderd of uitgeschakeld zijn, worden hier gedeactiveerd',
    syncNames: 'Namen volgen de directory',
    url: 'Adres van Microsoft Graph (leeg: https://graph.microsoft.com/v1.0)',
    mapping: (groups) =>
      `Groepen koppelen: één per regel, groeps-id in de directory = groep hier (${groups})`,
    hint: 'Alleen gebruikers die aan deze dienst gekoppeld zijn of tot haar toegelaten domeinen behoren, worden beheerd; de laatste actieve beheerder wordt nooit gedeactiveerd; een synchronisatie die meer dan de helft van hen zou deactiveren, wijzigt niets.',
    on: 'Aan',
    off: 'Uit',
    lastRun: 'Laatst uitgevoerd op',
    nothingChanged: 'niets gewijzigd',
    outcome: (users, deactivated, updated) =>
      `${users} ${users === 1 ? 'gebruiker' : 'gebruikers'} in de directory, ${deactivated} gedeactiveerd, ${updated} bijgewerkt`,
    notDone: 'niet gedaan',
    notRun: 'Nog niet uitgevoerd.',
    syncNow: 'Nu synchroniseren',
    confirmSync:
      'Nu synchroniseren? Gebruikers die in de directory verwijderd of uitgeschakeld zijn, worden hier gedeactiveerd en meteen afgemeld.',
    latest: 'Laatste wijzigingen aan gebruikers',
    user: 'Gebruiker',
    reasons: { disabled: 'uitgeschakeld in de directory', gone: 'niet in de directory' },
  },
  history: {
    heading: 'Geschiedenis',
    caption: (name) => `Wijzigingen aan ${name}`,
    when: 'Wanneer',
    who: 'Wie',
    what: 'Wat',
    none: 'Geen wijziging geregistreerd.',
    removedUser: 'een verwijderde gebruiker',
    system: 'het systeem',
    apiKey: (name) => `${name} (API-sleutel)`,
    app: (name) => `${name} (een toepassing)`,
    actions: {
      'user.deactivated': 'Gedeactiveerd',
      'user.updated': 'Bijgewerkt',
      'sso_provider.created': 'Toegevoegd',
      'sso_provider.updated': 'Gewijzigd',
      'sso_provider.deleted': 'Verwijderd',
      'sso_provider.sync_requested': 'Synchronisatie gevraagd',
    },
    fields: {
      name: 'Naam',
      issuer: 'URL van de uitgever',
      tenantId: 'Directory-id (tenant)',
      clientId: 'Client-id',
      clientSecret: 'Clientgeheim',
      enabled: 'Ingeschakeld',
      allowedDomains: 'Toegelaten e-maildomeinen',
      jitGroup: 'Onbekende gebruikers aanmaken',
      directorySync: 'Synchronisatie met de directory',
      directoryUrl: 'Adres van Microsoft Graph',
      groupMapping: 'Groepen koppelen',
      syncNames: 'Namen volgen de directory',
      email: 'E-mailadres',
      groups: 'Groepen',
      status: 'Status',
    },
    yes: 'ja',
    no: 'nee',
    secret: { set: 'ingesteld', replaced: 'vervangen' },
  },
};

const fr: ProviderReportWords = {
  directory: {
    heading: 'Synchronisation de l’annuaire',
    syncOn:
      'Lire l’annuaire à intervalles réguliers (DIRECTORY_SYNC_MINUTES, toutes les heures par défaut) : les utilisateurs supprimés ou désactivés là-bas sont désactivés ici',
    syncNames: 'Les noms suivent l’annuaire',
    url: 'Adresse de Microsoft Graph (vide : https://graph.microsoft.com/v1.0)',
    mapping: (groups) =>
      `Correspondance des groupes : une par ligne, identifiant du groupe dans l’annuaire = groupe ici (${groups})`,
    hint: 'Seuls les utilisateurs liés à ce service ou de ses domaines autorisés sont gérés ; le dernier administrateur actif n’est jamais désactivé ; une synchronisation qui en désactiverait plus de la moitié ne change rien.',
    on: 'Activée',
    off: 'Désactivée',
    lastRun: 'Dernière exécution le',
    nothingChanged: 'rien n’a changé',
    outcome: (users, deactivated, updated) =>
      `${users} ${users === 1 ? 'utilisateur' : 'utilisateurs'} dans l’annuaire, ${deactivated} ${deactivated === 1 ? 'désactivé' : 'désactivés'}, ${updated} mis à jour`,
    notDone: 'non effectué',
    notRun: 'Pas encore effectuée.',
    syncNow: 'Synchroniser maintenant',
    confirmSync:
      'Synchroniser maintenant ? Les utilisateurs supprimés ou désactivés dans l’annuaire sont désactivés ici et déconnectés aussitôt.',
    latest: 'Dernières modifications des utilisateurs',
    user: 'Utilisateur',
    reasons: { disabled: 'désactivé dans l’annuaire', gone: 'absent de l’annuaire' },
  },
  history: {
    heading: 'Historique',
    caption: (name) => `Modifications de ${name}`,
    when: 'Quand',
    who: 'Qui',
    what: 'Quoi',
    none: 'Aucune modification enregistrée.',
    removedUser: 'un utilisateur supprimé',
    system: 'le système',
    apiKey: (name) => `${name} (clé d’API)`,
    app: (name) => `${name} (une application)`,
    actions: {
      'user.deactivated': 'Désactivé',
      'user.updated': 'Mis à jour',
      'sso_provider.created': 'Ajouté',
      'sso_provider.updated': 'Modifié',
      'sso_provider.deleted': 'Supprimé',
      'sso_provider.sync_requested': 'Synchronisation demandée',
    },
    fields: {
      name: 'Nom',
      issuer: 'URL de l’émetteur',
      tenantId: 'Identifiant d’annuaire (tenant)',
      clientId: 'Identifiant client',
      clientSecret: 'Secret client',
      enabled: 'Activé',
      allowedDomains: 'Domaines e-mail autorisés',
      jitGroup: 'Créer les utilisateurs inconnus',
      directorySync: 'Synchronisation de l’annuaire',
      directoryUrl: 'Adresse de Microsoft Graph',
      groupMapping: 'Correspondance des groupes',
      syncNames: 'Les noms suivent l’annuaire',
      email: 'Adresse e-mail',
      groups: 'Groupes',
      status: 'État',
    },
    yes: 'oui',
    no: 'non',
    secret: { set: 'défini', replaced: 'remplacé' },
  },
};

export const providerReportWords: Record<Language, ProviderReportWords> = { en, nl, fr };
