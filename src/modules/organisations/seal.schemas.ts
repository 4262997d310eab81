import { timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';

export const UploadSeal = z
  .strictObject({
    pkcs12: z.string().min(1).max(100_000).meta({
      description:
        'The PKCS#12 file (.p12/.pfx) in base64: an RSA private key, its certificate, and the chain up to the authority (recommended: it goes into every signature and the Document Security Store). At most 64 KB',
    }),
    password: z.string().max(1000).meta({ description: 'The password that opens the file' }),
  })
  .meta({ id: 'UploadSeal' });
export type UploadSeal = z.infer<typeof UploadSeal>;

export const OrganisationSeal = z
  .object({
    source: z.enum(['organisation', 'service']).meta({
      description:
        '`organisation`: its own, uploaded here; `service`: the service’s (SIGNING_CERT_P12, or the one it generated), used while the organisation has none or its own has expired',
    }),
    certificate: z.object({
      subject: z.string(),
      issuer: z.string(),
      serialNumber: z.string(),
      notBefore: timestamp,
      notAfter: timestamp,
      fingerprint: z.string().meta({ description: 'SHA-256 of the certificate (DER), hex' }),
    }),
    uploadedAt: timestamp.nullable(),
    ownSealExpiredAt: timestamp.nullable().meta({
      description:
        'When the organisation’s own seal expired, if it has one that has (`source` is then `service`): upload a new one',
    }),
    expiresInDays: z.number().int().meta({ description: 'Whole days until notAfter (negative once past)' }),
  })
  .meta({
    id: 'OrganisationSeal',
    description:
      'The certificate the organisation’s live documents are sealed with (test documents: the test seal)',
  });
export type OrganisationSeal = z.infer<typeof OrganisationSeal>;
