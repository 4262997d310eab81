import { auditRepository } from '../../platform/audit/audit.repository';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { JobHandler } from '../../platform/jobs/job';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import type { Clock } from '../../platform/kernel/clock';
import { type RequestContext, systemContext } from '../../platform/kernel/context';
import type { Group } from '../../platform/kernel/permissions';
import type { z } from '../../platform/kernel/zod';
import type { SafeHttpClient } from '../../platform/outbound/safe-http';
import {
  allUsers,
  changeUser,
  holdAdministrators,
  otherActiveAdministrators,
  type UserRow,
} from '../organisations';
import { type DirectorySource, type DirectoryUser, GraphDirectory } from './directory';
import { directorySyncJob, syncJobNow } from './directory-sync.job';
import type { OidcClient } from './oidc';
import { type SsoProviderRow, ssoIdentityRepository, ssoProviderRepository } from './sso.repository';
import { secretContext } from './sso.service';

const DEFAULT_DIRECTORY_URL = 'https://graph.microsoft.com/v1.0';
const ACTOR = 'directory sync';
/** A run that would deactivate more than this share of the users it manages (and more than 5) stops. */
const MAX_DEACTIVATED_SHARE = 0.5;
const MAX_DEACTIVATED_ANYWAY = 5;

export interface DirectorySyncDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  oidc: OidcClient;
  http: SafeHttpClient;
  /** Time between two runs of a provider's synchronisation. */
  intervalMs: number;
  /** The directory of a provider (Microsoft Graph by default; tests and other directories give theirs). */
  sourceFor?: (provider: SsoProviderRow, signal?: AbortSignal) => DirectorySource;
}

export interface SyncOutcome {
  users: number;
  deactivated: number;
  updated: number;
  /** Changes not made, each with why (the last active administrator is never deactivated). */
  skipped: string[];
  error: string | null;
}

/** The run stopped before changing anything, for the reason given (shown to administrators). */
class SyncStopped extends Error {
  override name = 'SyncStopped';
}

function graphSource(
  deps: DirectorySyncDeps,
  provider: SsoProviderRow,
  signal?: AbortSignal,
): DirectorySource {
  return new GraphDirectory(
    deps.http,
    provider.directoryUrl ?? DEFAULT_DIRECTORY_URL,
    async (scope) => {
      const metadata = await deps.oidc.metadata(provider.issuer);
      return deps.oidc.clientCredentials(metadata.tokenEndpoint, {
        clientId: provider.clientId,
        clientSecret: deps.box.open(provider.clientSecretSealed, secretContext(provider.id)),
        scope,
      });
    },
    signal,
  );
}

const sameGroups = (a: readonly string[], b: readonly string[]) => {
  const x = [...a].sort();
  const y = [...b].sort();
  return x.length === y.length && x.every((g, i) => g === y[i]);
};

interface Fetched {
  directory: DirectoryUser[];
  /** Directory group id → the ids of its members. */
  members: Map<string, Set<string>>;
}

async function readDirectory(
  deps: DirectorySyncDeps,
  provider: SsoProviderRow,
  signal?: AbortSignal,
): Promise<Fetched> {
  const source = (deps.sourceFor ?? ((p, s) => graphSource(deps, p, s)))(provider, signal);
  const directory = await source.users();
  if (directory.length === 0) throw new SyncStopped('the directory listed no user: nothing was changed');
  const members = new Map<string, Set<string>>();
  for (const groupId of Object.keys(provider.groupMapping))
    members.set(groupId, await source.groupMembers(groupId));
  return { directory, members };
}

/**
 * One run for one provider: reads every user of the directory (and the members of the mapped groups),
 * then in one transaction — holding the provider's row, so runs apply one at a time and with the
 * settings of that moment — deactivates the local users it manages that are gone or disabled there,
 * then updates names and groups when asked, records every change in the audit trail, notes the outcome
 * on the provider and queues the next run.
 *
 * A user is managed when linked to the provider or of one of its allowed domains, and is found in the
 * directory by its `mail` or its `userPrincipalName`; others (an outside accountant, the break-glass
 * administrator of another domain) are never touched. A run changes nothing — and says why — when the
 * directory lists nobody, when none of the users it manages is in it (a wrong address or tenant), or
 * when it would deactivate more than half of them (and more than 5): a misconfiguration is not a mass
 * deactivation. Any failure is recorded, and the next run is queued at the usual time all the same.
 */
async function runDirectorySync(
  deps: DirectorySyncDeps,
  organisationId: string,
  providerId: string,
  signal?: AbortSignal,
): Promise<SyncOutcome | null> {
  const ctx = systemContext(organisationId, deps.clock.now(), 'directory sync');
  const provider = await inTenant(deps.database, ctx, (tx) =>
    ssoProviderRepository(tx, ctx).find(providerId),
  );
  if (!provider?.directorySync) return null;
  const failed = (err: unknown): SyncOutcome => ({
    users: 0,
    deactivated: 0,
    updated: 0,
    skipped: [],
    error: (err instanceof Error ? err.message : String(err)).slice(0, 500),
  });
  try {
    const fetched = await readDirectory(deps, provider, signal);
    return await inTenant(deps.database, ctx, async (tx) => {
      const current = await ssoProviderRepository(tx, ctx).find(providerId, { forUpdate: true });
      if (!current?.directorySync) return null;
      if (current.updatedAt.getTime() !== provider.updatedAt.getTime()) {
        throw new SyncStopped(
          'the settings changed while the directory was read: the run they queued follows',
        );
      }
      const outcome = await apply(tx, ctx, deps.clock.now(), current, fetched);
      await finishIn(tx, ctx, deps, providerId, outcome);
      return outcome;
    });
  } catch (err) {
    const outcome = failed(err);
    const still = await inTenant(deps.database, ctx, async (tx) => {
      const current = await ssoProviderRepository(tx, ctx).find(providerId, { forUpdate: true });
      if (!current?.directorySync) return false;
      await finishIn(tx, ctx, deps, providerId, outcome);
      return true;
    });
    return still ? outcome : null;
  }
}

async function apply(
  tx: Tx,
  ctx: RequestContext,
  now: Date,
  provider: SsoProviderRow,
  { directory, members }: Fetched,
): Promise<SyncOutcome> {
  const audit = auditRepository(tx, ctx);
  await audit.replaceRowRecords();
  // The run may deactivate or demote administrators: it waits for, and holds off, any other such change.
  await holdAdministrators(tx, ctx);
  // Matched by mail first: a user principal name that is someone else's mail does not take their place.
  const byAddress = new Map<string, DirectoryUser>();
  for (const u of directory) for (const address of u.addresses.slice(1)) byAddress.set(address, u);
  for (const u of directory) if (u.addresses[0]) byAddress.set(u.addresses[0], u);
  const linked = new Set(
    (await ssoIdentityRepository(tx, ctx).listOfProvider(provider.id)).map((i) => i.userId),
  );
  const managed: { user: UserRow; there: DirectoryUser | undefined }[] = [];
  for (const user of await allUsers(tx, ctx)) {
    if (user.kind !== 'staff' || user.status !== 'active') continue;
    const email = user.email.toLowerCase();
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (linked.has(user.id) || provider.allowedDomains.includes(domain)) {
      managed.push({ user, there: byAddress.get(email) });
    }
  }
  const leaving = managed.filter((m) => !m.there?.enabled);
  if (managed.length > 0 && managed.every((m) => !m.there)) {
    throw new SyncStopped(
      `none of the ${managed.length} users it manages is in this directory (check its address and tenant): nothing was changed`,
    );
  }
  if (leaving.length > MAX_DEACTIVATED_ANYWAY && leaving.length > managed.length * MAX_DEACTIVATED_SHARE) {
    throw new SyncStopped(
      `it would deactivate ${leaving.length} of the ${managed.length} users it manages: nothing was changed. If that is right, deactivate them under Users`,
    );
  }
  const outcome: SyncOutcome = {
    users: directory.length,
    deactivated: 0,
    updated: 0,
    skipped: [],
    error: null,
  };
  const record = (action: string, userId: string, summary: Record<string, unknown>) =>
    audit.record(
      {
        action,
        targetType: 'user',
        targetId: userId,
        actorLabel: ACTOR,
        summary: { providerId: provider.id, provider: provider.name, ...summary },
      },
      now,
    );
  // Deactivations first: an administrator who left does not count as the one who stays.
  const gone = new Set<string>();
  for (const { user, there } of leaving) {
    if (user.groups.includes('administrator') && (await otherActiveAdministrators(tx, ctx, user.id)) === 0) {
      outcome.skipped.push(`${user.email}: the last active administrator is not deactivated`);
      continue;
    }
    await changeUser(tx, ctx, user.id, { status: 'deactivated', updatedAt: now });
    await record('user.deactivated', user.id, {
      reason: there ? 'disabled in the directory' : 'not in the directory',
      changed: { status: { from: 'active', to: 'deactivated' } },
    });
    gone.add(user.id);
    outcome.deactivated++;
  }
  for (const { user, there } of managed) {
    if (!there?.enabled || gone.has(user.id)) continue;
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    const change: { name?: string; groups?: Group[] } = {};
    const name = there.displayName?.trim().slice(0, 200);
    if (provider.syncNames && name && name !== user.name) {
      change.name = name;
      changed.name = { from: user.name, to: name };
    }
    const desired = [
      ...new Set(
        Object.entries(provider.groupMapping)
          .filter(([groupId]) => members.get(groupId)?.has(there.id))
          .map(([, group]) => group as Group),
      ),
    ];
    if (desired.length > 0 && !sameGroups(desired, user.groups)) {
      const demoted = user.groups.includes('administrator') && !desired.includes('administrator');
      if (demoted && (await otherActiveAdministrators(tx, ctx, user.id)) === 0) {
        outcome.skipped.push(`${user.email}: the last active administrator keeps the group administrator`);
      } else {
        change.groups = desired;
        changed.groups = { from: user.groups, to: desired };
      }
    }
    if (Object.keys(changed).length === 0) continue;
    await changeUser(tx, ctx, user.id, { ...change, updatedAt: now });
    await record('user.updated', user.id, { changed });
    outcome.updated++;
  }
  return outcome;
}

/**
 * Notes the run on the provider and queues the next one. A run someone asked for meanwhile (a "sync
 * now", new settings) is kept and schedules the next itself; later duplicates are replaced.
 */
async function finishIn(
  tx: Tx,
  ctx: RequestContext,
  deps: DirectorySyncDeps,
  providerId: string,
  outcome: SyncOutcome,
) {
  const now = deps.clock.now();
  await ssoProviderRepository(tx, ctx).update(providerId, { lastSyncAt: now, lastSyncOutcome: outcome });
  const jobs = jobRepository(tx, ctx);
  const next = new Date(now.getTime() + deps.intervalMs);
  const pending = await jobs.pendingOf(providerId, directorySyncJob.kind);
  if (pending.some((j) => j.runAt < next)) return;
  await jobs.cancelPending(providerId, [directorySyncJob.kind], 'replaced by the next scheduled run', now);
  await jobs.enqueue([syncJobNow(providerId, next)], now);
}

export function directorySyncHandler(
  deps: DirectorySyncDeps,
): JobHandler<z.output<typeof directorySyncJob.payload>> {
  return async (job, signal) => {
    const outcome = await runDirectorySync(deps, job.organisationId, job.payload.providerId, signal);
    if (!outcome) return { cancelled: 'the provider is gone or no longer synchronises its directory' };
    return undefined;
  };
}
