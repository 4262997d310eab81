/**
 * Every operation of the OpenAPI document gets a stable, unique `operationId` (what generated clients
 * name their methods after), derived from its method and path unless its route names one itself:
 * `GET /api/v1/customers` → `listCustomers`, `GET /api/v1/customers/{customerId}` → `getCustomer`,
 * `POST /api/v1/sessionrequests/{actionId}/reopen` → `reopenSessionRequest`. The derived names are
 * pinned by a test (test/openapi.test.ts), so a change of name is a deliberate change of the contract.
 */

/** Words the paths run together, as a client library would spell them. */
const WORDS: Record<string, string> = {
  sessionrequests: 'SessionRequests',
  sessionrequest: 'SessionRequest',
  questionlists: 'QuestionLists',
  questionlist: 'QuestionList',
  apikeys: 'ApiKeys',
  apikey: 'ApiKey',
  oauth: 'OAuth',
  sso: 'Sso',
  openapi: 'OpenApi',
  'openapi.json': 'OpenApiDocument',
  'oauth-authorization-server': 'OAuthAuthorizationServerMetadata',
  'well-known': '',
  // The administration routes are named for what they manage: listUsers, createOAuthClient.
  admin: '',
};

/** Names that read better than the derived ones; one place, so they are found and kept. */
const NAMED: Record<string, string> = {
  'GET /.well-known/oauth-authorization-server': 'getOAuthServerMetadata',
  'GET /action/{code}/documents/{index}/pages/{page}': 'getActionDocumentPageImage',
  'GET /action/{code}/signed': 'getSignedDocument',
  'GET /api/v1/admin/rate-limits': 'getRateLimits',
  'PATCH /api/v1/admin/rate-limits': 'updateRateLimits',
  'PUT /api/v1/admin/organisation/brand/logo': 'setOrganisationLogo',
  'DELETE /api/v1/admin/organisation/brand/logo': 'deleteOrganisationLogo',
  'GET /logos/{organisationId}/{logoId}': 'getOrganisationLogo',
  'GET /api/v1/admin/sso/settings': 'getSsoSettings',
  'PATCH /api/v1/admin/sso/settings': 'updateSsoSettings',
  'GET /api/v1/bc/actionsetup/{actionSetupId}': 'getActionSetup',
  'POST /api/v1/bc/actionsetup': 'createActionSetup',
  'GET /api/v1/quicksigningsetup/{setupId}': 'getQuickSigningSetup',
  'POST /api/v1/quicksigningsetup': 'createQuickSigningSetup',
  'POST /api/v1/admin/users/{userId}/apikeys': 'createUserApiKey',
  'PUT /api/v1/admin/users/{userId}/password': 'setUserPassword',
  'POST /api/v1/admin/users/{userId}/password-link': 'sendUserPasswordLink',
  'POST /api/v1/admin/oauth/clients/{clientId}/revoke-tokens': 'revokeOAuthClientTokens',
  'POST /api/v1/admin/oauth/clients/{clientId}/rotate-secret': 'rotateOAuthClientSecret',
  'POST /api/v1/auth/oauth/token': 'oauthToken',
  'POST /api/v1/auth/oauth/revoke': 'oauthRevoke',
  'POST /api/v1/auth/oauth/introspect': 'oauthIntrospect',
  'GET /api/v1/auth/oauth/authorize': 'oauthAuthorizePage',
  'POST /api/v1/auth/oauth/authorize': 'oauthAuthorizeDecisionPage',
  'GET /api/v1/auth/oauth/callback': 'ssoCallbackPage',
  'POST /api/v1/files': 'uploadFile',
  'POST /api/v1/files/verify': 'verifyUploadedFile',
  'GET /files/downloads/{fileId}/{fileName}': 'downloadFile',
  'GET /metrics': 'getMetrics',
  'POST /api/v1/webhooks/{webhookId}/rotate-secret': 'rotateWebhookSecret',
  'GET /staff/files/{fileId}/pages/{page}': 'getStaffFilePageImage',
  'POST /action/{code}': 'saveActionStepPage',
  'POST /action/{code}/sign/code': 'sendSigningCodePage',
  'POST /action/{code}/sign/verify': 'verifySigningCodePage',
  'GET /staff/settings/organisation': 'getStaffOrganisationPage',
  'POST /staff/settings/organisation': 'updateStaffOrganisationPage',
  'POST /staff/settings/organisation/logo': 'setStaffOrganisationLogoPage',
  'POST /staff/settings/organisation/logo/delete': 'deleteStaffOrganisationLogoPage',
  'GET /staff/settings/seal': 'getStaffSealPage',
  'POST /staff/settings/seal': 'uploadStaffSealPage',
  'POST /staff/settings/seal/delete': 'deleteStaffSealPage',
  'POST /staff/users/{userId}/apikeys': 'createStaffUserApiKeyPage',
  'POST /staff/users/{userId}/groups': 'updateStaffUserGroupsPage',
  'POST /staff/users/{userId}/status': 'updateStaffUserStatusPage',
  'POST /staff/users/{userId}/password-link': 'sendStaffUserPasswordLinkPage',
  'POST /staff/integrations/providers/password-sign-in': 'updatePasswordSignInPage',
  'POST /staff/integrations/providers/{providerId}': 'updateStaffIntegrationProviderPage',
  'GET /sessionrequests/{actionSetupId}': 'getActionSetupWizardPage',
  'POST /sessionrequests/{actionSetupId}': 'postActionSetupWizardPage',
  'GET /sessionrequests/quicksigningrequest/{setupId}': 'getQuickSigningWizardPage',
  'POST /sessionrequests/quicksigningrequest/{setupId}': 'postQuickSigningWizardPage',
  'GET /sessionrequests/new': 'getNewActionWizardPage',
  'POST /sessionrequests/new': 'postNewActionWizardPage',
  'POST /sessionrequests/new/upload': 'postDeskDocumentUploadPage',
  'POST /sessionrequests/new/document': 'postDeskDocumentWizardPage',
  'GET /sessionrequests/sent': 'getActionSentPage',
  'GET /signin/sso/start': 'startSsoSignInPage',
  'POST /signin/sso': 'postSsoSignInPage',
  'GET /signin/org/{organisationId}': 'getOrganisationSignInPage',
};

const pascal = (segment: string): string => {
  if (Object.hasOwn(WORDS, segment)) return WORDS[segment] as string;
  return segment
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
};

const singular = (word: string): string => {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us|Status)$/.test(word)) return word;
  if (/s$/.test(word)) return word.slice(0, -1);
  return word;
};

const isParam = (segment: string) => /^\{.+\}$/.test(segment);

/** The derived operationId of `method path` (see above). */
function deriveOperationId(method: string, path: string): string {
  const segments = path
    .replace(/^\/api\/v1(?=\/|$)/, '')
    .split('/')
    .filter(Boolean);
  const last = segments.at(-1) ?? '';
  const endsWithParam = isParam(last);
  const nouns = segments.filter((s) => !isParam(s)).map(pascal);
  // The resource a trailing verb-like segment acts on (…/{actionId}/reopen): a POST to it.
  const beforeLast = segments.at(-2);
  if (method === 'post' && !endsWithParam && beforeLast && isParam(beforeLast) && segments.length >= 3) {
    const owner = nouns.slice(0, -1).map(singular).join('');
    const verb = last.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    return `${verb}${owner}`;
  }
  // A path's resources, each named in the singular: `getCustomer`, `createSessionRequest`, `updateUser`.
  const one = nouns.map(singular).join('') || 'Root';
  // A collection (its last noun is plural) is listed, and a POST to it creates.
  const collection = /s$/.test(nouns.at(-1) ?? '');
  switch (method) {
    case 'get':
      return endsWithParam || !collection
        ? `get${one}`
        : `list${[...nouns.slice(0, -1).map(singular), nouns.at(-1)].join('')}`;
    case 'post':
      return `${!endsWithParam && collection ? 'create' : 'post'}${one}`;
    case 'patch':
      return `update${one}`;
    case 'put':
      return `replace${one}`;
    case 'delete':
      return `delete${one}`;
    default:
      return `${method}${nouns.join('')}`;
  }
}

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/** A server-rendered page (it answers HTML): its name ends in `Page`, apart from the API's names. */
const isPage = (operation: Operation) =>
  Object.values(operation.responses ?? {}).some((r) => r.content && 'text/html' in r.content);

/**
 * Fills in the operationId of every operation of `paths` that has none; throws when two operations end
 * up with the same one (a route must then name its own).
 */
export function assignOperationIds(paths: Record<string, Record<string, Operation>>): void {
  const seen = new Map<string, string>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!operation || typeof operation !== 'object') continue;
      const where = `${method.toUpperCase()} ${path}`;
      operation.operationId ??=
        NAMED[where] ?? `${deriveOperationId(method, path)}${isPage(operation) ? 'Page' : ''}`;
      const taken = seen.get(operation.operationId);
      if (taken) throw new Error(`operationId ${operation.operationId} of ${where} is also that of ${taken}`);
      seen.set(operation.operationId, where);
    }
  }
}

type Schema = Record<string, unknown>;
interface Media {
  schema?: Schema;
}
interface FullOperation {
  operationId?: string;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}

const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/**
 * Gives every request body and answer that is an object or a list a named component schema (what
 * generated clients name their types after): one described inline by its route is moved under
 * `components.schemas` as `<OperationId>Request` (or `Form` for a page's form) and
 * `<OperationId>Response` (`…Response<status>` beside the success one), and referred to from there.
 * Run after assignOperationIds.
 */
export function nameInlineSchemas(document: {
  paths?: Record<string, Record<string, FullOperation>>;
  components?: { schemas?: Record<string, Schema> };
}): void {
  document.components ??= {};
  document.components.schemas ??= {};
  const schemas = document.components.schemas;
  const hoist = (media: Media | undefined, name: string) => {
    const schema = media?.schema;
    if (!media || !schema || '$ref' in schema) return;
    if (schema.type !== 'object' && schema.type !== 'array') return;
    let unique = name;
    for (let n = 2; Object.hasOwn(schemas, unique); n++) unique = `${name}${n}`;
    schemas[unique] = schema;
    media.schema = { $ref: `#/components/schemas/${unique}` };
  };
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      if (!operation?.operationId) continue;
      const base = capital(operation.operationId);
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
        hoist(media, `${base}${type === 'application/x-www-form-urlencoded' ? 'Form' : 'Request'}`);
      const statuses = Object.keys(operation.responses ?? {});
      const success = statuses.filter((s) => s.startsWith('2'));
      for (const status of statuses) {
        const suffix = success.length === 1 && success[0] === status ? '' : status;
        for (const media of Object.values(operation.responses?.[status]?.content ?? {}))
          hoist(media, `${base}Response${suffix}`);
      }
    }
  }
}
