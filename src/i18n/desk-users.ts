// The desk's Users pages in each language: the list and the form that adds a user, a user's page with
// their groups, status, password link and API keys, and what the pages say after a change.
import type { Language } from './languages';

export type UserNotice =
  | 'created'
  | 'invited'
  | 'no-link'
  | 'groups'
  | 'active'
  | 'deactivated'
  | 'link'
  | 'signed-out'
  | 'revoked';
export type UserProblem = 'name' | 'email' | 'groups' | 'keyName';

export interface UserWords {
  title: string;
  caption: string;
  name: string;
  email: string;
  kind: string;
  kinds: Record<'staff' | 'service', string>;
  groups: string;
  groupNames: Record<string, string>;
  status: string;
  statuses: Record<string, string>;
  add: string;
  staffChoice: string;
  serviceChoice: string;
  invite: string;
  addButton: string;
  back: string;
  created: string;
  deactivate: string;
  confirmDeactivate: (name: string) => string;
  reactivate: string;
  passwordLink: string;
  signOut: string;
  memberOf: string;
  saveGroups: string;
  apiKeys: string;
  keyTitle: (name: string) => string;
  keysOf: (name: string) => string;
  keyName: string;
  startsWith: string;
  lastUsed: string;
  revokedOn: string;
  active: string;
  revoke: string;
  revokeLabel: (name: string) => string;
  confirmRevoke: (name: string) => string;
  noKeys: string;
  newKeyName: string;
  keyHint: string;
  createKey: string;
  mode: string;
  modes: Record<'live' | 'test', string>;
  modeHints: Record<'live' | 'test', string>;
  notices: Record<UserNotice, string>;
  problems: Record<UserProblem, string>;
}

const en: UserWords = {
  title: 'Users',
  caption: 'The organisation’s users',
  name: 'Name',
  email: 'E-mail address',
  kind: 'Kind',
  kinds: { staff: 'staff', service: 'service' },
  groups: 'Groups',
  groupNames: {
    administrator: 'administrator',
    'file manager': 'file manager',
    adviser: 'adviser',
    'read-only': 'read-only',
  },
  status: 'Status',
  statuses: { active: 'active', deactivated: 'deactivated' },
  add: 'Add a user',
  staffChoice: 'Staff: signs in to these pages',
  serviceChoice: 'Service: software calling the API with a key',
  invite: 'E-mail a staff user a link to choose their password',
  addButton: 'Add the user',
  back: '← Users',
  created: 'Created',
  deactivate: 'Deactivate',
  confirmDeactivate: (name) =>
    `Deactivate ${name}? They are signed out everywhere at once, and their API keys and tokens stop working until they are reactivated.`,
  reactivate: 'Reactivate',
  passwordLink: 'E-mail a password link',
  signOut: 'Sign out everywhere',
  memberOf: 'Member of',
  saveGroups: 'Save the groups',
  apiKeys: 'API keys',
  keyTitle: (name) => `The key “${name}”`,
  keysOf: (name) => `API keys of ${name}`,
  keyName: 'Name',
  startsWith: 'Starts with',
  lastUsed: 'Last used',
  revokedOn: 'revoked',
  active: 'active',
  revoke: 'Revoke',
  revokeLabel: (name) => `Revoke the key ${name}`,
  confirmRevoke: (name) =>
    `Revoke the key “${name}”? Every call made with it is refused from now on. This cannot be undone.`,
  noKeys: 'No API keys yet.',
  newKeyName: 'Name of a new key',
  keyHint: 'Say where it will be used, e.g. “CRM production”.',
  createKey: 'Create an API key',
  mode: 'Mode',
  modes: { live: 'Live', test: 'Test' },
  modeHints: {
    live: 'works on your real contacts and actions',
    test: 'works on test data only; nothing is sent to anyone (see the test inbox under Integrations)',
  },
  notices: {
    created: 'The user was added.',
    invited: 'The user was added and e-mailed a link to choose their password.',
    'no-link': 'The user was added, but the password link could not be made: use “E-mail a password link”.',
    groups: 'The groups were saved.',
    active: 'The user is active again.',
    deactivated:
      'The user is deactivated and signed out of every browser: their sessions and keys stop working at once.',
    link: 'A link to choose a password is on its way.',
    'signed-out': 'The user is signed out of every browser: each goes to the sign-in page on its next click.',
    revoked: 'The key was revoked: it stops working at once.',
  },
  problems: {
    name: 'Give the user’s name',
    email: 'Give an e-mail address, like name@example.com',
    groups: 'Choose at least one group',
    keyName: 'Give the key a name of at most 200 characters',
  },
};

const nl: UserWords = {
  title: 'Gebruikers',
  caption: 'De gebruikers van de organisatie',
  name: 'Naam',
  email: 'E-mailadres',
  kind: 'Soort',
  kinds: { staff: 'medewerker', service: 'dienst' },
  groups: 'Groepen',
  groupNames: {
    administrator: 'beheerder',
    'file manager': 'dossierbeheerder',
    adviser: 'adviseur',
    'read-only': 'alleen lezen',
  },
  status: 'Status',
  statuses: { active: 'actief', deactivated: 'gedeactiveerd' },
  add: 'Een gebruiker toevoegen',
  staffChoice: 'Medewerker: meldt zich aan op deze pagina’s',
  serviceChoice: 'Dienst: software die de API met een sleutel aanroept',
  invite: 'Een medewerker een link mailen om een wachtwoord te kiezen',
  addButton: 'De gebruiker toevoegen',
  back: '← Gebruikers',
  created: 'Aangemaakt',
  deactivate: 'Deactiveren',
  confirmDeactivate: (name) =>
    `${name} deactiveren? Die wordt meteen overal afgemeld, en zijn of haar API-sleutels en tokens werken niet meer tot de heractivering.`,
  reactivate: 'Opnieuw activeren',
  passwordLink: 'Een wachtwoordlink mailen',
  signOut: 'Overal afmelden',
  memberOf: 'Lid van',
  saveGroups: 'De groepen bewaren',
  apiKeys: 'API-sleutels',
  keyTitle: (name) => `De sleutel „${name}”`,
  keysOf: (name) => `API-sleutels van ${name}`,
  keyName: 'Naam',
  startsWith: 'Begint met',
  lastUsed: 'Laatst gebruikt',
  revokedOn: 'ingetrokken',
  active: 'actief',
  revoke: 'Intrekken',
  revokeLabel: (name) => `Intrekken: de sleutel ${name}`,
  confirmRevoke: (name) =>
    `De sleutel „${name}” intrekken? Elke oproep ermee wordt vanaf nu geweigerd. Dit kan niet ongedaan gemaakt worden.`,
  noKeys: 'Nog geen API-sleutels.',
  newKeyName: 'Naam van een nieuwe sleutel',
  keyHint: 'Zeg waar hij gebruikt wordt, bv. „CRM productie”.',
  createKey: 'Een API-sleutel maken',
  mode: 'Modus',
  modes: { live: 'Live', test: 'Test' },
  modeHints: {
    live: 'werkt op uw echte klanten en acties',
    test: 'werkt alleen op testgegevens; er wordt niets naar iemand verstuurd (zie de testinbox onder Integraties)',
  },
  notices: {
    created: 'De gebruiker is toegevoegd.',
    invited: 'De gebruiker is toegevoegd en kreeg een link om een wachtwoord te kiezen.',
    'no-link':
      'De gebruiker is toegevoegd, maar de wachtwoordlink kon niet gemaakt worden: gebruik „Een wachtwoordlink mailen”.',
    groups: 'De groepen zijn bewaard.',
    active: 'De gebruiker is weer actief.',
    deactivated:
      'De gebruiker is gedeactiveerd en in elke browser afgemeld: sessies en sleutels werken meteen niet meer.',
    link: 'Een link om een wachtwoord te kiezen is onderweg.',
    'signed-out': 'De gebruiker is in elke browser afgemeld: bij de volgende klik volgt de aanmeldpagina.',
    revoked: 'De sleutel is ingetrokken: hij werkt meteen niet meer.',
  },
  problems: {
    name: 'Geef de naam van de gebruiker',
    email: 'Geef een e-mailadres, zoals naam@voorbeeld.be',
    groups: 'Kies minstens één groep',
    keyName: 'Geef de sleutel een naam van hoogstens 200 tekens',
  },
};

const fr: UserWords = {
  title: 'Utilisateurs',
  caption: 'Les utilisateurs de l’organisation',
  name: 'Nom',
  email: 'Adresse e-mail',
  kind: 'Type',
  kinds: { staff: 'personnel', service: 'service' },
  groups: 'Groupes',
  groupNames: {
    administrator: 'administrateur',
    'file manager': 'gestionnaire de dossiers',
    adviser: 'conseiller',
    'read-only': 'lecture seule',
  },
  status: 'État',
  statuses: { active: 'actif', deactivated: 'désactivé' },
  add: 'Ajouter un utilisateur',
  staffChoice: 'Personnel : se connecte à ces pages',
  serviceChoice: 'Service : un logiciel qui appelle l’API avec une clé',
  invite: 'Envoyer à un membre du personnel un lien pour choisir son mot de passe',
  addButton: 'Ajouter l’utilisateur',
  back: '← Utilisateurs',
  created: 'Créé',
  deactivate: 'Désactiver',
  confirmDeactivate: (name) =>
    `Désactiver ${name} ? La personne est déconnectée partout à l’instant, et ses clés d’API et jetons cessent de fonctionner jusqu’à sa réactivation.`,
  reactivate: 'Réactiver',
  passwordLink: 'Envoyer un lien de mot de passe',
  signOut: 'Déconnecter partout',
  memberOf: 'Membre de',
  saveGroups: 'Enregistrer les groupes',
  apiKeys: 'Clés d’API',
  keyTitle: (name) => `La clé « ${name} »`,
  keysOf: (name) => `Clés d’API de ${name}`,
  keyName: 'Nom',
  startsWith: 'Commence par',
  lastUsed: 'Dernière utilisation',
  revokedOn: 'révoquée',
  active: 'active',
  revoke: 'Révoquer',
  revokeLabel: (name) => `Révoquer : la clé ${name}`,
  confirmRevoke: (name) =>
    `Révoquer la clé « ${name} » ? Tout appel fait avec elle est refusé dès maintenant. C’est irréversible.`,
  noKeys: 'Aucune clé d’API pour l’instant.',
  newKeyName: 'Nom d’une nouvelle clé',
  keyHint: 'Dites où elle sera utilisée, p. ex. « CRM production ».',
  createKey: 'Créer une clé d’API',
  mode: 'Mode',
  modes: { live: 'Réel', test: 'Test' },
  modeHints: {
    live: 'agit sur vos vrais clients et actions',
    test: 'agit uniquement sur des données de test ; rien n’est envoyé à personne (voir la boîte de test sous Intégrations)',
  },
  notices: {
    created: 'L’utilisateur est ajouté.',
    invited: 'L’utilisateur est ajouté et a reçu un lien pour choisir son mot de passe.',
    'no-link':
      'L’utilisateur est ajouté, mais le lien de mot de passe n’a pas pu être créé : utilisez « Envoyer un lien de mot de passe ».',
    groups: 'Les groupes sont enregistrés.',
    active: 'L’utilisateur est de nouveau actif.',
    deactivated:
      'L’utilisateur est désactivé et déconnecté de chaque navigateur : ses sessions et clés cessent de fonctionner à l’instant.',
    link: 'Un lien pour choisir un mot de passe est en route.',
    'signed-out':
      'L’utilisateur est déconnecté de chaque navigateur : au prochain clic, la page de connexion s’affiche.',
    revoked: 'La clé est révoquée : elle cesse de fonctionner à l’instant.',
  },
  problems: {
    name: 'Indiquez le nom de l’utilisateur',
    email: 'Indiquez une adresse e-mail, comme nom@exemple.be',
    groups: 'Choisissez au moins un groupe',
    keyName: 'Donnez à la clé un nom de 200 caractères au plus',
  },
};

export const userWords: Record<Language, UserWords> = { en, nl, fr };
