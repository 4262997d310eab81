import { type Group, groups } from '../../platform/kernel/permissions';
import { timestamp } from '../../platform/kernel/schemas';
import { secureOrLoopbackUrl } from '../../platform/kernel/urls';
import { z } from '../../platform/kernel/zod';
import { cursorAnswer, walkQuery } from '../../platform/lists/cursor';

const providerTypes = ['google', 'microsoft', 'oidc'] as const;

/**
 * A provider's or directory's base address: https, or http on the loopback address (a provider run by
 * a test on 127.0.0.1); no query, fragment or credentials.
 */
const BaseUrl = z
  .string()
  .max(500)
  .refine((value) => {
    const url = secureOrLoopbackUrl(value);
    return url !== undefined && !url.hash && !url.search && !url.username && !url.password;
  }, 'must be an https URL without query or fragment (http only on 127.0.0.1, [::1] or localhost)');

/** A Microsoft-type directory: its tenant id (a GUID) or domain (contoso.onmicrosoft.com). */
const TenantId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/, 'must be a tenant id (GUID) or a domain name')
  .refine(
    (t) => !['common', 'organizations', 'consumers'].includes(t.toLowerCase()),
    'must name your own directory: common, organizations and consumers would let any Microsoft account in',
  );
const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be a domain name such as example.com',
  );
/** Without a domain list, just-in-time creation would let any account at a public provider in. */
export const JIT_NEEDS_DOMAINS =
  'needs allowedDomains: users are created only for addresses of those domains';
/** Users made just in time are never administrators: an administrator promotes them. */
const jitGroups = groups.filter((g) => g !== 'administrator') as [Group, ...Group[]];
const distinct = (list: string[]) => new Set(list).size === list.length;

const fields = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .meta({ description: 'The sign-in button’s label; default from the type' }),
  tenantId: TenantId.meta({
    description: 'microsoft: the directory (tenant) id or domain; required for that type',
  }),
  issuer: BaseUrl.meta({
    description:
      'oidc: the issuer URL (required). google and microsoft: derived (https://accounts.google.com, https://login.microsoftonline.com/{tenantId}/v2.0); may be overridden (a sovereign cloud, a test provider)',
  }),
  clientId: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .meta({ description: 'The client id of the application registered at the provider' }),
  clientSecret: z.string().min(1).max(2000).meta({
    description: 'Its client secret: stored sealed with ENCRYPTION_KEYS, never shown or logged again',
  }),
  enabled: z.boolean().meta({ description: 'Whether the button shows on the sign-in page (default false)' }),
  allowedDomains: z
    .array(Domain)
    .max(50)
    .refine(distinct, 'must not repeat a domain')
    .meta({ description: 'Only e-mail addresses of these domains may sign in through it; empty: any' }),
  jitGroup: z.enum(jitGroups).nullable().meta({
    description:
      'Create unknown users of the allowed domains on their first sign-in, in this group (needs allowedDomains); null (default): off',
  }),
};

const sync = {
  directorySync: z.boolean().meta({
    description:
      'microsoft only: read the directory every DIRECTORY_SYNC_MINUTES (default 60) and deactivate the users it manages that are gone or disabled there',
  }),
  directoryUrl: BaseUrl.meta({
    description: 'The Microsoft Graph base URL; default https://graph.microsoft.com/v1.0',
  }),
  groupMapping: z
    .record(
      z
        .string()
        .min(1)
        .max(200)
        .regex(/^[\w.-]+$/, 'must be a directory group id'),
      z.enum(groups),
    )
    .refine((m) => Object.keys(m).length <= 50, 'at most 50 groups')
    .meta({ description: 'Directory group id → group here: members of the mapped groups get those groups' }),
  syncNames: z.boolean().meta({ description: 'Names follow the directory’s display names' }),
};

export const CreateSsoProvider = z
  .strictObject({
    type: z
      .enum(providerTypes)
      .meta({ description: 'google, microsoft (with tenantId) or oidc (with issuer)' }),
    name: fields.name.optional(),
    tenantId: fields.tenantId.optional(),
    issuer: fields.issuer.optional(),
    clientId: fields.clientId,
    clientSecret: fields.clientSecret,
    enabled: fields.enabled.default(false),
    allowedDomains: fields.allowedDomains.default([]),
    jitGroup: fields.jitGroup.default(null),
    directorySync: sync.directorySync.default(false),
    directoryUrl: sync.directoryUrl.optional(),
    groupMapping: sync.groupMapping.default({}),
    syncNames: sync.syncNames.default(false),
  })
  .superRefine((p, ctx) => {
    if (p.type !== 'microsoft') {
      const given = {
        directorySync: p.directorySync,
        directoryUrl: p.directoryUrl !== undefined,
        groupMapping: Object.keys(p.groupMapping).length > 0,
        syncNames: p.syncNames,
      };
      for (const [field, set] of Object.entries(given)) {
        if (set) ctx.addIssue({ code: 'custom', path: [field], message: 'only for a microsoft provider' });
      }
    }
    if (p.type === 'microsoft' && !p.tenantId) {
      ctx.addIssue({ code: 'custom', path: ['tenantId'], message: 'is required for a microsoft provider' });
    }
    if (p.type !== 'microsoft' && p.tenantId) {
      ctx.addIssue({ code: 'custom', path: ['tenantId'], message: 'only for a microsoft provider' });
    }
    if (p.jitGroup && p.allowedDomains.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['jitGroup'], message: JIT_NEEDS_DOMAINS });
    }
    if (p.type === 'oidc' && !p.issuer) {
      ctx.addIssue({ code: 'custom', path: ['issuer'], message: 'is required for an oidc provider' });
    }
  })
  .meta({ id: 'CreateSsoProvider' });
export type CreateSsoProvider = z.infer<typeof CreateSsoProvider>;

export const UpdateSsoProvider = z
  .strictObject({
    name: fields.name.optional(),
    tenantId: fields.tenantId.optional(),
    issuer: fields.issuer.optional(),
    clientId: fields.clientId.optional(),
    clientSecret: fields.clientSecret
      .optional()
      .meta({ description: 'A new secret replaces the stored one' }),
    enabled: fields.enabled.optional(),
    allowedDomains: fields.allowedDomains.optional(),
    jitGroup: fields.jitGroup.optional(),
    directorySync: sync.directorySync.optional(),
    directoryUrl: sync.directoryUrl.nullable().optional(),
    groupMapping: sync.groupMapping.optional(),
    syncNames: sync.syncNames.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' })
  .meta({ id: 'UpdateSsoProvider', minProperties: 1 });
export type UpdateSsoProvider = z.infer<typeof UpdateSsoProvider>;

export const SsoProvider = z
  .object({
    _id: z.string(),
    type: z.enum(providerTypes),
    name: z.string(),
    issuer: z.string(),
    tenantId: z.string().nullable(),
    clientId: z.string(),
    hasClientSecret: z.literal(true).meta({ description: 'The secret itself is never answered' }),
    secretUpdatedAt: timestamp,
    enabled: z.boolean(),
    allowedDomains: z.array(z.string()),
    jitGroup: z.enum(groups).nullable(),
    directorySync: z.boolean(),
    directoryUrl: z.string().nullable(),
    groupMapping: z.record(z.string(), z.enum(groups)),
    syncNames: z.boolean(),
    lastSyncAt: timestamp.nullable().meta({ description: 'When directory synchronisation last ran' }),
    lastSync: z
      .object({
        users: z.number().int().meta({ description: 'Users the directory listed' }),
        deactivated: z.number().int(),
        updated: z.number().int(),
        skipped: z.array(z.string()).meta({ description: 'Changes not made, each with why' }),
        error: z.string().nullable().meta({ description: 'Why the run changed nothing' }),
      })
      .nullable()
      .meta({ id: 'DirectorySyncOutcome' }),
    redirectUri: z.string().meta({
      description: 'The address to register at the provider: {BASE_URL}/api/v1/auth/oauth/callback',
    }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'SsoProvider' });
export type SsoProvider = z.infer<typeof SsoProvider>;

export const SignInSettings = z
  .object({
    passwordSignIn: z.boolean().meta({
      description:
        'Staff may sign in with a password. Off: only through the enabled sign-in providers (switching off needs one); administrators keep their password (break-glass, each use in the audit trail)',
    }),
  })
  .meta({ id: 'SignInSettings' });
export const UpdateSignInSettings = z
  .strictObject({ passwordSignIn: z.boolean() })
  .meta({ id: 'UpdateSignInSettings' });

export const SsoProviderList = z
  .object({ providers: z.array(SsoProvider), total: z.number().int(), ...cursorAnswer })
  .meta({ id: 'SsoProviderList' });

export const ListProvidersQuery = z.object(walkQuery);

// The sign-in pages' forms and queries (signin-buttons.router.ts, signin-provider.router.ts).

const text = (max: number) => z.string().max(max);

export const EmailForm = z.object({
  _csrf: text(300),
  email: text(1000),
  password: text(2000).optional(),
  next: text(2000).optional(),
});
export const OrgQuery = z.object({ next: text(2000).optional() });

/**
 * The sign-in button's link. Other parameters are kept as sent: the whole query is the browser's side
 * of the round trip (`SignInBrowser.query`), which the provider's strategy reads.
 */
export const StartQuery = z
  .object({
    organisation: text(100).meta({ description: 'The organisation’s id' }),
    provider: text(100).meta({ description: 'The sign-in provider’s id' }),
    next: text(2000).optional().meta({ description: 'A path of this site to land on once signed in' }),
    email: text(320).optional().meta({ description: 'Passed to the provider as login_hint' }),
  })
  .loose();
/**
 * The provider's answer. Other parameters are kept as sent, for what reads them beside these: `iss`
 * (RFC 9207, checked by `finishSignIn`) and `error_uri` (the provider's strategy).
 */
export const CallbackQuery = z
  .object({
    state: text(200).optional(),
    code: text(4000).optional(),
    error: text(200).optional(),
    error_description: text(2000).optional(),
  })
  .loose();
