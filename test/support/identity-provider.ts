import { freePort, type Harness, startHarness } from './harness';

type MockServer = InstanceType<typeof import('oauth2-mock-server')['OAuth2Server']>;

/** Who the provider says signs in next (the claims of its ID token). */
export interface Identity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  /** Google-type: the Workspace domain of the account. */
  hd?: string;
  /** Microsoft-type: the e-mail's domain is verified by the directory's owner. */
  xms_edov?: boolean;
  name?: string;
}

export interface IdentityProvider {
  server: MockServer;
  issuer: string;
  /** The next sign-in's identity (the provider's own user, "signed in" at the provider). */
  as(identity: Identity): void;
  /** The nonce of the last authorization request. */
  lastNonce(): string | undefined;
  /** The parameters of the last authorization request. */
  lastAuthorization(): URLSearchParams;
  /** Signs a token with the provider's own key (claims chosen by the test, nothing added). */
  sign(header: Record<string, unknown>, payload: Record<string, unknown>): Promise<string>;
  /** The next token response carries this ID token instead of the provider's. */
  answerWith(idToken: string): void;
  /**
   * Holds the next sign-in at the provider: the browser is sent to a page of the provider instead of
   * back to us, and the promise gives the callback address it would have gone to (with code and state).
   */
  park(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider on 127.0.0.1 (oauth2-mock-server: discovery, JWKS, authorization
 * with PKCE and nonce, token endpoint), whose ID tokens carry the identity the test chose and times on
 * the app's clock.
 */
export async function startIdentityProvider(h: Harness): Promise<IdentityProvider> {
  const { OAuth2Server } = await import('oauth2-mock-server');
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const issuer = `http://127.0.0.1:${server.address().port}`;
  server.issuer.url = issuer;
  let identity: Identity = { sub: 'nobody' };
  let nonce: string | undefined;
  let authorization = new URLSearchParams();
  let parked: ((callback: string) => void) | undefined;
  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: { url?: string }) => {
    authorization = new URL(req.url ?? '/', issuer).searchParams;
    nonce = authorization.get('nonce') ?? undefined;
    if (parked) {
      parked(redirect.url.href);
      parked = undefined;
      // In place: the provider redirects to the URL object it gave the event.
      redirect.url.href = `${issuer}/parked`;
    }
  });
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    const now = Math.floor(h.clock.now().getTime() / 1000);
    Object.assign(token.payload, identity, { iat: now, nbf: now - 10, exp: now + 3600 });
  });
  return {
    server,
    issuer,
    as: (next) => {
      identity = next;
    },
    lastNonce: () => nonce,
    lastAuthorization: () => authorization,
    sign: async (header, payload) => {
      const jose = await import('jose');
      const jwk = server.issuer.keys.toJSON(true)[0] as Record<string, unknown>;
      const key = await jose.importJWK(jwk as never, 'RS256');
      return new jose.SignJWT(payload as never)
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid as string, ...header })
        .sign(key);
    },
    answerWith: (idToken) => {
      server.service.once('beforeResponse', (response: { body: Record<string, unknown> }) => {
        response.body.id_token = idToken;
      });
    },
    park: () =>
      new Promise<string>((resolve) => {
        parked = resolve;
      }),
    stop: () => server.stop(),
  };
}

/**
 * The app for single sign-on tests: providers on 127.0.0.1 allowed, and BASE_URL the address it
 * listens on (the provider sends the browser back there).
 */
export async function startSsoHarness(): Promise<Harness> {
  const port = await freePort();
  return startHarness(
    { SSO_PRIVATE_NETWORKS: '127.0.0.0/8,::1/128', BASE_URL: `http://127.0.0.1:${port}` },
    { port },
  );
}
