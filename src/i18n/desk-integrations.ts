// The desk's Integrations page in each language, with its OAuth client applications, and what the
// Integrations pages share. Webhooks: desk-webhooks.ts.
import type { Language } from './languages';

export type ClientNotice = 'registered' | 'rotated' | 'disabled' | 'enabled' | 'revoked' | 'revoked-all';

export interface IntegrationWords {
  title: string;
  active: string;
  disabledAt: string;
  actions: string;
  clients: {
    heading: string;
    intro: string;
    usersLink: string;
    secretOf: (name: string) => string;
    clientId: string;
    caption: string;
    name: string;
    kind: string;
    kinds: Record<string, string>;
    scopes: string;
    status: string;
    none: string;
    newSecret: string;
    enable: string;
    disable: string;
    confirmDisable: (name: string) => string;
    register: string;
    confidential: string;
    public: string;
    grants: string;
    grantNames: Record<string, string>;
    redirects: string;
    registerButton: string;
    notices: Record<ClientNotice, string>;
    providersHeading: string;
    providersText: string;
    providersLink: string;
    back: string;
    redirectUris: string;
    tokens: (n: number) => string;
    tokenKinds: Record<string, string>;
    actsFor: string;
    issued: string;
    expires: string;
    lastUsed: string;
    revoke: string;
    revokeLabel: (kind: string, user: string, issued: string) => string;
    confirmRevoke: (user: string) => string;
    revokeAll: string;
    confirmRevokeAll: string;
    noTokens: string;
  };
}

const en: IntegrationWords = {
  title: 'Integrations',
  active: 'active',
  disabledAt: 'disabled',
  actions: 'Actions',
  clients: {
    heading: 'OAuth client applications',
    intro:
      'Partner applications call the API with OAuth tokens (POST /api/v1/auth/oauth/token). Software of your own can also use an API key of a service user under',
    usersLink: 'Users',
    secretOf: (name) => `The secret of “${name}”`,
    clientId: 'Client id',
    caption: 'OAuth clients',
    name: 'Name',
    kind: 'Kind',
    kinds: { confidential: 'confidential', public: 'public' },
    scopes: 'Scopes',
    status: 'Status',
    none: 'No client yet.',
    newSecret: 'New secret',
    enable: 'Enable',
    disable: 'Disable',
    confirmDisable: (name) =>
      `Disable “${name}”? Its tokens stop working, and it gets no new ones until it is enabled again.`,
    register: 'Register a client',
    confidential: 'Confidential: a server that keeps a secret',
    public: 'Public: a mobile or browser app (no secret, PKCE)',
    grants: 'Grants',
    grantNames: {
      client_credentials: 'Client credentials (a server acting as its service user)',
      authorization_code: 'Authorization code with PKCE (acting for a signed-in adviser)',
      refresh_token: 'Refresh tokens',
    },
    redirects: 'Redirect URIs (authorization code; one per line, exact)',
    registerButton: 'Register the client',
    notices: {
      registered: 'The client was registered.',
      rotated: 'The client has a new secret; the old one no longer works.',
      disabled: 'The client is disabled: it gets no tokens.',
      enabled: 'The client is enabled again.',
      revoked: 'The token was revoked (a refresh token with everything its consent issued).',
      'revoked-all': 'All the client’s tokens were revoked.',
    },
    providersHeading: 'Sign-in providers',
    providersText:
      'Staff sign in with their Google-type or Microsoft-type work account, or another OpenID Connect provider:',
    providersLink: 'set up your organisation’s sign-in providers',
    back: '← Integrations',
    redirectUris: 'Redirect URIs',
    tokens: (n) => `Live tokens (${n})`,
    tokenKinds: { access: 'Access token', refresh: 'Refresh token' },
    actsFor: 'Acts for',
    issued: 'Issued',
    expires: 'Expires',
    lastUsed: 'Last used',
    revoke: 'Revoke',
    revokeLabel: (kind, user, issued) => `Revoke the ${kind} of ${user} issued ${issued}`,
    confirmRevoke: (user) =>
      `Revoke this token of ${user}? The application using it is refused from now on, until they grant access again.`,
    revokeAll: 'Revoke all its tokens',
    confirmRevokeAll: 'Revoke every token of this client? Every person using it must grant access again.',
    noTokens: 'No live token.',
  },
};

const nl: IntegrationWords = {
  title: 'Koppelingen',
  active: 'actief',
  disabledAt: 'uitgeschakeld',
  actions: 'Acties',
  clients: {
    heading: 'OAuth-toepassingen',
    intro:
      'Toepassingen van partners roepen de API aan met OAuth-tokens (POST /api/v1/auth/oauth/token). Uw eigen software kan ook een API-sleutel van een servicegebruiker gebruiken, onder',
    usersLink: 'Gebruikers',
    secretOf: (name) => `Het geheim van „${name}”`,
    clientId: 'Client-id',
    caption: 'OAuth-toepassingen',
    name: 'Naam',
    kind: 'Soort',
    kinds: { confidential: 'vertrouwelijk', public: 'publiek' },
    scopes: 'Rechten',
    status: 'Status',
    none: 'Nog geen toepassing.',
    newSecret: 'Nieuw geheim',
    enable: 'Inschakelen',
    disable: 'Uitschakelen',
    confirmDisable: (name) =>
      `„${name}” uitschakelen? Haar tokens werken niet meer en ze krijgt geen nieuwe tot ze weer ingeschakeld is.`,
    register: 'Een toepassing registreren',
    confidential: 'Vertrouwelijk: een server die een geheim bewaart',
    public: 'Publiek: een app op gsm of in de browser (geen geheim, PKCE)',
    grants: 'Manieren om een token te krijgen',
    grantNames: {
      client_credentials: 'Eigen gegevens (een server die als haar servicegebruiker werkt)',
      authorization_code: 'Autorisatiecode met PKCE (werkt voor een aangemelde adviseur)',
      refresh_token: 'Verversingstokens',
    },
    redirects: 'Terugkeeradressen (autorisatiecode; één per regel, exact)',
    registerButton: 'De toepassing registreren',
    notices: {
      registered: 'De toepassing is geregistreerd.',
      rotated: 'De toepassing heeft een nieuw geheim; het oude werkt niet meer.',
      disabled: 'De toepassing is uitgeschakeld: ze krijgt geen tokens.',
      enabled: 'De toepassing is weer ingeschakeld.',
      revoked: 'Het token is ingetrokken (een verversingstoken met alles wat die toestemming uitgaf).',
      'revoked-all': 'Alle tokens van de toepassing zijn ingetrokken.',
    },
    providersHeading: 'Aanmeldingsdiensten',
    providersText:
      'Medewerkers melden zich aan met hun werkaccount van het type Google of Microsoft, of bij een andere OpenID Connect-dienst:',
    providersLink: 'stel de aanmeldingsdiensten van uw organisatie in',
    back: '← Koppelingen',
    redirectUris: 'Terugkeeradressen',
    tokens: (n) => `Geldige tokens (${n})`,
    tokenKinds: { access: 'Toegangstoken', refresh: 'Verversingstoken' },
    actsFor: 'Werkt voor',
    issued: 'Uitgegeven',
    expires: 'Vervalt',
    lastUsed: 'Laatst gebruikt',
    revoke: 'Intrekken',
    revokeLabel: (kind, user, issued) => `Het ${kind} van ${user} van ${issued} intrekken`,
    confirmRevoke: (user) =>
      `Dit token van ${user} intrekken? De toepassing die het gebruikt wordt vanaf nu geweigerd, tot opnieuw toegang gegeven wordt.`,
    revokeAll: 'Al haar tokens intrekken',
    confirmRevokeAll:
      'Elk token van deze toepassing intrekken? Iedereen die haar gebruikt moet opnieuw toegang geven.',
    noTokens: 'Geen geldig token.',
  },
};

const fr: IntegrationWords = {
  title: 'Intégrations',
  active: 'actif',
  disabledAt: 'désactivé',
  actions: 'Actions',
  clients: {
    heading: 'Applications OAuth',
    intro:
      'Les applications des partenaires appellent l’API avec des jetons OAuth (POST /api/v1/auth/oauth/token). Vos propres logiciels peuvent aussi utiliser une clé d’API d’un utilisateur de service, sous',
    usersLink: 'Utilisateurs',
    secretOf: (name) => `Le secret de « ${name} »`,
    clientId: 'Identifiant client',
    caption: 'Applications OAuth',
    name: 'Nom',
    kind: 'Type',
    kinds: { confidential: 'confidentielle', public: 'publique' },
    scopes: 'Droits',
    status: 'État',
    none: 'Aucune application pour l’instant.',
    newSecret: 'Nouveau secret',
    enable: 'Activer',
    disable: 'Désactiver',
    confirmDisable: (name) =>
      `Désactiver « ${name} » ? Ses jetons cessent de fonctionner et elle n’en reçoit plus jusqu’à sa réactivation.`,
    register: 'Enregistrer une application',
    confidential: 'Confidentielle : un serveur qui garde un secret',
    public: 'Publique : une application mobile ou de navigateur (sans secret, PKCE)',
    grants: 'Manières d’obtenir un jeton',
    grantNames: {
      client_credentials: 'Identifiants propres (un serveur agissant comme son utilisateur de service)',
      authorization_code: 'Code d’autorisation avec PKCE (agit pour un conseiller connecté)',
      refresh_token: 'Jetons de renouvellement',
    },
    redirects: 'Adresses de retour (code d’autorisation ; une par ligne, exactes)',
    registerButton: 'Enregistrer l’application',
    notices: {
      registered: 'L’application est enregistrée.',
      rotated: 'L’application a un nouveau secret ; l’ancien ne fonctionne plus.',
      disabled: 'L’application est désactivée : elle ne reçoit aucun jeton.',
      enabled: 'L’application est réactivée.',
      revoked: 'Le jeton est révoqué (un jeton de renouvellement avec tout ce que ce consentement a émis).',
      'revoked-all': 'Tous les jetons de l’application sont révoqués.',
    },
    providersHeading: 'Services de connexion',
    providersText:
      'Le personnel se connecte avec son compte professionnel de type Google ou Microsoft, ou un autre service OpenID Connect :',
    providersLink: 'configurez les services de connexion de votre organisation',
    back: '← Intégrations',
    redirectUris: 'Adresses de retour',
    tokens: (n) => `Jetons valides (${n})`,
    tokenKinds: { access: 'Jeton d’accès', refresh: 'Jeton de renouvellement' },
    actsFor: 'Agit pour',
    issued: 'Émis',
    expires: 'Expire',
    lastUsed: 'Dernière utilisation',
    revoke: 'Révoquer',
    revokeLabel: (kind, user, issued) => `Révoquer le ${kind} de ${user} émis le ${issued}`,
    confirmRevoke: (user) =>
      `Révoquer ce jeton de ${user} ? L’application qui l’utilise est refusée dès maintenant, jusqu’à un nouvel accord.`,
    revokeAll: 'Révoquer tous ses jetons',
    confirmRevokeAll:
      'Révoquer tous les jetons de cette application ? Chaque personne qui l’utilise doit de nouveau donner son accord.',
    noTokens: 'Aucun jeton valide.',
  },
};

export const integrationWords: Record<Language, IntegrationWords> = { en, nl, fr };
