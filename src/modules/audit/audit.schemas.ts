import { instantParam, timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';

const text = (max: number, description: string) => z.string().min(1).max(max).meta({ description });

export const ListAuditEventsQuery = z.object({
  targetType: text(50, 'Only changes of this kind of thing: sso_provider, user, …').optional(),
  targetId: text(200, 'Only changes of this one thing (with targetType)').optional(),
  action: text(100, 'Only this action, e.g. sso_provider.updated').optional(),
  actorType: z.enum(['user', 'api_key', 'oauth_client', 'contact', 'system']).optional().meta({
    description:
      'Only changes made this way: a staff user in the browser, an API key, an OAuth client, a contact, the system',
  }),
  actorUserId: text(200, 'Only changes made by (or through the credentials of) this user').optional(),
  actorCredentialId: text(200, 'Only changes made through this API key or OAuth client (its id)').optional(),
  requestId: text(200, 'Only the changes of this request (its X-Request-Id)').optional(),
  actorLabel: text(100, 'Only changes made by this part of the system, e.g. `directory sync`').optional(),
  since: instantParam('Only changes at or after this moment').optional(),
  updatedSince: instantParam('The same as `since` (the name every list takes)').optional(),
  until: instantParam('Only changes at or before this moment').optional(),
  startingAfter: text(200, 'The `nextCursor` of the previous page').optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50).meta({ description: '1–100, default 50' }),
});
export type ListAuditEventsQuery = z.infer<typeof ListAuditEventsQuery>;

export const AuditEvent = z
  .object({
    _id: z.string(),
    at: timestamp,
    actor: z
      .object({
        type: z.enum(['user', 'api_key', 'oauth_client', 'contact', 'system']),
        userId: z
          .string()
          .nullable()
          .meta({ description: 'The acting user (also through a key or a token)' }),
        credentialId: z.string().nullable().meta({ description: 'The API key’s or OAuth client’s id' }),
        label: z.string().nullable().meta({ description: 'For the system: which part acted' }),
      })
      .meta({ id: 'AuditActor' }),
    action: z.string().meta({ description: '`{target}.{verb}`, e.g. `sso_provider.updated`' }),
    target: z.object({ type: z.string(), id: z.string() }).meta({ id: 'AuditTarget' }),
    summary: z.record(z.string(), z.unknown()).meta({
      description:
        'What changed, by field: `{before, after}` for plain values, `{keys: [...]}` for the changed keys of a record such as a contact’s `data` (never its values), `set`/`replaced`/`removed` for secrets, `changed` for large values',
    }),
    requestId: z
      .string()
      .nullable()
      .meta({ description: 'The X-Request-Id of the request that made the change' }),
    address: z
      .string()
      .nullable()
      .meta({ description: 'The client’s address (IP), when a request made the change' }),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditEventList = z
  .object({
    events: z.array(AuditEvent),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `startingAfter` for the next page' }),
  })
  .meta({ id: 'AuditEventList' });
