import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020';
import { documentedPathPattern } from '../../src/platform/http/error-handler';

/**
 * The contract test over the whole suite's traffic: every answer a test harness's app gives is checked
 * against the OpenAPI document that app serves — the status must be one the operation declares, the
 * media type one it declares for that status, and a JSON body must match the declared schema (errors
 * included). The harness fails its test file at close when any answer broke the contract, and appends
 * its counts to `$TMPDIR/actiondesk-contract.jsonl` (for the figures in a closing note).
 */

interface Seen {
  method: string;
  path: string;
  route: string | undefined;
  status: number;
  contentType: string;
  body: string | null;
}

type Operation = {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
};

const MAX_BODY = 2_000_000;

export function trafficRecorder() {
  const seen: Seen[] = [];
  /** Wraps the app's request listener: records each answer once it has been sent. */
  const wrap =
    (app: http.RequestListener): http.RequestListener =>
    (req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const keep = (chunk: unknown, encoding?: unknown) => {
        if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_BODY) return;
        const buffer = Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
        size += buffer.length;
        chunks.push(buffer);
      };
      const write = res.write.bind(res);
      const end = res.end.bind(res);
      res.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
        keep(chunk, encoding);
        return write(chunk as never, encoding as never, cb as never);
      }) as typeof res.write;
      res.end = ((chunk?: unknown, encoding?: unknown, cb?: unknown) => {
        keep(chunk, encoding);
        return end(chunk as never, encoding as never, cb as never);
      }) as typeof res.end;
      res.once('finish', () => {
        const contentType = String(res.getHeader('content-type') ?? '');
        seen.push({
          method: (req.method ?? 'GET').toLowerCase(),
          path: (req.url ?? '/').split('?')[0] ?? '/',
          route: (res as unknown as { locals?: { route?: string } }).locals?.route,
          status: res.statusCode,
          contentType,
          body: /json/.test(contentType) && size <= MAX_BODY ? Buffer.concat(chunks).toString('utf8') : null,
        });
      });
      app(req, res);
    };

  return { wrap, seen };
}

/** The compiled schemas of the worker process (see contract-validators.cjs: loaded outside jest). */
const validators = createRequire(__filename)('./contract-validators.cjs') as {
  validatorFor(key: string, documentText: () => string, ref: string, cacheDir?: string): ValidateFunction;
};

/**
 * A checker for answers against `document`: each schema is compiled (as a reference into the document)
 * the first time an answer needs it, then kept for the whole jest worker — so harnesses and test files
 * that serve the same document share the compiled schemas — and, given a `cacheDir`, kept there as code
 * for the workers and runs that come after.
 */
export function contractChecker(document: Document, cacheDir?: string) {
  const text = JSON.stringify(document);
  const key = createHash('sha256').update(text).digest('hex');
  const validator = (pointer: string[], schema: unknown) => {
    if (!schema) return null;
    const ref = `doc#/${pointer.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;
    return validators.validatorFor(key, () => text, ref, cacheDir);
  };
  const patterns = Object.keys(document.paths).map((p) => ({
    path: p,
    pattern: documentedPathPattern(p),
  }));
  const errorSchema = (document.components?.schemas as Record<string, unknown> | undefined)?.Error;

  /** Checks the recorded answers; answers the problems found (none: an empty list). */
  function check(seen: readonly Seen[]): { problems: string[]; answers: number; operations: string[] } {
    const problems: string[] = [];
    const operations = new Set<string>();
    for (const answer of seen) {
      const method = answer.method === 'head' ? 'get' : answer.method;
      const decoded = safeDecode(answer.path);
      const route =
        answer.route ??
        patterns.find((p) => p.pattern.test(decoded) && document.paths[p.path]?.[method])?.path;
      const where = `${answer.method.toUpperCase()} ${route ?? answer.path} → ${answer.status}`;
      const media = answer.contentType.split(';')[0]?.trim() ?? '';
      const operation = route ? document.paths[route]?.[method] : undefined;
      if (!operation || !route) {
        // No operation of the document: only the answers for what no route takes (404, 405), in the
        // error shape, and the API reference's own page and assets (/docs) are expected here.
        if (answer.path === '/docs' || answer.path.startsWith('/docs/')) continue;
        if (answer.status !== 404 && answer.status !== 405) {
          problems.push(`${where}: no documented operation answers this`);
          continue;
        }
        const validate = validator(['components', 'schemas', 'Error'], errorSchema);
        if (!matches(validate, answer.body))
          problems.push(`${where}: not the error shape (${explain(validate)})`);
        continue;
      }
      operations.add(`${method} ${route}`);
      const statusKey = operation.responses?.[String(answer.status)] ? String(answer.status) : 'default';
      const declared = operation.responses?.[statusKey];
      if (!declared) {
        problems.push(`${where}: status not declared (declared: ${Object.keys(operation.responses ?? {})})`);
        continue;
      }
      const content = declared.content;
      if (!content || answer.method === 'head' || answer.status === 204) continue;
      const mediaKey = Object.keys(content).find((k) => k.split(';')[0]?.trim() === media);
      const mediaDeclared = mediaKey ? content[mediaKey] : undefined;
      if (!mediaDeclared) {
        problems.push(`${where}: ${media || 'no content type'} not declared (${Object.keys(content)})`);
        continue;
      }
      if (answer.body === null || media !== 'application/json') continue;
      const validate = validator(
        ['paths', route, method, 'responses', statusKey, 'content', mediaKey as string, 'schema'],
        mediaDeclared.schema,
      );
      if (!matches(validate, answer.body))
        problems.push(`${where}: body does not match (${explain(validate)})`);
    }
    return { problems, answers: seen.length, operations: [...operations] };
  }

  return { check };
}

function safeDecode(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

function matches(validate: ValidateFunction | null, body: string | null): boolean {
  if (!validate || body === null) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  return validate(parsed) === true;
}

function explain(validate: ValidateFunction | null): string {
  return (validate?.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message}`)
    .join('; ');
}

/** Appends one harness's figures, for the suite's totals. */
export function reportContract(figures: {
  file: string;
  answers: number;
  operations: string[];
  problems: number;
}) {
  fs.appendFileSync(path.join(os.tmpdir(), 'actiondesk-contract.jsonl'), `${JSON.stringify(figures)}\n`);
}
