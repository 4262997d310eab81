// The audit trail's staff page in each language: its filters, table and pages. Each change as a
// sentence: desk-audit-sentences.ts.
import type { Language } from './languages';

export interface AuditWords {
  title: string;
  intro: string;
  filterLabel: string;
  person: string;
  anyone: string;
  way: string;
  anyWay: string;
  ways: Record<'user' | 'api_key' | 'oauth_client' | 'contact' | 'system', string>;
  kind: string;
  everything: string;
  from: string;
  to: string;
  requestId: string;
  show: string;
  onlyContact: string;
  onlyAction: string;
  removeFilter: string;
  caption: string;
  when: string;
  change: string;
  details: string;
  fields: string;
  address: string;
  request: string;
  none: string;
  noneFiltered: string;
  newest: string;
  older: string;
  pages: string;
  /** Plural names for the "what" filter. */
  kinds: Record<string, string>;
}

const en: AuditWords = {
  title: 'Audit trail',
  intro:
    'Every change to the organisation’s records, as a sentence: who made it, what changed and when. Open a line for the changed fields, the address it came from and its request id. The same trail is at GET /api/v1/audit-events.',
  filterLabel: 'Filter the audit trail',
  person: 'Person',
  anyone: 'Anyone',
  way: 'How',
  anyWay: 'Any way',
  ways: {
    user: 'In the browser',
    api_key: 'With an API key',
    oauth_client: 'Through an application',
    contact: 'By a contact',
    system: 'By ActionDesk itself',
  },
  kind: 'What',
  everything: 'Everything',
  from: 'From',
  to: 'To',
  requestId: 'Request id',
  show: 'Show',
  onlyContact: 'Only about the contact',
  onlyAction: 'Only about the action',
  removeFilter: 'Show everything again',
  caption: 'Changes, newest first',
  when: 'When',
  change: 'What happened',
  details: 'Details',
  fields: 'Changed',
  address: 'Address',
  request: 'Request',
  none: 'No change recorded.',
  noneFiltered: 'No change recorded with these filters.',
  newest: 'Newest',
  older: 'Older changes →',
  pages: 'Pages of the audit trail',
  kinds: {
    customer: 'Contacts',
    portfolio: 'Portfolios',
    session_request: 'Actions',
    session: 'Answers',
    signer: 'Signers',
    question_list: 'Questionnaire templates',
    file: 'Documents',
    setup: 'Deep links',
    webhook: 'Webhooks',
    webhook_delivery: 'Webhook messages',
    user: 'Users',
    api_key: 'API keys',
    password_token: 'Password links',
    oauth_client: 'Applications (OAuth)',
    oauth_token: 'Tokens',
    sso_provider: 'Sign-in providers',
    sso_identity: 'Sign-in identities',
    organisation: 'The organisation',
    campaign_visitor: 'Campaign visitors',
  },
};

const nl: AuditWords = {
  title: 'Audittrail',
  intro:
    'Elke wijziging aan de gegevens van de organisatie, als een zin: wie ze maakte, wat er veranderde en wanneer. Open een regel voor de gewijzigde velden, het adres waarvan ze kwam en haar request-id. Dezelfde trail staat op GET /api/v1/audit-events.',
  filterLabel: 'De audittrail filteren',
  person: 'Persoon',
  anyone: 'Iedereen',
  way: 'Hoe',
  anyWay: 'Op elke manier',
  ways: {
    user: 'In de browser',
    api_key: 'Met een API-sleutel',
    oauth_client: 'Via een toepassing',
    contact: 'Door een contact',
    system: 'Door ActionDesk zelf',
  },
  kind: 'Wat',
  everything: 'Alles',
  from: 'Van',
  to: 'Tot',
  requestId: 'Request-id',
  show: 'Tonen',
  onlyContact: 'Alleen over het contact',
  onlyAction: 'Alleen over de actie',
  removeFilter: 'Opnieuw alles tonen',
  caption: 'Wijzigingen, nieuwste eerst',
  when: 'Wanneer',
  change: 'Wat er gebeurde',
  details: 'Details',
  fields: 'Gewijzigd',
  address: 'Adres',
  request: 'Request',
  none: 'Geen wijziging opgetekend.',
  noneFiltered: 'Geen wijziging opgetekend met deze filters.',
  newest: 'Nieuwste',
  older: 'Oudere wijzigingen →',
  pages: 'Pagina’s van de audittrail',
  kinds: {
    customer: 'Contacten',
    portfolio: 'Portefeuilles',
    session_request: 'Acties',
    session: 'Antwoorden',
    signer: 'Ondertekenaars',
    question_list: 'Vragenlijstsjablonen',
    file: 'Documenten',
    setup: 'Deeplinks',
    webhook: 'Webhooks',
    webhook_delivery: 'Webhookberichten',
    user: 'Gebruikers',
    api_key: 'API-sleutels',
    password_token: 'Wachtwoordlinks',
    oauth_client: 'Toepassingen (OAuth)',
    oauth_token: 'Tokens',
    sso_provider: 'Aanmeldingsdiensten',
    sso_identity: 'Aanmeldingsidentiteiten',
    organisation: 'De organisatie',
    campaign_visitor: 'Campagnebezoekers',
  },
};

const fr: AuditWords = {
  title: 'Journal d’audit',
  intro:
    'Chaque modification des données de l’organisation, en une phrase : qui l’a faite, ce qui a changé et quand. Ouvrez une ligne pour les champs modifiés, l’adresse d’origine et l’identifiant de la requête. Le même journal est sur GET /api/v1/audit-events.',
  filterLabel: 'Filtrer le journal d’audit',
  person: 'Personne',
  anyone: 'Tout le monde',
  way: 'Comment',
  anyWay: 'De toute manière',
  ways: {
    user: 'Dans le navigateur',
    api_key: 'Avec une clé d’API',
    oauth_client: 'Via une application',
    contact: 'Par un contact',
    system: 'Par ActionDesk lui-même',
  },
  kind: 'Quoi',
  everything: 'Tout',
  from: 'Du',
  to: 'Au',
  requestId: 'Identifiant de requête',
  show: 'Afficher',
  onlyContact: 'Seulement à propos du contact',
  onlyAction: 'Seulement à propos de l’action',
  removeFilter: 'Tout afficher à nouveau',
  caption: 'Modifications, les plus récentes d’abord',
  when: 'Quand',
  change: 'Ce qui s’est passé',
  details: 'Détails',
  fields: 'Modifié',
  address: 'Adresse',
  request: 'Requête',
  none: 'Aucune modification enregistrée.',
  noneFiltered: 'Aucune modification enregistrée avec ces filtres.',
  newest: 'Les plus récentes',
  older: 'Modifications plus anciennes →',
  pages: 'Pages du journal d’audit',
  kinds: {
    customer: 'Contacts',
    portfolio: 'Portefeuilles',
    session_request: 'Actions',
    session: 'Réponses',
    signer: 'Signataires',
    question_list: 'Modèles de questionnaire',
    file: 'Documents',
    setup: 'Liens profonds',
    webhook: 'Webhooks',
    webhook_delivery: 'Messages de webhook',
    user: 'Utilisateurs',
    api_key: 'Clés d’API',
    password_token: 'Liens de mot de passe',
    oauth_client: 'Applications (OAuth)',
    oauth_token: 'Jetons',
    sso_provider: 'Services de connexion',
    sso_identity: 'Identités de connexion',
    organisation: 'L’organisation',
    campaign_visitor: 'Visiteurs de campagne',
  },
};

export const auditWords: Record<Language, AuditWords> = { en, nl, fr };
