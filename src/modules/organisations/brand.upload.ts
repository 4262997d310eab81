import type { Request } from 'express';
import { receiveFile } from '../../platform/http/multipart';
import { BadRequest, PayloadTooLarge } from '../../platform/kernel/errors';
import { LOGO_MAX_BYTES } from './logo';

// The HTTP side of a logo upload (a router's helper, for the API and the desk alike).

/**
 * Reads a request that holds one file in the multipart field `file` (nothing else) into memory: at most
 * 200 KB, a larger one is a 400 naming the field (what the file is, is checked by setLogo).
 */
export async function receiveLogo(req: Request): Promise<Buffer> {
  try {
    return await receiveFile(
      req,
      { field: 'file', maxBytes: LOGO_MAX_BYTES, fallbackName: 'logo' },
      async ({ stream }) => Buffer.concat((await stream.toArray()) as Buffer[]),
      async () => undefined,
    );
  } catch (err) {
    if (err instanceof PayloadTooLarge)
      throw BadRequest.field('file', `must be at most 200 KB (${LOGO_MAX_BYTES} bytes)`);
    throw err;
  }
}
