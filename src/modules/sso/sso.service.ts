import type { Clock } from '../../platform/clock';
import type { RequestContext } from '../../platform/context';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { BadRequest, NotFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { iso } from '../../platform/schemas';
import { type SsoProviderRow, ssoProviderRepository } from './sso.repository';
import {
  type CreateSsoProvider,
  JIT_NEEDS_DOMAINS,
  type SsoProvider,
  type UpdateSsoProvider,
} from './sso.schemas';

export interface SsoDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  /** BASE_URL: the redirect address to register at the provider is derived from it. */
  baseUrl: string;
}

const defaultNames = { google: 'Google', microsoft: 'Microsoft', oidc: 'Single sign-on' } as const;

/** The issuer a provider of this type has unless the administrator names another. */
export function defaultIssuer(type: SsoProviderRow['type'], tenantId: string | null): string | undefined {
  if (type === 'google') return 'https://accounts.google.com';
  if (type === 'microsoft' && tenantId) return `https://login.microsoftonline.com/${tenantId}/v2.0`;
  return undefined;
}

/** What the client secret is sealed to: this provider's row (a sealed value moved to another row fails). */
export const secretContext = (id: string) => `sso-provider:${id}`;

export const callbackUrl = (baseUrl: string) => `${baseUrl}/api/v1/auth/oauth/callback`;

function toProvider(row: SsoProviderRow, baseUrl: string): SsoProvider {
  return {
    _id: row.id,
    type: row.type,
    name: row.name,
    issuer: row.issuer,
    tenantId: row.tenantId,
    clientId: row.clientId,
    hasClientSecret: true,
    secretUpdatedAt: iso(row.secretUpdatedAt),
    enabled: row.enabled,
    allowedDomains: row.allowedDomains,
    jitGroup: row.jitGroup as SsoProvider['jitGroup'],
    redirectUri: callbackUrl(baseUrl),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

const notFound = () => new NotFound('Sign-in provider not found');

export async function listProviders(deps: SsoDeps, ctx: RequestContext) {
  const rows = await inTenant(deps.database, ctx, (tx) => ssoProviderRepository(tx, ctx).list());
  return { providers: rows.map((r) => toProvider(r, deps.baseUrl)), total: rows.length };
}

export async function getProvider(deps: SsoDeps, ctx: RequestContext, id: string) {
  const row = await inTenant(deps.database, ctx, (tx) => ssoProviderRepository(tx, ctx).find(id));
  if (!row) throw notFound();
  return toProvider(row, deps.baseUrl);
}

export async function createProvider(deps: SsoDeps, ctx: RequestContext, input: CreateSsoProvider) {
  const now = deps.clock.now();
  const id = newId(now.getTime());
  const tenantId = input.tenantId ?? null;
  const issuer = input.issuer ?? (defaultIssuer(input.type, tenantId) as string);
  const row = await inTenant(deps.database, ctx, (tx) =>
    ssoProviderRepository(tx, ctx).insert({
      id,
      type: input.type,
      name: input.name ?? defaultNames[input.type],
      issuer,
      tenantId,
      clientId: input.clientId,
      clientSecretSealed: deps.box.seal(input.clientSecret, secretContext(id)),
      secretUpdatedAt: now,
      enabled: input.enabled,
      allowedDomains: input.allowedDomains,
      jitGroup: input.jitGroup,
      createdBy: ctx.userId,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return toProvider(row, deps.baseUrl);
}

export async function updateProvider(
  deps: SsoDeps,
  ctx: RequestContext,
  id: string,
  input: UpdateSsoProvider,
) {
  return inTenant(deps.database, ctx, async (tx) => {
    const providers = ssoProviderRepository(tx, ctx);
    const row = await providers.find(id, { forUpdate: true });
    if (!row) throw notFound();
    if (input.tenantId !== undefined && row.type !== 'microsoft') {
      throw BadRequest.field('tenantId', 'only for a microsoft provider');
    }
    const jitGroup = input.jitGroup !== undefined ? input.jitGroup : row.jitGroup;
    const domains = input.allowedDomains ?? row.allowedDomains;
    if (jitGroup && domains.length === 0) {
      throw BadRequest.field(input.jitGroup !== undefined ? 'jitGroup' : 'allowedDomains', JIT_NEEDS_DOMAINS);
    }
    const now = deps.clock.now();
    const tenantId = input.tenantId ?? row.tenantId;
    // A new tenant moves a derived issuer along with it; a named issuer stays as named.
    const derived = row.issuer === defaultIssuer(row.type, row.tenantId);
    const issuer = input.issuer ?? (derived ? (defaultIssuer(row.type, tenantId) ?? row.issuer) : row.issuer);
    const updated = await providers.update(id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.clientId !== undefined ? { clientId: input.clientId } : {}),
      ...(input.clientSecret !== undefined
        ? { clientSecretSealed: deps.box.seal(input.clientSecret, secretContext(id)), secretUpdatedAt: now }
        : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.allowedDomains !== undefined ? { allowedDomains: input.allowedDomains } : {}),
      ...(input.jitGroup !== undefined ? { jitGroup: input.jitGroup } : {}),
      tenantId,
      issuer,
      updatedAt: now,
    });
    return toProvider(updated as SsoProviderRow, deps.baseUrl);
  });
}

export async function deleteProvider(deps: SsoDeps, ctx: RequestContext, id: string): Promise<void> {
  const removed = await inTenant(deps.database, ctx, (tx) => ssoProviderRepository(tx, ctx).remove(id));
  if (!removed) throw notFound();
}
