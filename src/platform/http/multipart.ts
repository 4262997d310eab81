import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Request } from 'express';
import { BadRequest, type FieldError, PayloadTooLarge, UnsupportedMediaType } from '../kernel/errors';
import { invalid } from './validation';

export interface IncomingFile {
  /** The client's name for the file, reduced to a plain file name. */
  fileName: string;
  stream: Readable;
}

/** A client's file name without directories, control characters or surrounding space. */
function plainFileName(name: string, fallback: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const clean = Array.from(base)
    .filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return code > 0x1f && code !== 0x7f; // no control characters
    })
    .join('')
    .trim()
    .slice(0, 200);
  return clean === '' || clean === '.' || clean === '..' ? fallback : clean;
}

/** A text field sent beside the file is at most this long (a password, a name), in UTF-8. */
export const FIELD_MAX_BYTES = 4096;

interface ReceiveOptions {
  field: string;
  maxBytes: number;
  fallbackName: string;
  /** The text fields that may come beside the file (each once, at most FIELD_MAX_BYTES). */
  fields?: readonly string[];
}

/**
 * Reads a multipart/form-data request that holds exactly one file, in `field`, and nothing else, handing
 * the file's stream to `consume` as it arrives (nothing is buffered whole). Resolves with what `consume`
 * made only once the whole body has been read and found to hold nothing more; any other part (a field,
 * a second file) is a 400 naming it, and what `consume` made is handed to `discard`. A file over
 * `maxBytes` fails the stream with 413, so `consume` must clean up after a failed stream.
 */
export async function receiveFile<T>(
  req: Request,
  opts: Omit<ReceiveOptions, 'fields'>,
  consume: (file: IncomingFile) => Promise<T>,
  discard: (made: T) => Promise<void>,
): Promise<T> {
  return (await receiveParts(req, opts, consume, discard)).made;
}

/**
 * As receiveFile, with the named text fields `opts.fields` allowed beside the file (in any order, each
 * at most once): resolves with what `consume` made and the fields' values (a field not sent is absent).
 */
export function receiveParts<T>(
  req: Request,
  opts: ReceiveOptions,
  consume: (file: IncomingFile) => Promise<T>,
  discard: (made: T) => Promise<void>,
): Promise<{ made: T; fields: Partial<Record<string, string>> }> {
  const missingMessage = 'a multipart/form-data body with one file in this field is required';
  const missing = () => BadRequest.field(opts.field, missingMessage);
  if (!req.is('multipart/form-data')) {
    return Promise.reject(
      new UnsupportedMediaType(
        `Send the file as multipart/form-data with one file in the field '${opts.field}'`,
      ),
    );
  }
  const allowed = new Set(opts.fields ?? []);
  const values: Partial<Record<string, string>> = {};
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8', // browsers send UTF-8 file names unencoded
        limits: { files: 5, fileSize: opts.maxBytes, fields: 20, parts: 25, fieldSize: FIELD_MAX_BYTES },
      });
    } catch {
      reject(missing());
      return;
    }
    let current: Readable | null = null;
    let consuming: Promise<T> | null = null;
    let settled = false;
    const extras: FieldError[] = [];
    /** Settles once: on a failure, the file stream stops and whatever was made is discarded. */
    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      if (err && current && !current.destroyed) current.destroy(err);
      if (!err && extras.length === 0 && consuming) {
        consuming.then((made) => resolve({ made, fields: values }), reject);
        return;
      }
      const problems: FieldError[] = consuming
        ? extras
        : [...extras, { field: opts.field, in: 'body', message: missingMessage }];
      const failure = err ?? invalid('body', problems);
      // Stop parsing, but read (and drop) the rest of the body so the answer reaches the client.
      req.unpipe(parser);
      req.resume();
      if (!consuming) {
        reject(failure);
        return;
      }
      consuming.then(
        (made) => discard(made).then(() => reject(failure), reject),
        () => reject(failure),
      );
    };
    // A body that stops before its closing boundary, or a client that goes away mid-upload, fails the
    // file stream, so that whoever consumes it stops and cleans up instead of waiting for ever.
    req.on('close', () => {
      if (!req.complete) finish(BadRequest.field(opts.field, 'the upload was interrupted'));
    });
    /**
     * The parser's listeners run outside the request's promise chain, where a throw would end the
     * process: every one goes through here, so a throw fails this request instead.
     */
    const guarded =
      <A extends unknown[]>(listener: (...args: A) => void) =>
      (...args: A) => {
        try {
          listener(...args);
        } catch (err) {
          finish(err instanceof Error ? err : new Error(String(err)));
        }
      };
    // Every value below comes from the client's part headers: a part may have no name, an empty one,
    // or no file name, and busboy passes on what it found (undefined included).
    parser.on(
      'file',
      guarded((name: unknown, stream: Readable, info: { filename?: unknown } | undefined) => {
        // Errors are handled by the consumer's pipeline; this listener only keeps an error raised before
        // the consumer attaches its own from reaching the process as an uncaught exception.
        stream.on('error', () => undefined);
        if (name !== opts.field || consuming) {
          extras.push({
            field: plainFieldName(name),
            in: 'body',
            message: name === opts.field ? 'only one file is accepted' : 'is not a known field',
          });
          stream.resume();
          return;
        }
        current = stream;
        stream.on('limit', () => {
          stream.destroy(new PayloadTooLarge(`File too large: the limit is ${opts.maxBytes} bytes`));
        });
        const fileName = typeof info?.filename === 'string' ? info.filename : '';
        consuming = consume({ fileName: plainFileName(fileName, opts.fallbackName), stream });
        // A failed store ends the request at once (the rest of the body is not worth reading).
        consuming.catch((err: Error) => finish(err));
      }),
    );
    parser.on(
      'field',
      guarded((name: unknown, value: unknown, info: { valueTruncated?: unknown } | undefined) => {
        const known = typeof name === 'string' && allowed.has(name);
        let message = 'is not a known field';
        if (known && Object.hasOwn(values, name)) message = 'only one value is accepted';
        else if (known && info?.valueTruncated) message = `must be at most ${FIELD_MAX_BYTES} bytes`;
        else if (known && typeof value === 'string') {
          values[name] = value;
          return;
        }
        extras.push({ field: plainFieldName(name), in: 'body', message });
      }),
    );
    for (const event of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(event, () =>
        finish(BadRequest.field(opts.field, 'the body has too many parts: send one file')),
      );
    }
    parser.on('error', () =>
      finish(BadRequest.field(opts.field, 'the multipart body is malformed or ends early')),
    );
    parser.on('close', () => finish(null));
    req.pipe(parser);
  });
}

/** A part's name as a client sent it (if it sent one), bounded, for an error message. */
function plainFieldName(name: unknown): string {
  return (typeof name === 'string' ? name.slice(0, 100) : '') || '(unnamed part)';
}
