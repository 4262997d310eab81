// Real HTTP peers on 127.0.0.1 for the client's retry tests: a proxy in front of the service that can lose
// or replace an answer, and a scripted server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with a request: pass it, or forward it and then lose or replace the answer. */
export type ProxyBehaviour = 'pass' | 'drop after forwarding' | '503 after forwarding' | '503 instead';

export interface SeenRequest {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

function unavailable(res: http.ServerResponse) {
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', 'x-request-id': 'proxy-503' });
  res.end(
    JSON.stringify({
      success: false,
      error: 'Service unavailable',
      status: 503,
      details: [],
      requestId: 'proxy-503',
    }),
  );
}

async function listen(server: http.Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A proxy to `target` that follows `plan` for the next requests (then passes them), recording each. */
export async function startProxy(target: string) {
  const seen: SeenRequest[] = [];
  const plan: ProxyBehaviour[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const key = req.headers['idempotency-key'];
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      idempotencyKey: typeof key === 'string' ? key : undefined,
    });
    const behaviour = plan.shift() ?? 'pass';
    if (behaviour === '503 instead') return unavailable(res);
    const headers = Object.entries(req.headers).flatMap(([k, v]) =>
      HOP_BY_HOP.has(k) || v === undefined ? [] : [[k, String(v)] as [string, string]],
    );
    const answer = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await answer.arrayBuffer());
    // The service did the work; the client never learns of it.
    if (behaviour === 'drop after forwarding') return req.socket.destroy();
    if (behaviour === '503 after forwarding') return unavailable(res);
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => !HOP_BY_HOP.has(k))));
    res.end(body);
  });
  return { ...(await listen(server)), seen, plan };
}

/** A step of a scripted server: an answer, a connection closed without one, or no answer at all. */
export type Scripted =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | 'close'
  | 'hang';

/** A server that answers its requests as `script` says, in order (then 500), recording their paths. */
export async function startScriptedServer(script: Scripted[]) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    const step = script.shift() ?? { status: 500, body: { success: false, error: 'script ended' } };
    if (step === 'close') return req.socket.destroy();
    if (step === 'hang') return;
    res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
    res.end(JSON.stringify(step.body ?? {}));
  });
  return { ...(await listen(server)), seen };
}
