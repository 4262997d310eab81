import { withSecretsShownOnce } from '../../platform/http/shown-once';
import { groups } from '../../platform/kernel/permissions';
import { timestamp } from '../../platform/kernel/schemas';
import { secureOrLoopbackUrl } from '../../platform/kernel/urls';
import { z } from '../../platform/kernel/zod';
import { cursorAnswer, walkQuery } from '../../platform/lists/cursor';

const oauthGrants = ['client_credentials', 'authorization_code', 'refresh_token'] as const;
export const oauthScopes = ['read', 'create', 'update', 'delete', 'all'] as const;

const distinct = <T>(list: T[]) => new Set(list).size === list.length;

/** An exact redirect URI: https, or http on the loopback address (RFC 8252); no fragment. */
const RedirectUri = z
  .string()
  .max(2000)
  .refine((value) => {
    const url = secureOrLoopbackUrl(value);
    return url !== undefined && !url.hash && !value.includes('#');
  }, 'must be an absolute https URL (http only on 127.0.0.1, [::1] or localhost), without a fragment');

export const CreateOAuthClient = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    type: z.enum(['confidential', 'public']).default('confidential').meta({
      description:
        'confidential: has a secret (a server); public: no secret, PKCE required (a mobile or browser app)',
    }),
    grants: z
      .array(z.enum(oauthGrants))
      .min(1)
      .refine(distinct, 'must not repeat a grant')
      .meta({ description: 'Allowed grants; refresh_token needs authorization_code' }),
    scopes: z
      .array(z.enum(oauthScopes))
      .min(1)
      .refine(distinct, 'must not repeat a scope')
      .meta({ description: 'Scopes the client may be granted; also its default when a request names none' }),
    redirectUris: z
      .array(RedirectUri)
      .max(10)
      .default([])
      .meta({ description: 'Exact redirect URIs (authorization_code); compared character for character' }),
    serviceUserId: z.string().max(200).optional().meta({
      description:
        'client_credentials: the service user whose permissions the client acts within. Left out, a service user named after the client is made in `serviceUserGroups`',
    }),
    serviceUserGroups: z.array(z.enum(groups)).min(1).optional().meta({
      description: 'Groups of the service user made when serviceUserId is left out (default adviser)',
    }),
  })
  .superRefine((c, ctx) => {
    if (c.grants.includes('refresh_token') && !c.grants.includes('authorization_code')) {
      ctx.addIssue({ code: 'custom', path: ['grants'], message: 'refresh_token needs authorization_code' });
    }
    if (c.type === 'public' && c.grants.includes('client_credentials')) {
      ctx.addIssue({
        code: 'custom',
        path: ['grants'],
        message: 'a public client cannot use client_credentials',
      });
    }
    if (c.grants.includes('authorization_code') && c.redirectUris.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['redirectUris'],
        message: 'authorization_code needs at least one',
      });
    }
    if (!c.grants.includes('client_credentials') && (c.serviceUserId || c.serviceUserGroups)) {
      ctx.addIssue({ code: 'custom', path: ['serviceUserId'], message: 'only for client_credentials' });
    }
  })
  .meta({ id: 'CreateOAuthClient' });

export const OAuthClient = z
  .object({
    _id: z.string(),
    clientId: z.string().meta({ description: 'The public identifier (adc_…)' }),
    livemode: z.boolean().meta({
      description:
        'false for a test client (registered with a test credential): its tokens reach test records only',
    }),
    name: z.string(),
    type: z.enum(['confidential', 'public']),
    grants: z.array(z.enum(oauthGrants)),
    scopes: z.array(z.enum(oauthScopes)),
    redirectUris: z.array(z.string()),
    serviceUserId: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    secretRotatedAt: timestamp.nullable(),
    disabledAt: timestamp.nullable(),
  })
  .meta({ id: 'OAuthClient' });

export const CreatedOAuthClient = withSecretsShownOnce(OAuthClient, {
  clientSecret: z.string().meta({
    description:
      'The client secret (adcs_…) of a confidential client, stored only as a hash: store it now. Always null for a public client.',
  }),
}).meta({ id: 'CreatedOAuthClient' });

export const OAuthClientList = z
  .object({ clients: z.array(OAuthClient), total: z.number().int(), ...cursorAnswer })
  .meta({ id: 'OAuthClientList' });

export const RotatedSecret = withSecretsShownOnce(
  z.object({ clientId: z.string(), secretRotatedAt: timestamp }),
  {
    clientSecret: z.string().meta({
      description: 'The new client secret (adcs_…); the old one no longer works: store it now.',
    }),
  },
).meta({
  id: 'RotatedOAuthSecret',
  description: 'The new secret, shown only in this answer; the old one no longer works',
});

export type CreateOAuthClient = z.infer<typeof CreateOAuthClient>;
export type OAuthClient = z.infer<typeof OAuthClient>;

export const ClientToken = z
  .object({
    _id: z.string(),
    kind: z.enum(['access', 'refresh']),
    userId: z
      .string()
      .meta({ description: 'Who the token acts for: the service user, or the adviser who consented' }),
    userName: z.string(),
    scopes: z.array(z.string()),
    createdAt: timestamp,
    expiresAt: timestamp,
    lastUsedAt: timestamp.nullable().meta({ description: 'Access tokens: recorded at most once a minute' }),
  })
  .meta({ id: 'OAuthClientToken' });
export type ClientToken = z.infer<typeof ClientToken>;

export const ClientTokenList = z
  .object({
    tokens: z.array(ClientToken).meta({
      description:
        'Live tokens (not revoked, not expired), newest first; at most 500 (page on by cursor with `limit`)',
    }),
    total: z.number().int().meta({ description: 'How many live tokens the client has' }),
    ...cursorAnswer,
  })
  .meta({ id: 'OAuthClientTokenList' });

export const RevokedTokens = z
  .object({ revoked: z.number().int().meta({ description: 'How many tokens were revoked' }) })
  .meta({ id: 'RevokedTokens' });

export const ListClientsQuery = z.object(walkQuery);
