import type { SafeHttpClient } from '../../platform/outbound/safe-http';

/** A user as the directory knows them. */
export interface DirectoryUser {
  /** The directory's own id of the user. */
  id: string;
  /** The addresses local users are matched by: mail and user principal name, lower case. */
  addresses: string[];
  displayName: string | null;
  enabled: boolean;
}

/**
 * Where directory synchronisation reads users from. One implementation speaks Microsoft Graph; another
 * directory (Google's Admin SDK, SCIM) would be another implementation of this interface.
 */
export interface DirectorySource {
  /** Every user of the directory (all pages). */
  users(): Promise<DirectoryUser[]>;
  /** The ids of the users in a directory group (members of nested groups included). */
  groupMembers(groupId: string): Promise<Set<string>>;
}

class DirectoryError extends Error {
  override name = 'DirectoryError';
}

/** Graph answers at most this many pages for one listing (999 users a page): a runaway guard. */
const MAX_PAGES = 500;
const TIMEOUT_MS = 20_000;
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Microsoft Graph (v1.0): `GET /users` and `GET /groups/{id}/transitiveMembers`, 999 a page, following
 * `@odata.nextLink` — only on the directory's own origin, so a page cannot send us elsewhere with the
 * token. The token comes from the provider's token endpoint (client credentials, `{origin}/.default`).
 */
export class GraphDirectory implements DirectorySource {
  private token: Promise<string> | undefined;

  constructor(
    private readonly http: SafeHttpClient,
    /** The Graph base URL, e.g. https://graph.microsoft.com/v1.0. */
    private readonly baseUrl: string,
    private readonly getToken: (scope: string) => Promise<string>,
    /** Aborts the reading (the job's time is up). */
    private readonly signal?: AbortSignal,
  ) {}

  private bearer(): Promise<string> {
    this.token ??= this.getToken(`${new URL(this.baseUrl).origin}/.default`);
    return this.token;
  }

  private async pages(first: string): Promise<Record<string, unknown>[]> {
    const origin = new URL(this.baseUrl).origin;
    const items: Record<string, unknown>[] = [];
    let next: string | undefined = first;
    for (let page = 0; next; page++) {
      if (page >= MAX_PAGES) throw new DirectoryError(`more than ${MAX_PAGES} pages: stopped`);
      if (new URL(next).origin !== origin)
        throw new DirectoryError('a page pointed to another address: stopped');
      const res = await this.http
        .get(next, {
          headers: {
            authorization: `Bearer ${await this.bearer()}`,
            accept: 'application/json',
            'user-agent': 'ActionDesk-DirectorySync/1',
          },
          timeoutMs: TIMEOUT_MS,
          maxBodyBytes: MAX_BYTES,
          ...(this.signal ? { signal: this.signal } : {}),
        })
        .catch((err: Error) => {
          throw new DirectoryError(`the directory could not be read: ${err.message}`);
        });
      if (res.status !== 200) throw new DirectoryError(`the directory answered ${res.status}`);
      let body: { value?: unknown; '@odata.nextLink'?: unknown };
      try {
        body = JSON.parse(res.body) as typeof body;
      } catch {
        throw new DirectoryError('the directory answered something that is not JSON (or too long)');
      }
      if (!Array.isArray(body.value)) throw new DirectoryError('the directory’s answer has no value list');
      for (const v of body.value) if (v && typeof v === 'object') items.push(v as Record<string, unknown>);
      next = typeof body['@odata.nextLink'] === 'string' ? body['@odata.nextLink'] : undefined;
    }
    return items;
  }

  async users(): Promise<DirectoryUser[]> {
    const select = 'id,displayName,mail,userPrincipalName,accountEnabled';
    const rows = await this.pages(`${this.baseUrl}/users?$select=${select}&$top=999`);
    const text = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 320 ? v : null);
    return rows.flatMap((r) => {
      const id = text(r.id);
      if (!id) return [];
      const addresses = [text(r.mail), text(r.userPrincipalName)]
        .filter((a): a is string => a !== null)
        .map((a) => a.toLowerCase());
      return [
        {
          id,
          addresses: [...new Set(addresses)],
          displayName: text(r.displayName),
          enabled: r.accountEnabled !== false,
        },
      ];
    });
  }

  async groupMembers(groupId: string): Promise<Set<string>> {
    const rows = await this.pages(
      `${this.baseUrl}/groups/${encodeURIComponent(groupId)}/transitiveMembers/microsoft.graph.user?$select=id&$top=999`,
    );
    return new Set(rows.map((r) => r.id).filter((id): id is string => typeof id === 'string'));
  }
}
