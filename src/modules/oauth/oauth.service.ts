import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, Conflict, NotFound } from '../../platform/kernel/errors';
import { newId } from '../../platform/kernel/ids';
import { iso, isoOrNull } from '../../platform/kernel/schemas';
import { type WalkQuery, walking } from '../../platform/lists/cursor';
import { createUser, type Mode, modeOf, modeOfCurrent, userById } from '../organisations';
import { type OAuthClientRow, oauthClientRepository } from './oauth.repository';
import type { CreateOAuthClient, OAuthClient } from './oauth.schemas';

export interface OAuthDeps {
  database: Database;
  clock: Clock;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export function random62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out.length === length ? out : random62(length);
}

/** A client's public identifier: `adc_` + 24 base62 characters. */
const newClientId = () => `adc_${random62(24)}`;
/** A client secret: `adcs_` + 40 base62 characters (~238 bits); stored as SHA-256 only. */
const newClientSecret = () => `adcs_${random62(40)}`;
export const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

function toClient(row: OAuthClientRow, mode: Mode): OAuthClient {
  return {
    _id: row.id,
    livemode: mode === 'live',
    clientId: row.clientId,
    name: row.name,
    type: row.type,
    grants: row.grants as OAuthClient['grants'],
    scopes: row.scopes as OAuthClient['scopes'],
    redirectUris: row.redirectUris,
    serviceUserId: row.serviceUserId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    secretRotatedAt: isoOrNull(row.secretRotatedAt),
    disabledAt: isoOrNull(row.disabledAt),
  };
}

const notFound = () => new NotFound('OAuth client not found');

export async function listClients(deps: OAuthDeps, ctx: RequestContext, query: WalkQuery = {}) {
  const { walk, answer } = walking('oauthclients', query);
  const { rows, total } = await inTenant(deps.database, ctx, (tx) =>
    oauthClientRepository(tx, ctx).walk(walk),
  );
  const { items, ...page } = answer(rows, total);
  const mode = await modeOf(deps.database, ctx.organisationId);
  return { clients: items.map((row) => toClient(row, mode)), ...page };
}

export async function getClient(deps: OAuthDeps, ctx: RequestContext, id: string) {
  const row = await inTenant(deps.database, ctx, (tx) => oauthClientRepository(tx, ctx).find(id));
  if (!row) throw notFound();
  return toClient(row, await modeOf(deps.database, ctx.organisationId));
}

/**
 * Registers a client. The secret (confidential clients) is in this answer only. For client_credentials
 * the client acts within a service user: the one named (a service user of the organisation), or a new
 * one named after the client.
 */
export async function createClient(deps: OAuthDeps, ctx: RequestContext, input: CreateOAuthClient) {
  let serviceUserId: string | null = null;
  if (input.grants.includes('client_credentials')) {
    if (input.serviceUserId !== undefined) {
      const user = await inTenant(deps.database, ctx, (tx) =>
        userById(tx, ctx, input.serviceUserId as string),
      );
      if (!user) throw BadRequest.field('serviceUserId', 'is not a user of this organisation');
      if (user.kind !== 'service')
        throw BadRequest.field('serviceUserId', 'must be a service user, not a person');
      serviceUserId = user.id;
    } else {
      const made = await createUser(deps, ctx, {
        email: `oauth-${random62(10).toLowerCase()}@clients.actiondesk.invalid`,
        name: `${input.name} (OAuth client)`,
        kind: 'service',
        groups: input.serviceUserGroups ?? ['adviser'],
      });
      serviceUserId = made._id;
    }
  }
  const secret = input.type === 'confidential' ? newClientSecret() : null;
  const now = deps.clock.now();
  for (;;) {
    try {
      const row = await inTenant(deps.database, ctx, (tx) =>
        oauthClientRepository(tx, ctx).insert({
          id: newId(now.getTime()),
          clientId: newClientId(),
          name: input.name,
          type: input.type,
          secretHash: secret ? hashSecret(secret) : null,
          secretRotatedAt: null,
          grants: input.grants,
          scopes: input.scopes,
          redirectUris: input.redirectUris,
          serviceUserId,
          createdBy: ctx.userId,
          createdAt: now,
          updatedAt: now,
          disabledAt: null,
        }),
      );
      return { ...toClient(row, await modeOf(deps.database, ctx.organisationId)), clientSecret: secret };
    } catch (err) {
      // A client id already taken (about one in 10^42): draw another.
      if (!isUniqueViolation(err, 'oauth_clients_client_id_key')) throw err;
    }
  }
}

/** A new secret, shown once; the old one stops working at once. */
export async function rotateSecret(deps: OAuthDeps, ctx: RequestContext, id: string) {
  return inTenant(deps.database, ctx, async (tx) => {
    const clients = oauthClientRepository(tx, ctx);
    const row = await clients.find(id, { forUpdate: true });
    if (!row) throw notFound();
    if (row.type === 'public') throw new Conflict('A public client has no secret');
    const secret = newClientSecret();
    const now = deps.clock.now();
    await clients.update(id, { secretHash: hashSecret(secret), secretRotatedAt: now, updatedAt: now });
    return { clientId: row.clientId, clientSecret: secret, secretRotatedAt: iso(now) };
  });
}

/** Disables or enables a client; a disabled client gets no tokens and its tokens stop working. */
export async function setClientDisabled(deps: OAuthDeps, ctx: RequestContext, id: string, disabled: boolean) {
  return inTenant(deps.database, ctx, async (tx) => {
    const clients = oauthClientRepository(tx, ctx);
    const row = await clients.find(id, { forUpdate: true });
    if (!row) throw notFound();
    if ((row.disabledAt !== null) === disabled) {
      throw Conflict.state(
        `The client is already ${disabled ? 'disabled' : 'enabled'}`,
        'disabledAt',
        row.disabledAt ? iso(row.disabledAt) : 'null',
      );
    }
    const now = deps.clock.now();
    const updated = await clients.update(id, { disabledAt: disabled ? now : null, updatedAt: now });
    return toClient(updated!, await modeOfCurrent(tx));
  });
}
