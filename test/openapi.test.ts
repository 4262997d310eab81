import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventTypes } from '../src/platform/events/event-types';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let doc: {
  openapi: string;
  paths: Record<
    string,
    Record<string, { security?: unknown[]; responses: Record<string, { headers?: unknown }> }>
  >;
};

beforeAll(async () => {
  h = await startHarness();
  const res = await h.api().get('/api/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => h.close());

describe('GET /api/v1/openapi.json', () => {
  it('when fetched, then it is a valid OpenAPI 3.1 document', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
  });

  it('when read, then every operation has a unique operationId, and the names are the pinned ones', () => {
    const ids = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, op]) => `${method.toUpperCase()} ${path} → ${(op as { operationId?: string }).operationId}`,
      ),
    );
    const names = ids.map((line) => line.split(' → ')[1]);
    expect(names.every((n) => typeof n === 'string' && /^[a-z][A-Za-z0-9]+$/.test(n))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(141);
    // A name is part of the contract (generated clients call it): changing one is a deliberate change.
    expect(ids.sort().join('\n')).toMatchSnapshot();
  });

  it('when openapi-typescript reads the served document, then it gives a typed operations map that compiles', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-openapi-'));
    try {
      fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
      const bin = path.resolve(__dirname, '../node_modules/.bin');
      execFileSync(path.join(bin, 'openapi-typescript'), ['openapi.json', '-o', 'api.d.ts'], {
        cwd: dir,
        stdio: 'pipe',
      });
      const types = fs.readFileSync(path.join(dir, 'api.d.ts'), 'utf8');
      expect(types).toContain('export interface operations {');
      for (const name of ['createCustomer', 'listSessionRequests', 'createSessionRequest', 'oauthToken'])
        expect(types).toMatch(new RegExp(`\\n    ${name}: \\{`));
      // A client's use of it type-checks: the create's body and answer are typed, not `unknown`.
      fs.writeFileSync(
        path.join(dir, 'use.ts'),
        [
          "import type { operations } from './api';",
          "type Create = operations['createSessionRequest'];",
          "export const body: Create['requestBody'] extends { content: { 'application/json': infer B } } ? B : never = { type: 'qlist', customerId: 'c', questionListIds: ['q'] };",
          "type Created = Create['responses'][201]['content']['application/json'];",
          'export const code = (c: Created): string => c.code;',
          "type Contact = operations['getCustomer']['responses'][200]['content']['application/json'];",
          'export const name = (c: Contact): string | undefined => c.data.Voornaam ?? undefined;',
        ].join('\n'),
      );
      execFileSync(
        path.join(bin, 'tsc'),
        [
          '--noEmit',
          '--strict',
          '--skipLibCheck',
          '--target',
          'es2022',
          '--moduleResolution',
          'node',
          'use.ts',
        ],
        { cwd: dir, stdio: 'pipe' },
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when read, then every request body and every answer with a body is a named component schema', () => {
    const inline: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(methods as Record<string, Record<string, unknown>>)) {
        const o = op as {
          requestBody?: { content: Record<string, { schema?: Record<string, unknown> }> };
          responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
        };
        const medias = [
          ...Object.values(o.requestBody?.content ?? {}),
          ...Object.values(o.responses).flatMap((r) => Object.values(r.content ?? {})),
        ];
        for (const media of medias)
          if (media.schema && !media.schema.$ref && ['object', 'array'].includes(String(media.schema.type)))
            inline.push(`${method} ${path}`);
      }
    expect(inline).toEqual([]);
  });

  it('when read, then it says what the server refuses: lengths, patterns, unique items, empty changes, enums, id filters', () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, Record<string, unknown>> } })
      .components.schemas;
    const op = (method: string, path: string) =>
      (doc.paths[path] as unknown as Record<string, Record<string, unknown>>)[method] as {
        parameters?: { name: string; in: string; schema: Record<string, unknown> }[];
        requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
      };
    const bodyOf = (method: string, path: string) => {
      const schema = op(method, path).requestBody?.content['application/json']?.schema ?? {};
      const ref = schema.$ref as string | undefined;
      return ref ? (schemas[ref.split('/').pop() as string] as Record<string, unknown>) : schema;
    };
    const props = (s: Record<string, unknown>) => s.properties as Record<string, Record<string, unknown>>;
    expect(props(bodyOf('put', '/api/v1/admin/users/{userId}/password')).password).toMatchObject({
      minLength: 12,
      maxLength: 256,
    });
    const idempotency = op('post', '/api/v1/customers').parameters?.find((p) => p.name === 'Idempotency-Key');
    expect(idempotency?.schema.pattern).toBe('^[\\x21-\\x7e]{1,255}$');
    expect(props(bodyOf('post', '/api/v1/admin/users')).groups).toMatchObject({ uniqueItems: true });
    expect(props(bodyOf('post', '/api/v1/questionlists')).supportedLanguages).toMatchObject({
      uniqueItems: true,
    });
    for (const path of [
      '/api/v1/customers/{customerId}',
      '/api/v1/questionlists/{questionListId}',
      '/api/v1/admin/users/{userId}',
      '/api/v1/webhooks/{webhookId}',
      '/api/v1/admin/sso/providers/{providerId}',
    ])
      expect([path, bodyOf('patch', path).minProperties]).toEqual([path, 1]);
    const webhook = props(bodyOf('post', '/api/v1/webhooks'));
    expect(webhook.url).toMatchObject({ pattern: '^https://', format: 'uri' });
    expect((webhook.events?.items as { enum?: string[] } | undefined)?.enum).toEqual(['*', ...eventTypes]);
    expect(webhook.events).toMatchObject({ uniqueItems: true });
    for (const [path, name] of [
      ['/api/v1/customers', 'portfolioId'],
      ['/api/v1/sessionrequests', 'customerId'],
      ['/api/v1/sessions', 'sessionRequestId'],
      ['/api/v1/sessions', 'customerId'],
      ['/api/v1/admin/apikeys', 'userId'],
    ] as const) {
      const parameter = op('get', path).parameters?.find((p) => p.name === name && p.in === 'query');
      expect([path, name, parameter?.schema.format]).toEqual([path, name, 'uuid']);
    }
  });

  it('when read, then it documents the spec’s routes with their error responses', () => {
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/health',
        '/api/v1/customers',
        '/api/v1/customers/{customerId}',
        '/api/v1/portfolios',
        '/api/v1/questionlists',
        '/api/v1/questionlists/{questionListId}',
        '/api/v1/sessionrequests',
        '/api/v1/sessionrequests/{actionId}',
        '/api/v1/sessionrequests/{actionId}/reopen',
        '/api/v1/sessionrequests/{actionId}/deactivate',
        '/action/{code}',
      ]),
    );
    expect(
      Object.keys(doc.paths['/api/v1/sessionrequests/{actionId}/reopen']?.post?.responses ?? {}).sort(),
    ).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503']);
    expect(Object.keys(doc.paths['/action/{code}']?.get?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '404',
      '410',
      '429',
      '500',
      '503',
    ]);
    const getOne = doc.paths['/api/v1/customers/{customerId}']?.get;
    expect(Object.keys(getOne?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '429',
      '500',
      '503',
    ]);
    expect(getOne?.responses?.['429']?.headers).toEqual({
      'Retry-After': expect.objectContaining({ schema: { type: 'integer' } }),
      RateLimit: expect.objectContaining({ schema: { type: 'string' } }),
      'RateLimit-Policy': expect.objectContaining({ schema: { type: 'string' } }),
    });
    expect(getOne?.security).toEqual([{ ApiKey: [] }, { OAuth2: ['read'] }]);
    expect(doc.paths['/health']?.get?.security).toEqual([]);
    const createCustomer = doc.paths['/api/v1/customers']?.post as {
      parameters?: { name: string; in: string; required?: boolean }[];
      responses: Record<string, { headers?: unknown }>;
    };
    expect(Object.keys(createCustomer.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '409', '413', '422', '429']),
    );
    expect(createCustomer.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    );
    expect(createCustomer.responses['201']?.headers).toHaveProperty('Idempotent-Replayed');
    // Every POST of the API with credentials takes the key.
    for (const [path, methods] of Object.entries(doc.paths)) {
      const postOp = methods.post as { security?: unknown[]; parameters?: { name: string }[] } | undefined;
      if (!postOp || !path.startsWith('/api/v1/') || !postOp.security?.length) continue;
      if (path.startsWith('/api/v1/auth/oauth/')) continue;
      // Checking a PDF and a test ping make nothing that a retry could make twice.
      if (path === '/api/v1/files/verify' || path === '/api/v1/webhooks/{webhookId}/test') continue;
      expect([path, postOp.parameters?.some((p) => p.name === 'Idempotency-Key')]).toEqual([path, true]);
    }
  });

  it('when every documented route is called, then each one exists (no route-not-found answer)', async () => {
    let checked = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      const url = path.replace(/\{[^}]+\}/g, '01900000-0000-7000-8000-000000000000');
      for (const method of Object.keys(methods)) {
        const res = await (
          h.api() as unknown as Record<
            string,
            (u: string) => Promise<{ status: number; body: { error?: string } }>
          >
        )[method]!(url);
        expect({ method, path, error: res.body?.error ?? '' }).not.toEqual(
          expect.objectContaining({ error: expect.stringMatching(/^No route for/) }),
        );
        const security = (methods[method]?.security ?? []) as Record<string, string[]>[];
        const apiKey = security.some((s) => 'ApiKey' in s);
        const staffPage = !apiKey && security.some((s) => 'StaffSession' in s);
        const page = !path.startsWith('/api/') || staffPage;
        // API routes answer 401 without a key; every page form is refused without its CSRF token (403);
        // staff pages send the browser to sign in (303); pages with an unknown code or token answer
        // their own 404 as HTML; the token endpoint, the single sign-on start and its callback refuse an
        // empty request (400), revocation and introspection one without client authentication (401);
        // /metrics is 404 without a METRICS_TOKEN (test/metrics.test.ts scrapes it); the rest 200.
        expect({ method, path, status: res.status }).toEqual({
          method,
          path,
          status: apiKey
            ? 401
            : path === '/metrics'
              ? 404
              : ['/api/v1/auth/oauth/token', '/signin/sso/start', '/api/v1/auth/oauth/callback'].includes(
                    path,
                  )
                ? 400
                : ['/api/v1/auth/oauth/revoke', '/api/v1/auth/oauth/introspect'].includes(path)
                  ? 401
                  : page && method === 'post'
                    ? 403
                    : staffPage
                      ? 303
                      : page && path.includes('{')
                        ? 404
                        : 200,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });
});

describe('DELETE routes that take their dependants along', () => {
  it.each(['/api/v1/customers/{customerId}', '/api/v1/files/{fileId}'])(
    'when %s is read, then it declares the cascade query parameter and the 409 in the one error body',
    (path) => {
      const op = doc.paths[path]?.delete as unknown as {
        parameters: unknown[];
        responses: Record<string, { content: Record<string, { schema: unknown }> }>;
      };
      expect(op.parameters).toContainEqual(
        expect.objectContaining({
          name: 'cascade',
          in: 'query',
          required: false,
          schema: expect.objectContaining({ enum: ['true', 'false'], default: 'false' }),
        }),
      );
      const schemaOf = (status: string) => op.responses[status]?.content['application/json']?.schema;
      expect(schemaOf('409')).toHaveProperty('$ref');
      expect(schemaOf('409')).toEqual(schemaOf('404'));
    },
  );
});

describe('webhook events and the API reference', () => {
  it('when read, then the webhooks section has every event type with its schema', () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, { post: { requestBody: unknown } }> })
      .webhooks;
    expect(Object.keys(webhooks).sort()).toEqual([...eventTypes].sort());
    const body = webhooks['sessionrequest.completed']!.post.requestBody as {
      content: Record<string, { schema: { $ref: string } }>;
    };
    expect(body.content['application/json']!.schema.$ref).toBe(
      '#/components/schemas/Event_sessionrequest_completed',
    );
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/events',
        '/api/v1/webhooks',
        '/api/v1/webhooks/{webhookId}',
        '/api/v1/webhooks/{webhookId}/rotate-secret',
        '/api/v1/webhooks/{webhookId}/test',
        '/api/v1/webhooks/{webhookId}/deliveries',
        '/api/v1/webhooks/deliveries/{deliveryId}/redeliver',
      ]),
    );
  });

  it('when /docs is opened, then the reference page and its scripts come from this service, not a CDN', async () => {
    const page = await h.api().get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(4);
    for (const src of sources) {
      expect(src.startsWith('/docs/')).toBe(true);
      const asset = await h.api().get(src);
      expect({ src, status: asset.status }).toEqual({ src, status: 200 });
    }
    const init = await h.api().get('/docs/init.js');
    expect(init.text).toContain("url: '/api/v1/openapi.json'");
    expect((await h.api().get('/docs/assets/package.json')).status).toBe(404);
  });
});
