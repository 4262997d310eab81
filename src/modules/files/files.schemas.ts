import { cascadeParam, timestamp } from '../../platform/schemas';
import { z } from '../../platform/zod';

export const StoredFile = z
  .object({
    _id: z.string(),
    fileName: z.string(),
    contentType: z.string(),
    size: z.number().int().meta({ description: 'Bytes' }),
    sha256: z.string().meta({ description: 'SHA-256 of the content, hex' }),
    fileUrl: z.string().meta({ description: 'Relative download path: /files/downloads/<id>/<fileName>' }),
    createdAt: timestamp,
  })
  .meta({ id: 'StoredFile' });

export type StoredFile = z.infer<typeof StoredFile>;

export const DeleteFileQuery = z.object({
  cascade: cascadeParam(
    'true also deletes what holds the file: the actions using it and the actions whose own session lists it (with their sessions, versions and reports), and the campaign visitors whose session lists it (with that session; the campaign stays). Without it a file in use is a 409',
  ),
});
