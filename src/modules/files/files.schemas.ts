import { cascadeParam, timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';

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

const CertificateReport = z
  .object({
    subject: z.string(),
    issuer: z.string(),
    serialNumber: z.string(),
    notBefore: timestamp,
    notAfter: timestamp,
    fingerprint: z.string().meta({ description: 'SHA-256 of the certificate (DER), hex' }),
    selfSigned: z.boolean(),
    thisService: z.boolean().meta({
      description:
        'The certificate is this service’s seal (SIGNING_CERT_P12, or the one it generated), or its test seal',
    }),
    testSeal: z.boolean().meta({
      description: 'The certificate is this service’s test seal: the document was signed in test mode',
    }),
  })
  .meta({ id: 'SignatureCertificate' });

export const Verification = z
  .object({
    signed: z.boolean().meta({ description: 'The file holds at least one PDF signature' }),
    valid: z.boolean().meta({
      description: 'Every signature is intact and the last one covers the whole file',
    }),
    modifiedAfterLastSignature: z.boolean(),
    livemode: z.boolean().meta({
      description:
        'False when a signature was made with this service’s test seal: a document signed in test mode, with no legal value (see docs/test-mode.md)',
    }),
    signatures: z.array(
      z.object({
        name: z.string().nullable().meta({ description: 'Who signed, as the signature states it' }),
        reason: z.string().nullable(),
        location: z.string().nullable(),
        signedAt: timestamp.nullable(),
        subFilter: z.string().nullable().meta({ description: 'e.g. ETSI.CAdES.detached' }),
        intact: z.boolean().meta({
          description:
            'The bytes it covers are unchanged and its CMS signature verifies with its certificate',
        }),
        coversWholeFile: z.boolean(),
        problems: z.array(z.string()).meta({ description: 'What failed, in words (empty when intact)' }),
        certificate: CertificateReport.nullable(),
      }),
    ),
  })
  .meta({
    id: 'Verification',
    description:
      'What the PDF’s signatures prove. The trust of a certificate (a chain to a known authority) is not judged: the certificate is given, with whether it is self-signed and whether it is this service’s seal.',
  });
export type Verification = z.infer<typeof Verification>;
