import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Request } from 'express';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from '../errors';

export interface IncomingFile {
  /** The client's name for the file, reduced to a plain file name. */
  fileName: string;
  stream: Readable;
}

/** A client's file name without directories, control characters or surrounding space. */
export function plainFileName(name: string, fallback: string): string {
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

/**
 * Reads a multipart/form-data request with exactly one file in `field` and hands its stream to
 * `consume` as it arrives (nothing is buffered whole). A file over `maxBytes` fails the stream with
 * 413, so `consume` must clean up after a failed stream.
 */
export function receiveFile<T>(
  req: Request,
  opts: { field: string; maxBytes: number; fallbackName: string },
  consume: (file: IncomingFile) => Promise<T>,
): Promise<T> {
  const missing = () =>
    BadRequest.field(opts.field, 'a multipart/form-data body with one file in this field is required');
  if (!req.is('multipart/form-data')) {
    return Promise.reject(
      new UnsupportedMediaType(
        `Send the file as multipart/form-data with one file in the field '${opts.field}'`,
      ),
    );
  }
  return new Promise<T>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8', // browsers send UTF-8 file names unencoded
        limits: { files: 1, fileSize: opts.maxBytes, fields: 10 },
      });
    } catch {
      reject(missing());
      return;
    }
    let handled = false;
    let current: Readable | null = null;
    const malformed = () => BadRequest.field(opts.field, 'the multipart body is malformed or ends early');
    // A body that stops before its closing boundary, or a client that goes away mid-upload, fails the
    // file stream, so that whoever consumes it stops and cleans up instead of waiting for ever.
    const fail = (err: Error) => {
      if (current && !current.destroyed) current.destroy(err);
      reject(err);
    };
    req.on('close', () => {
      if (!req.complete) fail(BadRequest.field(opts.field, 'the upload was interrupted'));
    });
    parser.on('file', (name, stream, info) => {
      // Errors are handled by the consumer's pipeline; this listener only keeps an error raised before
      // the consumer attaches its own from reaching the process as an uncaught exception.
      stream.on('error', () => undefined);
      if (name !== opts.field || handled) {
        stream.resume();
        return;
      }
      handled = true;
      current = stream;
      stream.on('limit', () => {
        stream.destroy(new PayloadTooLarge(`File too large: the limit is ${opts.maxBytes} bytes`));
      });
      consume({ fileName: plainFileName(info.filename ?? '', opts.fallbackName), stream }).then(
        resolve,
        (err) => {
          // Stop parsing, but read (and drop) the rest of the body so the answer reaches the client.
          req.unpipe(parser);
          req.resume();
          reject(err);
        },
      );
    });
    parser.on('error', () => fail(malformed()));
    parser.on('close', () => {
      if (!handled) reject(missing());
    });
    req.pipe(parser);
  });
}
