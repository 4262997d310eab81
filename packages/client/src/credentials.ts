/** OAuth 2.0 client credentials: the client asks the token endpoint for its own access tokens. */
export interface OAuthClientCredentials {
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to ask for (`read create`); by default all the client's scopes. */
  scope?: string;
  /** A token is replaced this long before it expires (default 60 s; at most half its lifetime). */
  refreshBeforeMs?: number;
}

/** What the token endpoint answers (RFC 6749 §5.1). */
export interface TokenAnswer {
  access_token: string;
  expires_in: number;
  scope?: string;
  token_type: string;
}

/**
 * Keeps one access token and replaces it before it expires. Calls made while a token is being fetched
 * wait for that one fetch rather than each asking for a token of their own.
 */
export class AccessTokens {
  private current: { token: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly fetchToken: () => Promise<TokenAnswer>,
    private readonly now: () => number,
    private readonly refreshBeforeMs = 60_000,
  ) {}

  /** A token that is not about to expire: the kept one, or a new one. */
  async token(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return this.current.token;
    this.pending ??= this.renew().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forgets `token` (the service refused it: revoked, or expired early), so the next call fetches one. */
  forget(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private async renew(): Promise<string> {
    const asked = this.now();
    const answer = await this.fetchToken();
    const lifetimeMs = answer.expires_in * 1000;
    const margin = Math.min(this.refreshBeforeMs, lifetimeMs / 2);
    this.current = { token: answer.access_token, renewAt: asked + lifetimeMs - margin };
    return answer.access_token;
  }
}

/** The HTTP Basic credentials of a client (RFC 6749 §2.3.1: each part form-encoded first). */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${btoa(`${encode(clientId)}:${encode(clientSecret)}`)}`;
}
