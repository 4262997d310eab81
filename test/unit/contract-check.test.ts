import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { contractChecker, trafficRecorder } from '../support/contract';

// The suite's contract check (test/support/contract.ts) on a small document: what it must report and
// what it must let through, so that a change to the checker cannot make it silently pass everything.

const document = {
  paths: {
    '/api/v1/things/{thingId}': {
      get: {
        responses: {
          '200': {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          default: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    },
    '/api/v1/plain': {
      get: { responses: { '200': { content: { 'text/plain': {} } } } },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['_id', 'size'],
        properties: { _id: { type: 'string' }, size: { $ref: '#/components/schemas/Size' } },
      },
      Size: { type: 'integer', minimum: 0 },
      Error: {
        type: 'object',
        required: ['success', 'error'],
        properties: { success: { const: false }, error: { type: 'string' } },
      },
    },
  },
};

type Request = { path: string; status: number; type: string; body: string };

/** Serves each request's status, type and body (found by its path and query) and checks the traffic. */
async function replay(requests: Request[], cacheDir?: string) {
  const traffic = trafficRecorder();
  const server = http.createServer(
    traffic.wrap((req, res) => {
      const wanted = requests.find((r) => req.url === r.path);
      res.statusCode = wanted?.status ?? 500;
      res.setHeader('content-type', wanted?.type ?? 'text/plain');
      res.end(wanted?.body ?? '');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    for (const r of requests) await (await fetch(`http://127.0.0.1:${port}${r.path}`)).arrayBuffer();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return contractChecker(document, cacheDir).check(traffic.seen);
}

const json = 'application/json; charset=utf-8';

describe('the contract check over recorded traffic', () => {
  it('when every answer is what the document declares, then it reports nothing', async () => {
    const result = await replay([
      { path: '/api/v1/things/a', status: 200, type: json, body: '{"_id":"a","size":3}' },
      { path: '/api/v1/things/b', status: 404, type: json, body: '{"success":false,"error":"gone"}' },
      { path: '/api/v1/plain', status: 200, type: 'text/plain', body: 'hello' },
      { path: '/nowhere', status: 404, type: json, body: '{"success":false,"error":"no route"}' },
    ]);
    expect(result).toEqual({
      problems: [],
      answers: 4,
      operations: ['get /api/v1/things/{thingId}', 'get /api/v1/plain'],
    });
  });

  it('when a body breaks a schema reached through shared components, an undeclared status, media type or route, then each is named', async () => {
    const result = await replay(broken);
    expect(result.problems).toEqual(brokenFound);
  });

  it('when the compiled schemas are kept in a directory, then a worker that loads them finds what compiling them finds', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-contract-'));
    try {
      forgetCompiled();
      expect((await replay(broken, dir)).problems).toEqual(brokenFound);
      const files = () => fs.readdirSync(dir).map((f) => [f, fs.statSync(path.join(dir, f)).ino]);
      const kept = files();
      // Thing's 200, the 409's Error (declared under `default`) and the Error of what no route takes.
      expect(kept).toHaveLength(3);
      // A new worker (nothing compiled in memory) loads the kept code: nothing is compiled and written again.
      forgetCompiled();
      expect((await replay(broken, dir)).problems).toEqual(brokenFound);
      expect(files()).toEqual(kept);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Empties the worker's validators in memory (contract-validators.cjs lives outside jest's registry). */
const forgetCompiled = () =>
  (createRequire(__filename)('../support/contract-validators.cjs') as { forget(): void }).forget();

const broken: Request[] = [
  { path: '/api/v1/things/a', status: 200, type: json, body: '{"_id":"a","size":-1}' },
  { path: '/api/v1/things/b', status: 200, type: json, body: '{"_id":"b"}' },
  { path: '/api/v1/things/c', status: 409, type: json, body: '{"success":true}' },
  { path: '/api/v1/plain', status: 201, type: 'text/plain', body: 'made' },
  { path: '/api/v1/plain?again', status: 200, type: json, body: '"hello"' },
  { path: '/nowhere', status: 200, type: json, body: '{}' },
  { path: '/missing', status: 404, type: json, body: '{"error":1}' },
];
const brokenFound = [
  'GET /api/v1/things/{thingId} → 200: body does not match (/size must be >= 0)',
  "GET /api/v1/things/{thingId} → 200: body does not match (/ must have required property 'size')",
  "GET /api/v1/things/{thingId} → 409: body does not match (/ must have required property 'error')",
  'GET /api/v1/plain → 201: status not declared (declared: 200)',
  'GET /api/v1/plain → 200: application/json not declared (text/plain)',
  'GET /nowhere → 200: no documented operation answers this',
  "GET /missing → 404: not the error shape (/ must have required property 'success')",
];
