// The oauth module's public entry: OAuth 2.0 clients (partner applications).

export { authorizeRoutes } from './authorize.router';
export { listClientTokens, revokeClientTokens } from './client-tokens.service';
export { oauthEndpointRoutes, oauthMetadataRoutes } from './endpoints.router';
export { oauthClientRoutes } from './oauth.router';
export {
  type ClientToken,
  CreateOAuthClient as CreateOAuthClientInput,
  type OAuthClient,
} from './oauth.schemas';
export { createClient, getClient, listClients, rotateSecret, setClientDisabled } from './oauth.service';
export { tokenRoutes } from './token.router';
