import { newActionCode } from '../../src/platform/crypto/codes';
import { z } from '../../src/platform/kernel/zod';
import {
  CREDENTIAL_QUERY_PARAMS,
  carriesCredentials,
  credential,
  credentialKind,
  credentialParamsOf,
  credentialRoutes,
  declareRoute,
  redactFields,
  redactText,
  redactUrl,
  redactValue,
  withRedaction,
} from '../../src/platform/ops/redaction';

// The routes of this file's world (what Routes.add declares in the app).
const token = credential(z.string(), 'password link');
const code = credential(z.string(), 'invitation');
declareRoute('get', '/password/{token}', credentialParamsOf(z.object({ token })));
declareRoute('POST', '/password/forgot', credentialParamsOf(z.object({})));
declareRoute(
  'GET',
  '/orgs/{orgId}/invites/{code}/accept',
  credentialParamsOf(z.object({ orgId: z.string(), code })),
);
declareRoute('GET', '/orgs/{orgId}/users', new Map());

describe('credential declarations (credential, credentialParamsOf, declareRoute)', () => {
  it('when a path parameter’s schema is declared a credential, then its kind is known, and only for that schema', () => {
    expect(credentialKind(token)).toBe('password link');
    expect(credentialKind(z.string())).toBeUndefined();
    expect(credentialKind('token')).toBeUndefined();
    expect(credentialKind(null)).toBeUndefined();
    expect(credentialParamsOf(z.object({ orgId: z.string(), code }))).toEqual(
      new Map([['code', 'invitation']]),
    );
    expect(credentialParamsOf(undefined)).toEqual(new Map());
  });

  it('when routes are declared, then only those with a credential in their path are listed, method in capitals', () => {
    expect(credentialRoutes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /password/{token}',
      'GET /orgs/{orgId}/invites/{code}/accept',
    ]);
  });
});

describe('URLs in logs (redactUrl)', () => {
  it.each([
    ['/password/s3cr3t-link', '/password/[redacted]'],
    ['/password/s3cr3t-link/', '/password/[redacted]/'],
    ['/password/s3cr3t-link/confirm', '/password/[redacted]/confirm'],
    ['/password/s3cr3t-link?x=1', '/password/[redacted]?x=1'],
    ['https://desk.example.com/password/s3cr3t-link', 'https://desk.example.com/password/[redacted]'],
    ['/orgs/o-1/invites/inv-42/accept', '/orgs/o-1/invites/[redacted]/accept'],
    ['/orgs/o-1/invites/inv-42', '/orgs/o-1/invites/[redacted]'],
  ])('when a declared credential is in the path %s, then it is written %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it('when the path is written in other capitals, then the credential is still taken out', () => {
    expect(redactUrl('/PASSWORD/s3cr3t-link')).not.toContain('s3cr3t-link');
  });

  it('when a literal route sits beside the credential parameter, then its name is kept; a longer name is a credential', () => {
    expect(redactUrl('/password/forgot')).toBe('/password/forgot');
    expect(redactUrl('/password/forgot?email=x')).toBe('/password/forgot?email=[redacted]');
    expect(redactUrl('/password/forgotten')).toBe('/password/[redacted]');
  });

  it('when a path is not a declared credential route, then it is written as it is', () => {
    for (const url of ['/orgs/o-1/users', '/passwords/abc', '/api/v1/customers?page=2&limit=10', '/'])
      expect(redactUrl(url)).toBe(url);
  });

  // Credentials, and personal data in sign-in hints (docs/security.md).
  const credentialParams = [
    'access_token',
    'refresh_token',
    'id_token',
    'token',
    'client_secret',
    'client_assertion',
    'api_key',
    'apikey',
    'key',
    'code',
    'code_verifier',
    'password',
    'secret',
    'state',
    '_csrf',
    'email',
    'login_hint',
  ];
  it('when the credential query parameters are listed, then they are exactly these', () => {
    expect([...CREDENTIAL_QUERY_PARAMS].sort()).toEqual([...credentialParams].sort());
  });

  it.each(credentialParams)('when the query carries %s, then its value is written [redacted]', (name) => {
    expect(redactUrl(`/cb?page=2&${name}=SECRET-VALUE&sort=asc`)).toBe(
      `/cb?page=2&${name}=[redacted]&sort=asc`,
    );
  });

  it('when a credential parameter’s name is written as a server would still read it, then it is redacted too', () => {
    expect(redactUrl('/x?Access_Token=abc')).toBe('/x?Access_Token=[redacted]');
    expect(redactUrl('/x?CODE=abc')).toBe('/x?CODE=[redacted]');
    expect(redactUrl('/x?token[]=abc')).toBe('/x?token[]=[redacted]');
    expect(redactUrl('/x?token[a]=abc')).toBe('/x?token[a]=[redacted]');
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[redacted]');
    expect(redactUrl('/x?a=1&&token=2')).toBe('/x?a=1&&token=[redacted]');
    expect(redactUrl('/x?%zz=1&token=2')).toBe('/x?%zz=1&token=[redacted]');
  });

  it('when a parameter only resembles a credential’s name, or has no value, then it is kept', () => {
    expect(redactUrl('/x?to+ken=abc&tokens=abc&codes=1')).toBe('/x?to+ken=abc&tokens=abc&codes=1');
    expect(redactUrl('/x?code&token')).toBe('/x?code&token');
  });

  it('when the fragment carries a token (an implicit grant), then it is redacted as a query is', () => {
    expect(redactUrl('/cb#access_token=abc&state=xyz&expires_in=3600')).toBe(
      '/cb#access_token=[redacted]&state=[redacted]&expires_in=3600',
    );
  });

  it('when an action code is anywhere in the URL, then it is redacted, whatever route it came through', () => {
    const actionCode = newActionCode();
    expect(redactUrl(`/anything/${actionCode}/x`)).toBe('/anything/[redacted]/x');
    expect(redactUrl(`/a?ref=${actionCode.toUpperCase()}`)).toBe('/a?ref=[redacted]');
  });
});

describe('free text in logs (redactText)', () => {
  it('when a message holds URLs with credentials, then each is taken out and the rest kept', () => {
    expect(
      redactText(
        'GET /password/abcdefgh failed; callback https://idp.example/cb?code=zzz&state=q&lang=nl, retry',
      ),
    ).toBe(
      'GET /password/[redacted] failed; callback https://idp.example/cb?code=[redacted]&state=[redacted]&lang=nl, retry',
    );
  });

  it('when a path appears in quotes or after a next= target, then it is found there too', () => {
    expect(redactText('"/password/abcdefgh" and \'/orgs/1/invites/i2\'')).toBe(
      '"/password/[redacted]" and \'/orgs/1/invites/[redacted]\'',
    );
    expect(redactUrl('/signin?next=/password/abcdefgh')).toBe('/signin?next=/password/[redacted]');
  });

  it('when action codes appear in a message (a failed query’s parameters), then every one is redacted', () => {
    const codes = Array.from({ length: 50 }, newActionCode);
    const text = redactText(`params: ${codes.join(', ')}`);
    for (const c of codes) expect(text).not.toContain(c);
    expect(text).toBe(`params: ${codes.map(() => '[redacted]').join(', ')}`);
  });

  it('when words of 20 letters are not codes (ambiguous letters, other lengths), then they are kept', () => {
    const kept = [
      'internationalisation', // has an i, l and o: never in a code
      'abcdefghjkmnpqrstvw', // 19
      'abcdefghjkmnpqrstvwxy', // 21
      '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b', // an id
    ];
    for (const word of kept) expect(redactText(word)).toBe(word);
  });

  it('when a request carries credentials, then they are taken out of everything logged within it, and only there', () => {
    const seen = withRedaction(() => {
      const before = carriesCredentials();
      redactValue('short'); // too short: would take common words with it
      redactValue(12345678);
      const afterShort = carriesCredentials();
      redactValue('the-live-credential');
      return {
        before,
        afterShort,
        after: carriesCredentials(),
        text: redactText('user the-live-credential failed; the-live-credential again; short stays'),
      };
    });
    expect(seen).toEqual({
      before: false,
      afterShort: false,
      after: true,
      text: 'user [redacted] failed; [redacted] again; short stays',
    });
    expect(carriesCredentials()).toBe(false);
    expect(redactText('the-live-credential')).toBe('the-live-credential');
    // Another request does not see this one's credentials.
    expect(withRedaction(() => redactText('the-live-credential'))).toBe('the-live-credential');
  });

  it('when redactValue is called outside a request, then nothing happens and nothing throws', () => {
    expect(() => redactValue('a-credential-outside')).not.toThrow();
    expect(carriesCredentials()).toBe(false);
  });
});

describe('log fields (redactFields)', () => {
  it('when fields are plain data, then every string in them is redacted, numbers and the shape kept', () => {
    expect(
      redactFields({
        url: '/password/abcdefgh',
        status: 401,
        ok: false,
        none: null,
        list: ['/x?token=1', { inner: '/orgs/o/invites/c' }],
      }),
    ).toEqual({
      url: '/password/[redacted]',
      status: 401,
      ok: false,
      none: null,
      list: ['/x?token=[redacted]', { inner: '/orgs/o/invites/[redacted]' }],
    });
    expect(redactFields('/password/abcdefgh')).toBe('/password/[redacted]');
  });

  it('when a field is not plain data (a request, an error), then it is left as it is to its serializer', () => {
    class Request {
      url = '/password/abcdefgh';
    }
    const req = new Request();
    const err = new Error('/password/abcdefgh');
    const out = redactFields({ req, err }) as { req: unknown; err: unknown };
    expect(out.req).toBe(req);
    expect(out.err).toBe(err);
    expect(req.url).toBe('/password/abcdefgh');
  });

  it('when a serializer made the object (anyObject), then its own fields are redacted as well', () => {
    class Serialized {
      message = 'see /password/abcdefgh';
    }
    expect(redactFields(new Serialized(), true)).toEqual({ message: 'see /password/[redacted]' });
    expect(redactFields(Object.assign(Object.create(null), { u: '/password/abcdefgh' }))).toEqual({
      u: '/password/[redacted]',
    });
  });

  it('when the fields are redacted, then the original object is left unchanged (a copy is logged)', () => {
    const fields = { url: '/password/abcdefgh', nested: { q: '?code=1' } };
    redactFields(fields);
    expect(fields).toEqual({ url: '/password/abcdefgh', nested: { q: '?code=1' } });
  });

  it('when data nests a few levels deep, then strings down there are redacted too', () => {
    const out = redactFields({ l1: { l2: { l3: { l4: '/password/abcdefgh', list: ['?code=1'] } } } });
    expect(out).toEqual({ l1: { l2: { l3: { l4: '/password/[redacted]', list: ['?code=[redacted]'] } } } });
  });
});
