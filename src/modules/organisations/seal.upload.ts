import type { Request } from 'express';
import { receiveParts } from '../../platform/http/multipart';
import { PayloadTooLarge } from '../../platform/kernel/errors';
import type { UploadSeal } from './seal.schemas';
import { SEAL_MAX_BYTES, SealRefused } from './seal.service';

// The HTTP side of a seal upload from a form (the desk's page): the file and its password together.

/**
 * Reads a multipart request holding the PKCS#12 file in `file` and its password in `password` (nothing
 * else) into what setOrganisationSeal takes. A file over 64 KB is refused as the API refuses it.
 */
export async function receiveSeal(req: Request): Promise<UploadSeal> {
  try {
    const { made, fields } = await receiveParts(
      req,
      { field: 'file', maxBytes: SEAL_MAX_BYTES, fallbackName: 'seal.p12', fields: ['password'] },
      async ({ stream }) => Buffer.concat((await stream.toArray()) as Buffer[]),
      async () => undefined,
    );
    return { pkcs12: made.toString('base64'), password: fields.password ?? '' };
  } catch (err) {
    if (err instanceof PayloadTooLarge)
      throw new SealRefused('tooLarge', 'pkcs12', `must be at most ${SEAL_MAX_BYTES / 1024} KB`);
    throw err;
  }
}
