// The desk's sign-in providers pages (Integrations → OAuth Providers) in each language: the list with
// password sign-in and the add form, a provider's page with its settings, directory synchronisation and
// history, and what the pages say after a change or a refusal.
import { type ProviderReportWords, providerReportWords } from './desk-provider-reports';
import type { Language } from './languages';

export type ProviderNotice = 'created' | 'saved' | 'deleted' | 'sync' | 'password-on' | 'password-off';
/** A refused form post, by name: a field's problem, or a service's refusal of the change. */
export type ProviderProblem =
  | 'type'
  | 'name'
  | 'tenantId'
  | 'tenantRequired'
  | 'tenantOnlyMicrosoft'
  | 'issuer'
  | 'issuerRequired'
  | 'clientId'
  | 'clientSecret'
  | 'domains'
  | 'jitGroup'
  | 'jitNeedsDomains'
  | 'directoryOnlyMicrosoft'
  | 'directoryUrl'
  | 'groupMapping'
  | 'lastProvider'
  | 'noEnabledProvider'
  | 'syncOff'
  | 'form';

export interface ProviderWords extends ProviderReportWords {
  list: {
    title: string;
    /** Followed by the organisation's own sign-in address. */
    intro: string;
    button: string;
    domains: string;
    anyDomain: string;
    enabled: string;
    disabled: string;
    none: string;
    password: string;
    passwordOn: string;
    passwordOff: string;
    switchOff: string;
    confirmSwitchOff: string;
    switchOn: string;
    add: string;
    addButton: string;
    types: Record<'google' | 'microsoft' | 'oidc', string>;
    redirect: string;
    redirectHow: string;
  };
  form: {
    name: string;
    nameHint: string;
    tenant: string;
    issuer: string;
    clientId: string;
    secret: string;
    secretKeep: string;
    secretHint: string;
    domains: string;
    jit: string;
    jitOff: string;
    jitIn: (group: string) => string;
    jitHint: string;
    enabled: string;
  };
  page: {
    savedAt: string;
    neverShown: string;
    settings: string;
    save: string;
    remove: string;
    removeText: string;
    removeButton: (name: string) => string;
    confirmRemove: (name: string) => string;
  };
  notices: Record<ProviderNotice, string>;
  problems: Record<ProviderProblem, string>;
  issuerRefused: (why: string) => string;
  directoryRefused: (why: string) => string;
}

const en: Omit<ProviderWords, keyof ProviderReportWords> = {
  list: {
    title: 'OAuth Providers',
    intro:
      'Staff sign in with their work account at your identity provider. Create an OAuth 2.0 application there, register the redirect address below, and enter its client ID and secret here. Once enabled, its button appears on the sign-in page: for every address with an account here, and always on your organisation’s own sign-in address,',
    button: 'Button',
    domains: 'Domains',
    anyDomain: 'any',
    enabled: 'enabled',
    disabled: 'disabled',
    none: 'No provider yet.',
    password: 'Password sign-in',
    passwordOn: 'On: staff sign in with their password or with an enabled provider.',
    passwordOff:
      'Off: staff sign in through an enabled provider. Administrators keep their password as a way in when single sign-on fails (each such sign-in is recorded in the audit trail).',
    switchOff: 'Switch password sign-in off',
    confirmSwitchOff:
      'Switch password sign-in off? Staff then sign in only through a provider; administrators keep their password.',
    switchOn: 'Switch password sign-in on',
    add: 'Add a provider',
    addButton: 'Add the provider',
    types: {
      google: 'Google-type (Google Workspace)',
      microsoft: 'Microsoft-type (Microsoft Entra ID directory)',
      oidc: 'Another OpenID Connect provider',
    },
    redirect: 'Redirect address',
    redirectHow: 'register it exactly so at the provider (as the application’s redirect URI / reply URL):',
  },
  form: {
    name: 'Button label',
    nameHint: 'The sign-in button reads “Sign in with” this. Empty: Google, Microsoft or Single sign-on.',
    tenant: 'Directory (tenant) id or domain — Microsoft-type only',
    issuer: 'Issuer URL — required for another provider; optional otherwise',
    clientId: 'Client ID',
    secret: 'Client secret',
    secretKeep: 'Client secret — leave empty to keep the saved one',
    secretHint: 'Stored encrypted. It is never shown again, here or anywhere.',
    domains: 'Allowed e-mail domains (one per line; empty: any)',
    jit: 'Create unknown users on their first sign-in',
    jitOff: 'Off: only users an administrator added',
    jitIn: (group) => `Yes, in the group ${group}`,
    jitHint: 'Needs allowed domains: only addresses of those domains are created.',
    enabled: 'Enabled: its button shows on the sign-in page',
  },
  page: {
    savedAt: 'saved',
    neverShown: '(never shown)',
    settings: 'Settings',
    save: 'Save',
    remove: 'Remove',
    removeText: 'Its button disappears and nobody signs in through it any more; users keep their accounts.',
    removeButton: (name) => `Remove ${name}`,
    confirmRemove: (name) =>
      `Remove ${name}? Its button disappears and nobody signs in through it any more; users keep their accounts.`,
  },
  notices: {
    created: 'The provider was added.',
    saved: 'The changes were saved.',
    deleted: 'The provider was removed.',
    sync: 'Directory synchronisation will run in a moment: reload the page to see its outcome.',
    'password-on': 'Password sign-in is on: staff may sign in with their password again.',
    'password-off':
      'Password sign-in is off: staff sign in through your providers; administrators keep their password.',
  },
  problems: {
    type: 'Kind: choose a Google-type, a Microsoft-type or another OpenID Connect provider.',
    name: 'Button label: at most 100 characters.',
    tenantId:
      'Directory (tenant) id: give your own directory’s id (a GUID) or domain; common, organizations and consumers would let any Microsoft account in.',
    tenantRequired: 'Directory (tenant) id: required for a Microsoft-type provider.',
    tenantOnlyMicrosoft: 'Directory (tenant) id: only for a Microsoft-type provider; leave it empty.',
    issuer: 'Issuer URL: give an https address without query or fragment.',
    issuerRequired: 'Issuer URL: required for another OpenID Connect provider.',
    clientId: 'Client ID: give the client ID of the application registered at the provider.',
    clientSecret: 'Client secret: give the secret of the application registered at the provider.',
    domains: 'Allowed e-mail domains: one domain a line, such as example.com, each once, at most 50.',
    jitGroup: 'Create unknown users: choose off or one of the groups offered.',
    jitNeedsDomains:
      'Create unknown users: give the allowed e-mail domains too, so that only addresses of those domains are created.',
    directoryOnlyMicrosoft: 'Directory synchronisation: only for a Microsoft-type provider.',
    directoryUrl: 'Microsoft Graph address: give an https address without query or fragment.',
    groupMapping:
      'Group mapping: one a line, a directory group id (letters, digits, - . _) = one of the groups here; at most 50.',
    lastProvider:
      'Password sign-in is off and this is the last enabled provider: switch password sign-in on first, or enable another provider.',
    noEnabledProvider: 'Enable a provider first: with password sign-in off, staff sign in only through one.',
    syncOff: 'Directory synchronisation is off for this provider: switch it on and save first.',
    form: 'The provider could not be saved: check its settings.',
  },
  issuerRefused: (why) => `Issuer URL: refused (${why}).`,
  directoryRefused: (why) => `Microsoft Graph address: refused (${why}).`,
};

const nl: Omit<ProviderWords, keyof ProviderReportWords> = {
  list: {
    title: 'Aanmeldingsdiensten',
    intro:
      'Medewerkers melden zich aan met hun werkaccount bij de identiteitsdienst van uw organisatie. Maak daar een OAuth 2.0-toepassing aan, registreer er het terugkeeradres hieronder en vul hier haar client-id en geheim in. Eens de dienst ingeschakeld is, verschijnt zijn knop op de aanmeldpagina: voor elk adres met een account hier, en altijd op het eigen aanmeldadres van uw organisatie,',
    button: 'Knop',
    domains: 'Domeinen',
    anyDomain: 'alle',
    enabled: 'ingeschakeld',
    disabled: 'uitgeschakeld',
    none: 'Nog geen aanmeldingsdienst.',
    password: 'Aanmelden met een wachtwoord',
    passwordOn:
      'Aan: medewerkers melden zich aan met hun wachtwoord of via een ingeschakelde aanmeldingsdienst.',
    passwordOff:
      'Uit: medewerkers melden zich aan via een ingeschakelde aanmeldingsdienst. Beheerders houden hun wachtwoord als uitweg wanneer single sign-on faalt (elke aanmelding op die manier komt in het logboek).',
    switchOff: 'Aanmelden met een wachtwoord uitschakelen',
    confirmSwitchOff:
      'Aanmelden met een wachtwoord uitschakelen? Medewerkers melden zich dan alleen nog aan via een aanmeldingsdienst; beheerders houden hun wachtwoord.',
    switchOn: 'Aanmelden met een wachtwoord inschakelen',
    add: 'Een aanmeldingsdienst toevoegen',
    addButton: 'De aanmeldingsdienst toevoegen',
    types: {
      google: 'Type Google (Google Workspace)',
      microsoft: 'Type Microsoft (directory van Microsoft Entra ID)',
      oidc: 'Een andere OpenID Connect-dienst',
    },
    redirect: 'Terugkeeradres',
    redirectHow:
      'registreer het precies zo bij de dienst (als omleidings-URI of antwoord-URL van de toepassing):',
  },
  form: {
    name: 'Tekst op de knop',
    nameHint: 'De naam van de dienst op de aanmeldknop. Leeg: Google, Microsoft of Single sign-on.',
    tenant: 'Directory-id (tenant) of domein — alleen type Microsoft',
    issuer: 'URL van de uitgever (issuer) — verplicht voor een andere dienst, anders optioneel',
    clientId: 'Client-id',
    secret: 'Clientgeheim',
    secretKeep: 'Clientgeheim — laat leeg om het bewaarde te houden',
    secretHint: 'Versleuteld bewaard. Het wordt nooit meer getoond, hier noch elders.',
    domains: 'Toegelaten e-maildomeinen (één per regel; leeg: alle)',
    jit: 'Onbekende gebruikers aanmaken bij hun eerste aanmelding',
    jitOff: 'Nee: alleen gebruikers die een beheerder heeft toegevoegd',
    jitIn: (group) => `Ja, in de groep ${group}`,
    jitHint: 'Vereist toegelaten domeinen: alleen adressen van die domeinen worden aangemaakt.',
    enabled: 'Ingeschakeld: de knop staat op de aanmeldpagina',
  },
  page: {
    savedAt: 'bewaard op',
    neverShown: '(nooit getoond)',
    settings: 'Instellingen',
    save: 'Bewaren',
    remove: 'Verwijderen',
    removeText: 'De knop verdwijnt en niemand meldt zich er nog mee aan; gebruikers houden hun account.',
    removeButton: (name) => `${name} verwijderen`,
    confirmRemove: (name) =>
      `${name} verwijderen? De knop verdwijnt en niemand meldt zich er nog mee aan; gebruikers houden hun account.`,
  },
  notices: {
    created: 'De aanmeldingsdienst is toegevoegd.',
    saved: 'De wijzigingen zijn bewaard.',
    deleted: 'De aanmeldingsdienst is verwijderd.',
    sync: 'De synchronisatie met de directory start zo meteen: laad de pagina opnieuw om het resultaat te zien.',
    'password-on':
      'Aanmelden met een wachtwoord staat aan: medewerkers mogen zich weer met hun wachtwoord aanmelden.',
    'password-off':
      'Aanmelden met een wachtwoord staat uit: medewerkers melden zich aan via uw aanmeldingsdiensten; beheerders houden hun wachtwoord.',
  },
  problems: {
    type: 'Soort: kies type Google, type Microsoft of een andere OpenID Connect-dienst.',
    name: 'Tekst op de knop: hoogstens 100 tekens.',
    tenantId:
      'Directory-id (tenant): geef de id (een GUID) of het domein van uw eigen directory; common, organizations en consumers zouden elk Microsoft-account binnenlaten.',
    tenantRequired: 'Directory-id (tenant): verplicht voor een dienst van het type Microsoft.',
    tenantOnlyMicrosoft:
      'Directory-id (tenant): alleen voor een dienst van het type Microsoft; laat het leeg.',
    issuer: 'URL van de uitgever: geef een https-adres zonder query of fragment.',
    issuerRequired: 'URL van de uitgever: verplicht voor een andere OpenID Connect-dienst.',
    clientId: 'Client-id: geef de client-id van de toepassing die bij de dienst geregistreerd is.',
    clientSecret: 'Clientgeheim: geef het geheim van de toepassing die bij de dienst geregistreerd is.',
    domains:
      'Toegelaten e-maildomeinen: één domein per regel, zoals voorbeeld.be, elk één keer, hoogstens 50.',
    jitGroup: 'Onbekende gebruikers aanmaken: kies nee of een van de voorgestelde groepen.',
    jitNeedsDomains:
      'Onbekende gebruikers aanmaken: geef ook de toegelaten e-maildomeinen, zodat alleen adressen van die domeinen aangemaakt worden.',
    directoryOnlyMicrosoft: 'Synchronisatie met de directory: alleen voor een dienst van het type Microsoft.',
    directoryUrl: 'Adres van Microsoft Graph: geef een https-adres zonder query of fragment.',
    groupMapping:
      'Groepen koppelen: één per regel, een groeps-id in de directory (letters, cijfers, - . _) = een van de groepen hier; hoogstens 50.',
    lastProvider:
      'Aanmelden met een wachtwoord staat uit en dit is de laatste ingeschakelde aanmeldingsdienst: schakel eerst het aanmelden met een wachtwoord in, of schakel een andere dienst in.',
    noEnabledProvider:
      'Schakel eerst een aanmeldingsdienst in: zonder wachtwoord melden medewerkers zich alleen via zo’n dienst aan.',
    syncOff: 'De synchronisatie met de directory staat uit voor deze dienst: schakel ze eerst in en bewaar.',
    form: 'De aanmeldingsdienst kon niet bewaard worden: kijk de instellingen na.',
  },
  issuerRefused: (why) => `URL van de uitgever: geweigerd (${why}).`,
  directoryRefused: (why) => `Adres van Microsoft Graph: geweigerd (${why}).`,
};

const fr: Omit<ProviderWords, keyof ProviderReportWords> = {
  list: {
    title: 'Services de connexion',
    intro:
      'Le personnel se connecte avec son compte professionnel auprès du service d’identité de votre organisation. Créez-y une application OAuth 2.0, enregistrez-y l’adresse de retour ci-dessous et saisissez ici son identifiant client et son secret. Une fois le service activé, son bouton apparaît sur la page de connexion : pour chaque adresse qui a un compte ici, et toujours sur l’adresse de connexion propre à votre organisation,',
    button: 'Bouton',
    domains: 'Domaines',
    anyDomain: 'tous',
    enabled: 'activé',
    disabled: 'désactivé',
    none: 'Aucun service de connexion pour l’instant.',
    password: 'Connexion par mot de passe',
    passwordOn:
      'Activée : le personnel se connecte avec son mot de passe ou par un service de connexion activé.',
    passwordOff:
      'Désactivée : le personnel se connecte par un service de connexion activé. Les administrateurs gardent leur mot de passe comme issue de secours si l’authentification unique échoue (chacune de ces connexions est inscrite au journal d’audit).',
    switchOff: 'Désactiver la connexion par mot de passe',
    confirmSwitchOff:
      'Désactiver la connexion par mot de passe ? Le personnel ne se connecte alors plus que par un service de connexion ; les administrateurs gardent leur mot de passe.',
    switchOn: 'Activer la connexion par mot de passe',
    add: 'Ajouter un service de connexion',
    addButton: 'Ajouter le service',
    types: {
      google: 'Type Google (Google Workspace)',
      microsoft: 'Type Microsoft (annuaire Microsoft Entra ID)',
      oidc: 'Un autre service OpenID Connect',
    },
    redirect: 'Adresse de retour',
    redirectHow:
      'enregistrez-la telle quelle auprès du service (comme URI de redirection / URL de réponse de l’application) :',
  },
  form: {
    name: 'Libellé du bouton',
    nameHint: 'Le nom du service sur le bouton de connexion. Vide : Google, Microsoft ou Single sign-on.',
    tenant: 'Identifiant d’annuaire (tenant) ou domaine — type Microsoft uniquement',
    issuer: 'URL de l’émetteur (issuer) — obligatoire pour un autre service, facultative sinon',
    clientId: 'Identifiant client',
    secret: 'Secret client',
    secretKeep: 'Secret client — laissez vide pour garder celui enregistré',
    secretHint: 'Conservé chiffré. Il n’est plus jamais affiché, ni ici ni ailleurs.',
    domains: 'Domaines e-mail autorisés (un par ligne ; vide : tous)',
    jit: 'Créer les utilisateurs inconnus à leur première connexion',
    jitOff: 'Non : seulement les utilisateurs ajoutés par un administrateur',
    jitIn: (group) => `Oui, dans le groupe ${group}`,
    jitHint: 'Nécessite des domaines autorisés : seules les adresses de ces domaines sont créées.',
    enabled: 'Activé : son bouton figure sur la page de connexion',
  },
  page: {
    savedAt: 'enregistré le',
    neverShown: '(jamais affiché)',
    settings: 'Paramètres',
    save: 'Enregistrer',
    remove: 'Supprimer',
    removeText:
      'Son bouton disparaît et plus personne ne se connecte par ce service ; les utilisateurs gardent leur compte.',
    removeButton: (name) => `Supprimer ${name}`,
    confirmRemove: (name) =>
      `Supprimer ${name} ? Son bouton disparaît et plus personne ne se connecte par ce service ; les utilisateurs gardent leur compte.`,
  },
  notices: {
    created: 'Le service de connexion est ajouté.',
    saved: 'Les modifications sont enregistrées.',
    deleted: 'Le service de connexion est supprimé.',
    sync: 'La synchronisation de l’annuaire démarre dans un instant : rechargez la page pour voir son résultat.',
    'password-on':
      'La connexion par mot de passe est activée : le personnel peut de nouveau se connecter avec son mot de passe.',
    'password-off':
      'La connexion par mot de passe est désactivée : le personnel se connecte par vos services de connexion ; les administrateurs gardent leur mot de passe.',
  },
  problems: {
    type: 'Type : choisissez le type Google, le type Microsoft ou un autre service OpenID Connect.',
    name: 'Libellé du bouton : 100 caractères au plus.',
    tenantId:
      'Identifiant d’annuaire : indiquez l’identifiant (un GUID) ou le domaine de votre propre annuaire ; common, organizations et consumers laisseraient entrer n’importe quel compte Microsoft.',
    tenantRequired: 'Identifiant d’annuaire : obligatoire pour un service de type Microsoft.',
    tenantOnlyMicrosoft:
      'Identifiant d’annuaire : seulement pour un service de type Microsoft ; laissez-le vide.',
    issuer: 'URL de l’émetteur : indiquez une adresse https sans requête ni fragment.',
    issuerRequired: 'URL de l’émetteur : obligatoire pour un autre service OpenID Connect.',
    clientId:
      'Identifiant client : indiquez l’identifiant client de l’application enregistrée auprès du service.',
    clientSecret: 'Secret client : indiquez le secret de l’application enregistrée auprès du service.',
    domains:
      'Domaines e-mail autorisés : un domaine par ligne, comme exemple.be, chacun une fois, 50 au plus.',
    jitGroup: 'Créer les utilisateurs inconnus : choisissez non ou l’un des groupes proposés.',
    jitNeedsDomains:
      'Créer les utilisateurs inconnus : indiquez aussi les domaines e-mail autorisés, pour que seules les adresses de ces domaines soient créées.',
    directoryOnlyMicrosoft: 'Synchronisation de l’annuaire : seulement pour un service de type Microsoft.',
    directoryUrl: 'Adresse de Microsoft Graph : indiquez une adresse https sans requête ni fragment.',
    groupMapping:
      'Correspondance des groupes : une par ligne, un identifiant de groupe de l’annuaire (lettres, chiffres, - . _) = l’un des groupes ici ; 50 au plus.',
    lastProvider:
      'La connexion par mot de passe est désactivée et ce service est le dernier activé : réactivez d’abord la connexion par mot de passe, ou activez un autre service.',
    noEnabledProvider:
      'Activez d’abord un service de connexion : sans mot de passe, le personnel ne se connecte que par un tel service.',
    syncOff:
      'La synchronisation de l’annuaire est désactivée pour ce service : activez-la et enregistrez d’abord.',
    form: 'Le service de connexion n’a pas pu être enregistré : vérifiez ses paramètres.',
  },
  issuerRefused: (why) => `URL de l’émetteur : refusée (${why}).`,
  directoryRefused: (why) => `Adresse de Microsoft Graph : refusée (${why}).`,
};

export const providerWords: Record<Language, ProviderWords> = {
  en: { ...en, ...providerReportWords.en },
  nl: { ...nl, ...providerReportWords.nl },
  fr: { ...fr, ...providerReportWords.fr },
};
