import { auditRepository } from '../../platform/audit.repository';
import type { Clock } from '../../platform/clock';
import { systemContext } from '../../platform/context';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import type { JobHandler } from '../../platform/jobs/worker';
import type { Group } from '../../platform/permissions';
import type { SafeHttpClient } from '../../platform/safe-http';
import type { z } from '../../platform/zod';
import { userRepository } from '../admin';
import { type DirectorySource, type DirectoryUser, GraphDirectory } from './directory';
import { directorySyncJob, syncJobNow } from './directory-sync.job';
import type { OidcClient } from './oidc';
import { type SsoProviderRow, ssoIdentityRepository, ssoProviderRepository } from './sso.repository';
import { secretContext } from './sso.service';

export const DEFAULT_DIRECTORY_URL = 'https://graph.microsoft.com/v1.0';
const ACTOR = 'directory sync';

export interface DirectorySyncDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  oidc: OidcClient;
  http: SafeHttpClient;
  /** Time between two runs of a provider's synchronisation. */
  intervalMs: number;
  /** The directory of a provider (Microsoft Graph by default; tests and other directories give theirs). */
  sourceFor?: (provider: SsoProviderRow) => DirectorySource;
}

export interface SyncOutcome {
  users: number;
  deactivated: number;
  updated: number;
  /** Changes not made, each with why (the last active administrator is never deactivated). */
  skipped: string[];
  error: string | null;
}

function graphSource(deps: DirectorySyncDeps, provider: SsoProviderRow): DirectorySource {
  return new GraphDirectory(deps.http, provider.directoryUrl ?? DEFAULT_DIRECTORY_URL, async (scope) => {
    const metadata = await deps.oidc.metadata(provider.issuer);
    return deps.oidc.clientCredentials(metadata.tokenEndpoint, {
      clientId: provider.clientId,
      clientSecret: deps.box.open(provider.clientSecretSealed, secretContext(provider.id)),
      scope,
    });
  });
}

const sameGroups = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((g, i) => g === [...b].sort()[i]);

/**
 * One run for one provider: reads every user of the directory (and the members of the mapped groups),
 * then in one transaction deactivates the local users it manages that are gone or disabled there,
 * updates names and groups when asked, records every change in the audit trail, notes the outcome on the
 * provider and queues the next run. A user is managed by the directory when linked to the provider or
 * of one of its allowed domains; others (an outside accountant, the break-glass administrator of
 * another domain) are never touched. A directory that lists nobody changes nothing (a misconfiguration
 * is not a mass deactivation).
 */
export async function runDirectorySync(
  deps: DirectorySyncDeps,
  organisationId: string,
  providerId: string,
): Promise<SyncOutcome | null> {
  const now = deps.clock.now();
  const ctx = systemContext(organisationId, now);
  const provider = await inTenant(deps.database, ctx, (tx) =>
    ssoProviderRepository(tx, ctx).find(providerId),
  );
  if (!provider?.directorySync) return null;

  let directory: DirectoryUser[];
  const members = new Map<string, Set<string>>();
  try {
    const source = (deps.sourceFor ?? ((p) => graphSource(deps, p)))(provider);
    directory = await source.users();
    if (directory.length === 0) throw new Error('the directory listed no user: nothing was changed');
    for (const groupId of Object.keys(provider.groupMapping))
      members.set(groupId, await source.groupMembers(groupId));
  } catch (err) {
    const outcome = {
      users: 0,
      deactivated: 0,
      updated: 0,
      skipped: [],
      error: (err as Error).message.slice(0, 500),
    };
    await finish(deps, organisationId, provider.id, outcome);
    return outcome;
  }

  const byEmail = new Map(directory.filter((u) => u.email).map((u) => [u.email as string, u]));
  return inTenant(deps.database, ctx, async (tx) => {
    const users = userRepository(tx, ctx);
    const audit = auditRepository(tx, ctx);
    const linked = new Set(
      (await ssoIdentityRepository(tx, ctx).listOfProvider(provider.id)).map((i) => i.userId),
    );
    const outcome: SyncOutcome = {
      users: directory.length,
      deactivated: 0,
      updated: 0,
      skipped: [],
      error: null,
    };
    const target = (id: string) => ({ targetType: 'user', targetId: id, actorLabel: ACTOR });
    for (const user of await users.list()) {
      if (user.kind !== 'staff' || user.status !== 'active') continue;
      const email = user.email.toLowerCase();
      const domain = email.slice(email.lastIndexOf('@') + 1);
      const managed = linked.has(user.id) || provider.allowedDomains.includes(domain);
      if (!managed) continue;
      const there = byEmail.get(email);
      const admin = user.groups.includes('administrator');
      if (!there?.enabled) {
        if (admin && (await users.otherActiveAdministrators(user.id)) === 0) {
          outcome.skipped.push(`${user.email}: the last active administrator is not deactivated`);
          continue;
        }
        await users.update(user.id, { status: 'deactivated', updatedAt: now });
        await audit.record({
          action: 'user.deactivated',
          ...target(user.id),
          summary: {
            reason: there ? 'disabled in the directory' : 'not in the directory',
            provider: provider.name,
            changed: { status: { from: 'active', to: 'deactivated' } },
          },
        });
        outcome.deactivated++;
        continue;
      }
      const changed: Record<string, { from: unknown; to: unknown }> = {};
      const change: { name?: string; groups?: Group[] } = {};
      if (provider.syncNames && there.displayName && there.displayName !== user.name) {
        change.name = there.displayName.slice(0, 200);
        changed.name = { from: user.name, to: change.name };
      }
      const mapped = Object.entries(provider.groupMapping)
        .filter(([groupId]) => members.get(groupId)?.has(there.id))
        .map(([, group]) => group as Group);
      const desired = [...new Set(mapped)];
      if (desired.length > 0 && !sameGroups(desired, user.groups)) {
        if (
          admin &&
          !desired.includes('administrator') &&
          (await users.otherActiveAdministrators(user.id)) === 0
        ) {
          outcome.skipped.push(`${user.email}: the last active administrator keeps the group administrator`);
        } else {
          change.groups = desired;
          changed.groups = { from: user.groups, to: desired };
        }
      }
      if (Object.keys(changed).length === 0) continue;
      await users.update(user.id, { ...change, updatedAt: now });
      await audit.record({
        action: 'user.updated',
        ...target(user.id),
        summary: { provider: provider.name, changed },
      });
      outcome.updated++;
    }
    await finishIn(tx, ctx, deps, provider.id, outcome);
    return outcome;
  });
}

/** Notes the run on the provider and queues the next one (after a failure too: a later run may work). */
function finish(deps: DirectorySyncDeps, organisationId: string, providerId: string, outcome: SyncOutcome) {
  const ctx = systemContext(organisationId, deps.clock.now());
  return inTenant(deps.database, ctx, (tx) => finishIn(tx, ctx, deps, providerId, outcome));
}

async function finishIn(
  tx: Parameters<typeof ssoProviderRepository>[0],
  ctx: ReturnType<typeof systemContext>,
  deps: DirectorySyncDeps,
  providerId: string,
  outcome: SyncOutcome,
) {
  const now = deps.clock.now();
  await ssoProviderRepository(tx, ctx).update(providerId, { lastSyncAt: now, lastSyncOutcome: outcome });
  const jobs = jobRepository(tx, ctx);
  // One chain of runs per provider: a run queued meanwhile (a "sync now") is replaced by this one's next.
  await jobs.cancelPending(providerId, [directorySyncJob.kind], 'replaced by the next scheduled run', now);
  await jobs.enqueue([syncJobNow(providerId, new Date(now.getTime() + deps.intervalMs))], now);
}

export function directorySyncHandler(
  deps: DirectorySyncDeps,
): JobHandler<z.output<typeof directorySyncJob.payload>> {
  return async (job) => {
    const outcome = await runDirectorySync(deps, job.organisationId, job.payload.providerId);
    if (!outcome) return { cancelled: 'the provider is gone or no longer synchronises its directory' };
    return undefined;
  };
}
