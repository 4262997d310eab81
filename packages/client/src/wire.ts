import type { FilePart, OperationSpec } from './spec.js';

type QueryValue = string | number | boolean | Date | null | undefined | readonly (string | number)[];

/** The call's URL: the path with its parameters filled in, and the query without unset values. */
export function urlOf(
  baseUrl: string,
  spec: OperationSpec,
  input: { path?: Record<string, string>; query?: object },
) {
  const path = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = input.path?.[name];
    if (typeof value !== 'string' || value === '') throw new TypeError(`${spec.id}: ${name} is required`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, QueryValue>)) {
    if (value === undefined || value === null) continue;
    // The service takes a list as one comma-separated value (a parameter given twice is refused).
    const text =
      value instanceof Date ? value.toISOString() : Array.isArray(value) ? value.join(',') : String(value);
    query.set(name, text);
  }
  const search = query.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

/** The request body for the operation's kind, setting its Content-Type in `headers` (not for multipart). */
export function bodyOf(spec: OperationSpec, body: unknown, headers: Record<string, string>) {
  if (spec.body === null || body === undefined) return undefined;
  if (spec.body === 'json') {
    headers['content-type'] = 'application/json';
    return JSON.stringify(body);
  }
  const fields = Object.entries(body as Record<string, unknown>).filter(
    ([, v]) => v !== undefined && v !== null,
  );
  if (spec.body === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return new URLSearchParams(fields.map(([k, v]): [string, string] => [k, String(v)])).toString();
  }
  // Made again for every attempt, from the same bytes: a retry sends the same file under the same name.
  const form = new FormData();
  for (const [name, value] of fields) {
    if (isFilePart(value)) form.append(name, blobOf(value), value.name);
    else form.append(name, String(value));
  }
  return form;
}

function isFilePart(value: unknown): value is FilePart {
  return typeof value === 'object' && value !== null && 'data' in value && 'name' in value;
}

function blobOf(part: FilePart): Blob {
  const type = part.type ?? (/\.pdf$/i.test(part.name) ? 'application/pdf' : 'application/octet-stream');
  if (part.data instanceof Blob) return part.type ? new Blob([part.data], { type }) : part.data;
  return new Blob([part.data], { type });
}
