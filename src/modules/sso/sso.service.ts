import { auditRepository } from '../../platform/audit/audit.repository';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, Conflict, NotFound } from '../../platform/kernel/errors';
import { newId } from '../../platform/kernel/ids';
import { iso, isoOrNull } from '../../platform/kernel/schemas';
import { type WalkQuery, walking } from '../../platform/lists/cursor';
import { destinationProblem, type SafeHttpPolicy } from '../../platform/outbound/safe-http';
import { organisationOf, setPasswordSignIn } from '../organisations';
import { directorySyncJob, syncJobNow } from './directory-sync.job';
import { type SsoProviderRow, ssoIdentityRepository, ssoProviderRepository } from './sso.repository';
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

/** What registering a provider needs beyond SsoDeps. */
export interface ProviderDeps extends SsoDeps {
  /** Where providers and directories may be (SSO_PRIVATE_NETWORKS): checked here and at every connection. */
  destinations: SafeHttpPolicy;
}

/**
 * Refuses an issuer or directory address that may not be reached (docs/security.md#the-address-filter):
 * an inner, link-local or metadata address, written as one or resolving to one. A name that does not
 * resolve from here yet is let through: every connection checks it again.
 */
async function checkDestinations(
  deps: ProviderDeps,
  urls: { issuer?: string; directoryUrl?: string | null },
) {
  for (const field of ['issuer', 'directoryUrl'] as const) {
    const url = urls[field];
    if (!url) continue;
    const problem = await destinationProblem(url, deps.destinations, 'accept');
    if (problem) throw BadRequest.field(field, problem);
  }
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
    directorySync: row.directorySync,
    directoryUrl: row.directoryUrl,
    groupMapping: row.groupMapping as SsoProvider['groupMapping'],
    syncNames: row.syncNames,
    lastSyncAt: isoOrNull(row.lastSyncAt),
    lastSync: row.lastSyncOutcome ?? null,
    redirectUri: callbackUrl(baseUrl),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

const notFound = () => new NotFound('Sign-in provider not found');

/** The settings an audit summary names (the secret only as set or replaced). */
const audited = [
  'name',
  'issuer',
  'tenantId',
  'clientId',
  'enabled',
  'allowedDomains',
  'jitGroup',
  'directorySync',
  'directoryUrl',
  'groupMapping',
  'syncNames',
] as const;

function changes(before: SsoProviderRow | null, after: SsoProviderRow): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of audited) {
    const from = before ? before[key] : null;
    if (JSON.stringify(from) !== JSON.stringify(after[key])) changed[key] = { from, to: after[key] };
  }
  if (!before) changed.clientSecret = 'set';
  else if (before.clientSecretSealed !== after.clientSecretSealed) changed.clientSecret = 'replaced';
  return changed;
}

/** Queues a synchronisation run now, in place of any queued one (one chain of runs per provider). */
async function queueSync(tx: Tx, ctx: RequestContext, providerId: string, now: Date) {
  const jobs = jobRepository(tx, ctx);
  await jobs.cancelPending(providerId, [directorySyncJob.kind], 'replaced by a new run', now);
  await jobs.enqueue([syncJobNow(providerId, now)], now);
}

export async function listProviders(deps: SsoDeps, ctx: RequestContext, query: WalkQuery = {}) {
  const { walk, answer } = walking('ssoproviders', query);
  const { rows, total } = await inTenant(deps.database, ctx, (tx) =>
    ssoProviderRepository(tx, ctx).walk(walk),
  );
  const { items, ...page } = answer(rows, total);
  return { providers: items.map((r) => toProvider(r, deps.baseUrl)), ...page };
}

export async function getProvider(deps: SsoDeps, ctx: RequestContext, id: string) {
  const row = await inTenant(deps.database, ctx, (tx) => ssoProviderRepository(tx, ctx).find(id));
  if (!row) throw notFound();
  return toProvider(row, deps.baseUrl);
}

export async function createProvider(deps: ProviderDeps, ctx: RequestContext, input: CreateSsoProvider) {
  await checkDestinations(deps, input);
  const now = deps.clock.now();
  const id = newId(now.getTime());
  const tenantId = input.tenantId ?? null;
  const issuer = input.issuer ?? (defaultIssuer(input.type, tenantId) as string);
  return inTenant(deps.database, ctx, async (tx) => {
    await auditRepository(tx, ctx).replaceRowRecords();
    const row = await ssoProviderRepository(tx, ctx).insert({
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
      directorySync: input.directorySync,
      directoryUrl: input.directoryUrl ?? null,
      groupMapping: input.groupMapping,
      syncNames: input.syncNames,
      lastSyncAt: null,
      lastSyncOutcome: null,
      createdBy: ctx.userId,
      createdAt: now,
      updatedAt: now,
    });
    await auditRepository(tx, ctx).record(
      {
        action: 'sso_provider.created',
        targetType: 'sso_provider',
        targetId: id,
        summary: { changed: changes(null, row) },
      },
      now,
    );
    if (row.directorySync) await queueSync(tx, ctx, id, now);
    return toProvider(row, deps.baseUrl);
  });
}

export async function updateProvider(
  deps: ProviderDeps,
  ctx: RequestContext,
  id: string,
  input: UpdateSsoProvider,
) {
  await checkDestinations(deps, input);
  return inTenant(deps.database, ctx, async (tx) => {
    await auditRepository(tx, ctx).replaceRowRecords();
    const providers = ssoProviderRepository(tx, ctx);
    const row = await providers.find(id, { forUpdate: true });
    if (!row) throw notFound();
    if (input.tenantId !== undefined && row.type !== 'microsoft') {
      throw BadRequest.field('tenantId', 'only for a microsoft provider');
    }
    if (row.type !== 'microsoft') {
      for (const field of ['directorySync', 'directoryUrl', 'groupMapping', 'syncNames'] as const) {
        if (
          input[field] !== undefined &&
          input[field] !== false &&
          input[field] !== null &&
          !(field === 'groupMapping' && Object.keys(input.groupMapping ?? {}).length === 0)
        ) {
          throw BadRequest.field(field, 'only for a microsoft provider');
        }
      }
    }
    if (input.enabled === false && row.enabled) await keepsAWayIn(tx, ctx, id);
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
    const updated = (await providers.update(id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.clientId !== undefined ? { clientId: input.clientId } : {}),
      ...(input.clientSecret !== undefined
        ? { clientSecretSealed: deps.box.seal(input.clientSecret, secretContext(id)), secretUpdatedAt: now }
        : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.allowedDomains !== undefined ? { allowedDomains: input.allowedDomains } : {}),
      ...(input.jitGroup !== undefined ? { jitGroup: input.jitGroup } : {}),
      ...(input.directorySync !== undefined ? { directorySync: input.directorySync } : {}),
      ...(input.directoryUrl !== undefined ? { directoryUrl: input.directoryUrl } : {}),
      ...(input.groupMapping !== undefined ? { groupMapping: input.groupMapping } : {}),
      ...(input.syncNames !== undefined ? { syncNames: input.syncNames } : {}),
      tenantId,
      issuer,
      updatedAt: now,
    })) as SsoProviderRow;
    const changed = changes(row, updated);
    if (Object.keys(changed).length > 0) {
      await auditRepository(tx, ctx).record(
        { action: 'sso_provider.updated', targetType: 'sso_provider', targetId: id, summary: { changed } },
        now,
      );
    }
    // Switched on, or anything the run reads changed: a run now (one under way stops). Off: no more runs.
    const syncSettings = [
      'directorySync',
      'directoryUrl',
      'groupMapping',
      'syncNames',
      'issuer',
      'tenantId',
      'clientId',
      'clientSecret',
      'allowedDomains',
    ].some((k) => k in changed);
    if (updated.directorySync && syncSettings) await queueSync(tx, ctx, id, now);
    if (!updated.directorySync && 'directorySync' in changed) {
      await jobRepository(tx, ctx).cancelPending(
        id,
        [directorySyncJob.kind],
        'directory synchronisation switched off',
        now,
      );
    }
    return toProvider(updated, deps.baseUrl);
  });
}

export async function deleteProvider(deps: SsoDeps, ctx: RequestContext, id: string): Promise<void> {
  const now = deps.clock.now();
  await inTenant(deps.database, ctx, async (tx) => {
    await auditRepository(tx, ctx).replaceRowRecords();
    const providers = ssoProviderRepository(tx, ctx);
    const row = await providers.find(id, { forUpdate: true });
    if (!row) throw notFound();
    if (row.enabled) await keepsAWayIn(tx, ctx, id);
    // The staff accounts linked at the provider go with it: the event says whose.
    const unlinked = await ssoIdentityRepository(tx, ctx).listOfProvider(id);
    if (!(await providers.remove(id))) throw notFound();
    await jobRepository(tx, ctx).cancelPending(id, [directorySyncJob.kind], 'the provider was removed', now);
    await auditRepository(tx, ctx).record(
      {
        action: 'sso_provider.deleted',
        targetType: 'sso_provider',
        targetId: id,
        summary: {
          name: row.name,
          type: row.type,
          issuer: row.issuer,
          unlinkedIdentities: unlinked.length,
          unlinkedUserIds: unlinked.slice(0, 100).map((i) => i.userId),
        },
      },
      now,
    );
  });
}

/** With password sign-in off, staff sign in only through an enabled provider: one must remain. */
async function keepsAWayIn(tx: Tx, ctx: RequestContext, without: string) {
  // The organisation's row is held: a switch-off or another provider's change waits for this one.
  const org = await organisationOf(tx, ctx, { forUpdate: true });
  if (org?.passwordSignIn !== false) return;
  const others = (await ssoProviderRepository(tx, ctx).list()).filter((p) => p.enabled && p.id !== without);
  if (others.length === 0) {
    throw new Conflict(
      'Password sign-in is off and this is the last enabled sign-in provider: switch password sign-in on first, or enable another provider',
    );
  }
}

/** Whether staff may sign in with a password (spec 5.3: off once single sign-on works). */
export async function getSignInSettings(deps: SsoDeps, ctx: RequestContext) {
  const org = await inTenant(deps.database, ctx, (tx) => organisationOf(tx, ctx));
  return { passwordSignIn: org?.passwordSignIn !== false };
}

/**
 * Switches password sign-in on or off for the organisation's staff. Off needs an enabled provider;
 * administrators keep their password either way (break-glass, recorded in the audit trail).
 */
export async function setSignInSettings(
  deps: SsoDeps,
  ctx: RequestContext,
  input: { passwordSignIn: boolean },
) {
  const now = deps.clock.now();
  return inTenant(deps.database, ctx, async (tx) => {
    await auditRepository(tx, ctx).replaceRowRecords();
    const org = await organisationOf(tx, ctx, { forUpdate: true });
    if (!org) throw new NotFound('Organisation not found');
    const before = org.passwordSignIn;
    if (before === input.passwordSignIn) return { passwordSignIn: before };
    if (!input.passwordSignIn) {
      const enabled = (await ssoProviderRepository(tx, ctx).list()).some((p) => p.enabled);
      if (!enabled) {
        throw new Conflict(
          'Enable a sign-in provider first: with password sign-in off, staff sign in only through one',
        );
      }
    }
    await setPasswordSignIn(tx, ctx, input.passwordSignIn);
    await auditRepository(tx, ctx).record(
      {
        action: 'organisation.updated',
        targetType: 'organisation',
        targetId: ctx.organisationId,
        summary: { changed: { passwordSignIn: { from: before, to: input.passwordSignIn } } },
      },
      now,
    );
    return { passwordSignIn: input.passwordSignIn };
  });
}

/** "Sync now": a run of the provider's directory synchronisation is queued at once. */
export async function requestSync(deps: SsoDeps, ctx: RequestContext, id: string) {
  const now = deps.clock.now();
  return inTenant(deps.database, ctx, async (tx) => {
    const row = await ssoProviderRepository(tx, ctx).find(id, { forUpdate: true });
    if (!row) throw notFound();
    if (!row.directorySync)
      throw new Conflict('Directory synchronisation is off for this provider: switch it on first');
    await queueSync(tx, ctx, id, now);
    await auditRepository(tx, ctx).record({
      action: 'sso_provider.sync_requested',
      targetType: 'sso_provider',
      targetId: id,
      summary: { runAt: iso(now) },
    });
    return { success: true as const, runAt: iso(now) };
  });
}
