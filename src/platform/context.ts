import type { Tx } from './db/database';
import type { Permission } from './permissions';

/** Who is asking, for which organisation: the first argument of every service and repository. */
export interface RequestContext {
  readonly organisationId: string;
  readonly userId: string | null;
  readonly apiKeyId: string | null;
  /** users.auth_version the credentials were checked against; re-checked in every tenant transaction. */
  authVersion: number;
  permissions: ReadonlySet<Permission>;
  readonly authMethod: 'api_key' | 'system';
  readonly requestId: string;
  readonly at: Date;
  /**
   * Called inside the transaction when the database reports the cached credentials out of date:
   * re-reads them (updating this context) or throws 401/403.
   */
  readonly revalidate?: (tx: Tx) => Promise<void>;
}

/** Context for operator tools (CLI, seeding): acts for the organisation without a user. */
export function systemContext(organisationId: string, at: Date = new Date()): RequestContext {
  return {
    organisationId,
    userId: null,
    apiKeyId: null,
    authVersion: 0,
    permissions: new Set(['read', 'create', 'update', 'delete', 'admin']),
    authMethod: 'system',
    requestId: 'system',
    at,
  };
}
