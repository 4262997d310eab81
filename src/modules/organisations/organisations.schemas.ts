import { withSecretsShownOnce } from '../../platform/http/shown-once';
import { groups } from '../../platform/kernel/permissions';
import { idFilter, idParam, timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { cursorAnswer, walkQuery } from '../../platform/lists/cursor';

export const User = z
  .object({
    _id: z.string(),
    email: z.string(),
    name: z.string(),
    kind: z
      .enum(['staff', 'service'])
      .meta({ description: 'A person, or an account for software (API keys)' }),
    status: z.enum(['active', 'deactivated']),
    groups: z.array(z.enum(groups)),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'User' });

export const SessionsEnded = z
  .object({
    success: z.literal(true),
    userId: z.string(),
    endedSessions: z
      .number()
      .int()
      .meta({ description: 'How many browser sessions of the user were open and have ended' }),
  })
  .meta({ id: 'SessionsEnded' });

export const UserList = z
  .object({ users: z.array(User), total: z.number().int(), ...cursorAnswer })
  .meta({ id: 'UserList' });

export const ListUsersQuery = z.object(walkQuery);

/** The path of a user's routes (`/admin/users/{userId}…`). */
export const UserParams = z.object({ userId: idParam('userId') });
/** The path of one API key of a user (`/admin/users/{userId}/apikeys/{keyId}`). */
export const ApiKeyParams = z.object({ userId: idParam('userId'), keyId: idParam('keyId') });

const groupList = z
  .array(z.enum(groups))
  .min(1)
  .max(groups.length)
  .refine((g) => new Set(g).size === g.length, 'must not repeat a group')
  .meta({ uniqueItems: true });

export const CreateUser = z
  .strictObject({
    email: z.email({ error: 'must be an e-mail address' }).max(320),
    name: z.string().trim().min(1).max(200),
    kind: z.enum(['staff', 'service']).default('staff'),
    groups: groupList,
  })
  .meta({ id: 'CreateUser' });

export const UpdateUser = z
  .strictObject({ name: z.string().trim().min(1).max(200).optional(), groups: groupList.optional() })
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one of name, groups' })
  .meta({ id: 'UpdateUser', minProperties: 1 });

export const ApiKey = z
  .object({
    _id: z.string(),
    userId: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the key, to recognise it' }),
    livemode: z.boolean().meta({
      description: 'False for a test key (`adk_test_…`): it works on the organisation’s test records only',
    }),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable().meta({ description: 'Recorded at most once a minute' }),
    revokedAt: timestamp.nullable(),
  })
  .meta({ id: 'ApiKey' });

export const CreatedApiKey = withSecretsShownOnce(ApiKey, {
  apiKey: z.string().meta({ description: 'The key itself (adk_… or adk_test_…): store it now.' }),
}).meta({ id: 'CreatedApiKey' });

export const ApiKeyList = z
  .object({ apiKeys: z.array(ApiKey), total: z.number().int(), ...cursorAnswer })
  .meta({ id: 'ApiKeyList' });

const mode = z.enum(['live', 'test']);

export const CreateApiKey = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    mode: mode.optional().meta({
      description:
        'test: a test key (`adk_test_…`) of the same user, working on the organisation’s test records ' +
        'only — nothing it causes reaches a real person (see docs/test-mode.md). Default: the mode of ' +
        'the credentials asking (live with a live key)',
    }),
  })
  .meta({ id: 'CreateApiKey' });

export const ListApiKeysQuery = z.object({
  mode: mode.optional().meta({
    description: 'The live keys, or the test keys; default: those of the mode of the credentials asking',
  }),
  userId: idFilter('Only keys of this user').optional(),
  includeRevoked: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  ...walkQuery,
});

export type User = z.infer<typeof User>;
export type CreateUser = z.infer<typeof CreateUser>;
export type UpdateUser = z.infer<typeof UpdateUser>;
export type ApiKey = z.infer<typeof ApiKey>;

const AddressLimit = z.object({
  limit: z.number().int().meta({ description: 'Requests (or attempts) allowed per address in each window' }),
  windowSeconds: z.number().int(),
});

export const RateLimitSettings = z
  .object({
    apiPerMinute: z.number().int().meta({
      description:
        'Requests a minute allowed to each API key, OAuth client and staff user of the organisation',
    }),
    organisationSetting: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The organisation’s own setting, or null when the service default applies' }),
    defaultApiPerMinute: z
      .number()
      .int()
      .meta({ description: 'The service default (RATE_LIMIT_API_PER_MINUTE)' }),
    perAddress: z
      .object({ public: AddressLimit, signin: AddressLimit, token: AddressLimit })
      .meta({ description: 'The per-address limits (set by the operator), for reference' }),
  })
  .meta({ id: 'RateLimitSettings' });

export const UpdateRateLimits = z
  .strictObject({
    apiPerMinute: z.number().int().min(1).max(1_000_000).nullable().meta({
      description: 'Requests a minute per API key, OAuth client and staff user; null: back to the default',
    }),
  })
  .meta({ id: 'UpdateRateLimits' });

export type RateLimitSettings = z.infer<typeof RateLimitSettings>;
export type UpdateRateLimits = z.infer<typeof UpdateRateLimits>;
