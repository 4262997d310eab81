import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { createOrg, createUserWithKey, type TestOrg, tenantRows } from './support/fixtures';
import { freePort, type Harness, startHarness } from './support/harness';
import { serverDatabases } from './support/server-databases';
import { processes } from './support/spawned';

/**
 * Property: whatever multipart body a client sends to the two upload routes — parts without a name or
 * with an empty one, duplicate names, no file name, names in odd encodings, missing or broken part
 * headers, bodies cut short — the answer is a 2xx or a 4xx in the spec's error shape, the process lives
 * on, and a refused upload stores nothing.
 */

const BOUNDARY = 'pRoP3rty';
const PDF = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';

/** The Content-Disposition (or its absence) a part is sent with: every shape busboy may meet. */
const disposition = fc.constantFrom(
  'form-data',
  'form-data; name=""',
  'form-data; name="file"',
  'form-data; name="file"; filename="a.pdf"',
  'form-data; name="file"; filename=""',
  'form-data; filename="a.pdf"',
  'form-data; name=""; filename="a.pdf"',
  "form-data; name*=UTF-8''f%C3%AFle; filename*=UTF-8''%E2%82%AC.pdf",
  'form-data; name="file"; filename*=bogus\'\'%ZZ%',
  'form-data; name="file"; filename="\u00e9t\u00e9.pdf"',
  'form-data; name="other"',
  'form-data; name',
  'form-data; =; ;;',
  'attachment; name="file"',
  'form-data; name="file"; filename="../../etc/passwd"',
  null,
);
const part = fc.record({
  disposition,
  contentType: fc.constantFrom('application/pdf', 'text/plain', '', null),
  content: fc.oneof(fc.constant(PDF), fc.string({ maxLength: 40 }), fc.constant('')),
});

/** A body of up to four parts, optionally cut at some point before its end. */
const body = fc
  .record({ parts: fc.array(part, { maxLength: 4 }), cut: fc.option(fc.nat(), { nil: undefined }) })
  .map(({ parts, cut }) => {
    const text = parts
      .map((p) => {
        const headers = [
          p.disposition === null ? null : `Content-Disposition: ${p.disposition}`,
          p.contentType === null ? null : `Content-Type: ${p.contentType}`,
        ].filter((line) => line !== null);
        return `--${BOUNDARY}\r\n${headers.join('\r\n')}\r\n\r\n${p.content}\r\n`;
      })
      .join('');
    const whole = Buffer.from(`${text}--${BOUNDARY}--\r\n`, 'latin1');
    return cut === undefined ? whole : whole.subarray(0, cut % (whole.length + 1));
  });

describe('multipart bodies in process', () => {
  let h: Harness;
  let org: TestOrg;
  let readOnlyKey: string;
  beforeAll(async () => {
    h = await startHarness();
    org = await createOrg(h);
    readOnlyKey = (await createUserWithKey(h, org, ['read-only'])).key;
  });
  afterAll(() => h.close());

  const storedFiles = async () =>
    (
      await tenantRows<{ n: number }>(
        h,
        org.organisationId,
        sql`select count(*)::int as n from files where organisation_id = ${org.organisationId}`,
      )
    )[0]?.n;

  it('when 300 generated multipart bodies reach the upload and verify routes, then none answers 5xx, every refusal is in the spec shape and stores nothing, and the service lives on', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('/api/v1/files', '/api/v1/files/verify'), async (raw, route) => {
        const before = await storedFiles();
        const res = await h
          .api()
          .post(route)
          .set('x-api-key', route.endsWith('verify') ? readOnlyKey : org.adminKey)
          .set('content-type', `multipart/form-data; boundary=${BOUNDARY}`)
          .send(raw);
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.body).toMatchObject({ success: false, status: res.status });
          expect(typeof res.body.error).toBe('string');
          expect(await storedFiles()).toBe(before);
        }
      }),
      {
        numRuns: 300,
        // A well-formed upload for each route among the runs, so that both outcomes are always seen.
        examples: ['/api/v1/files', '/api/v1/files/verify'].map((route) => [
          Buffer.from(
            `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n${PDF}\r\n--${BOUNDARY}--\r\n`,
          ),
          route,
        ]),
      },
    );
    // The generator reaches both outcomes, so the property is not passed by refusing everything.
    expect(seen.get(400)).toBeGreaterThan(0);
    expect((seen.get(200) ?? 0) + (seen.get(201) ?? 0)).toBeGreaterThan(0);
    expect((await h.api().get('/health')).body.status).toBe('ok');
  });

  it('when a part has no name or an empty one, then 400 names it as an unnamed part', async () => {
    for (const head of ['form-data', 'form-data; name=""', 'form-data; filename="a.pdf"']) {
      const raw = `--${BOUNDARY}\r\nContent-Disposition: ${head}\r\n\r\n${PDF}\r\n--${BOUNDARY}--\r\n`;
      const res = await h
        .api()
        .post('/api/v1/files/verify')
        .set('x-api-key', readOnlyKey)
        .set('content-type', `multipart/form-data; boundary=${BOUNDARY}`)
        .send(Buffer.from(raw));
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual(
        expect.arrayContaining([
          { field: '(unnamed part)', in: 'body', message: 'is not a known field' },
          { field: 'file', in: 'body', message: expect.stringContaining('one file in this field') },
        ]),
      );
    }
  });
});

describe('the built server', () => {
  let dir: string;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let run: ReturnType<typeof processes>;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-multipart-'));
    if (process.env.DATABASE_URL) database = await serverDatabases(process.env.DATABASE_URL).copy();
    run = processes({ dataDir: dir, databaseUrl: database?.url ?? '' });
  });
  afterAll(async () => {
    run.killAll();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Sends `raw` on a connection of its own and resolves with the whole answer. */
  const exchange = (port: number, raw: string) =>
    new Promise<string>((resolve, reject) => {
      // Written, not ended: a client that half-closes may be cut before its answer (Connection: close ends it).
      const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => {
        text += c;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });

  it('when parts without a name reach the real process, then each gets a 400 and /health still answers 200', async () => {
    const boot = run.cli(['bootstrap', '--org', 'Multipart', '--email', 'a@multipart.test', '--json']);
    expect(boot.status).toBe(0);
    const { apiKey } = JSON.parse(boot.stdout) as { apiKey: string };
    const server = await run.server(await freePort());
    for (const route of ['/api/v1/files/verify', '/api/v1/files']) {
      for (const head of ['form-data', 'form-data; name=""']) {
        const body = `--${BOUNDARY}\r\nContent-Disposition: ${head}; filename="a.pdf"\r\n\r\n${PDF}\r\n--${BOUNDARY}--\r\n`;
        const answer = await exchange(
          server.port,
          `POST ${route} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nx-api-key: ${apiKey}\r\n` +
            `content-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        expect(answer).toMatch(/^HTTP\/1.1 400 /);
        expect(answer).toContain('(unnamed part)');
      }
    }
    const health = await fetch(`${server.base}/health`);
    expect(health.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    expect(server.logs.some((line) => line.msg === 'uncaught exception; exiting')).toBe(false);
  });
});
