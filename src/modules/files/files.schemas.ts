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

const Timestamp = z
  .object({
    time: timestamp.meta({ description: 'The time-stamping authority’s time (TSTInfo genTime)' }),
    authority: z.string().meta({ description: 'The common name of the authority’s certificate' }),
    intact: z.boolean().meta({
      description:
        'The token’s signature verifies and it stamps what it covers (the signature value, or the file)',
    }),
  })
  .meta({ id: 'SignatureTimestamp', description: 'An RFC 3161 trusted timestamp' });

const PadesLevel = z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']);

export const Verification = z
  .object({
    signed: z.boolean().meta({ description: 'The file holds at least one PDF signature' }),
    valid: z.boolean().meta({
      description:
        'Every signature is intact and the last one covers the whole file (or is followed only by validation data: PAdES B-LT)',
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
        kind: z.enum(['signature', 'document-timestamp']).meta({
          description:
            'A signature, or a document timestamp (PAdES B-LTA: a timestamp over the whole file before it; its name and certificate are the authority’s)',
        }),
        level: z.enum(['B-B', 'B-T']).nullable().meta({
          description:
            'This signature’s PAdES baseline level alone: B-B (ETSI.CAdES.detached with its certificate bound by signing-certificate-v2), B-T (and a trusted timestamp on it); null when it is not a PAdES signature, or is a document timestamp',
        }),
        timestamp: Timestamp.nullable().meta({
          description: 'The trusted timestamp on the signature (B-T); for a document timestamp, itself',
        }),
      }),
    ),
    pades: z
      .object({
        level: PadesLevel.nullable().meta({
          description:
            'The PAdES baseline level of the file (ETSI EN 319 142-1): B-B, B-T (every signature timestamped, or a document timestamp after them), B-LT (and validation data embedded after them), B-LTA (and a document timestamp over that). Null when a signature is not a PAdES one (e.g. adbe.pkcs7.detached) or there is none. Says what the file holds; whether it is valid is `valid`',
        }),
        validationData: z
          .object({
            embedded: z.boolean().meta({
              description: 'The file has a Document Security Store with validation data',
            }),
            certificates: z.number().int(),
            crls: z.number().int(),
            ocspResponses: z.number().int(),
          })
          .meta({ description: 'What the Document Security Store (DSS) holds' }),
      })
      .meta({ id: 'PadesReport' }),
  })
  .meta({
    id: 'Verification',
    description:
      'What the PDF’s signatures prove. The trust of a certificate (a chain to a known authority) is not judged: the certificate is given, with whether it is self-signed and whether it is this service’s seal.',
  });
export type Verification = z.infer<typeof Verification>;
