import { createHash, verify as verifySignature } from 'node:crypto';
import forge from 'node-forge';
import { factsOf } from './certificate';
import { cmsLibraries, firstValue, OID } from './cms';
import { checkToken } from './tsa';

export interface CertificateReport {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  /** SHA-256 of the certificate (DER), hex. */
  fingerprint: string;
  selfSigned: boolean;
}

/** A trusted timestamp (RFC 3161) found on a signature, or the document timestamp itself. */
export interface TimestampReport {
  /** The authority's time. */
  time: string;
  /** Who stamped: the common name of the authority's certificate. */
  authority: string;
  /** The token's signature verifies and it stamps what it should. */
  intact: boolean;
}

export interface CheckedCms {
  intact: boolean;
  problems: string[];
  certificate: CertificateReport | null;
  /** The CMS signing-time attribute (not in PAdES, whose claimed time is /M). */
  signedAt: string | null;
  /** The signing-certificate-v2 attribute binds the certificate (PAdES baseline). */
  boundCertificate: boolean;
  timestamp: TimestampReport | null;
}

function certificateReport(cert: forge.pki.Certificate): CertificateReport {
  const facts = factsOf(cert);
  return {
    ...facts,
    notBefore: facts.notBefore.toISOString(),
    notAfter: facts.notAfter.toISOString(),
    selfSigned: cert.isIssuer(cert),
  };
}

const DIGESTS: Record<string, string> = {
  [forge.pki.oids.sha256!]: 'sha256',
  [forge.pki.oids.sha384!]: 'sha384',
  [forge.pki.oids.sha512!]: 'sha512',
  [forge.pki.oids.sha1!]: 'sha1',
};

/**
 * The SHA-256 certificate hash a signing-certificate-v2 value names (its first ESSCertIDv2), or null when
 * it names another algorithm (then it is not checked here).
 */
function essCertHash(value: forge.asn1.Asn1): string | null {
  const certs = (value.value as forge.asn1.Asn1[])[0];
  const first = (certs?.value as forge.asn1.Asn1[] | undefined)?.[0];
  const parts = (first?.value as forge.asn1.Asn1[] | undefined) ?? [];
  let i = 0;
  if (parts[0]?.type === forge.asn1.Type.SEQUENCE) {
    const algorithm = forge.asn1.derToOid((parts[0].value as forge.asn1.Asn1[])[0]!.value as string);
    if (algorithm !== forge.pki.oids.sha256) return null;
    i = 1;
  }
  const hash = parts[i];
  return hash ? Buffer.from(hash.value as string, 'binary').toString('hex') : null;
}

/** Checks one CMS signature (adbe.pkcs7.detached or ETSI.CAdES.detached) over the bytes it covers. */
export async function checkCms(der: Buffer, content: Buffer): Promise<CheckedCms> {
  const problems: string[] = [];
  let certificate: CertificateReport | null = null;
  let signedAt: string | null = null;
  let boundCertificate = false;
  let timestamp: TimestampReport | null = null;
  try {
    // The placeholder is padded with zeros after the DER: read the first value, not every byte.
    const fromDer = forge.asn1.fromDer as unknown as (
      bytes: forge.util.ByteStringBuffer,
      options: object,
    ) => forge.asn1.Asn1;
    const asn1 = fromDer(forge.util.createBuffer(der.toString('binary')), { parseAllBytes: false });
    const message = forge.pkcs7.messageFromAsn1(asn1) as forge.pkcs7.PkcsSignedData & {
      rawCapture: {
        authenticatedAttributes?: forge.asn1.Asn1[];
        unauthenticatedAttributes?: forge.asn1.Asn1[];
        signature?: string;
        digestAlgorithm?: string;
      };
    };
    const cert = message.certificates[0];
    if (!cert) throw new Error('the signature carries no certificate');
    certificate = certificateReport(cert);
    const attrs = message.rawCapture.authenticatedAttributes ?? [];
    const digestOid = forge.asn1.derToOid(message.rawCapture.digestAlgorithm ?? '');
    const algorithm = DIGESTS[digestOid];
    if (!algorithm) throw new Error(`unknown digest algorithm ${digestOid}`);
    let signedDigest: string | undefined;
    for (const attr of attrs) {
      const values = attr.value as forge.asn1.Asn1[];
      const oid = forge.asn1.derToOid(values[0]!.value as string);
      const first = (values[1]!.value as forge.asn1.Asn1[])[0]!;
      if (oid === forge.pki.oids.messageDigest)
        signedDigest = Buffer.from(first.value as string, 'binary').toString('hex');
      if (oid === forge.pki.oids.signingTime)
        signedAt = forge.asn1.utcTimeToDate(first.value as string).toISOString();
      if (oid === OID.signingCertificateV2) {
        const named = essCertHash(first);
        if (named !== null && named !== certificate.fingerprint)
          problems.push('the signing-certificate-v2 attribute names another certificate');
        else boundCertificate = true;
      }
    }
    const actual = createHash(algorithm).update(content).digest('hex');
    if (!signedDigest) problems.push('the signature names no message digest');
    else if (signedDigest !== actual) problems.push('the signed bytes were changed (digest mismatch)');
    const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attrs);
    const signedAttributes = Buffer.from(forge.asn1.toDer(set).getBytes(), 'binary');
    const signatureValue = Buffer.from(message.rawCapture.signature ?? '', 'binary');
    const publicKey = forge.pki.publicKeyToPem(cert.publicKey);
    if (!verifySignature(algorithm, signedAttributes, publicKey, signatureValue))
      problems.push('the signature does not verify with its certificate');
    // Only a signature with unsigned attributes can hold a timestamp: the others are not parsed again.
    if (message.rawCapture.unauthenticatedAttributes?.length)
      timestamp = await signatureTimestamp(der, signatureValue, problems);
  } catch (err) {
    problems.push(`the signature cannot be read: ${(err as Error).message}`);
  }
  return { intact: problems.length === 0, problems, certificate, signedAt, boundCertificate, timestamp };
}

/** The signature-time-stamp on the signature value (PAdES B-T), checked; null when there is none. */
async function signatureTimestamp(
  der: Buffer,
  signatureValue: Buffer,
  problems: string[],
): Promise<TimestampReport | null> {
  const { pkijs, asn1js } = await cmsLibraries();
  const info = new pkijs.ContentInfo({ schema: firstValue(asn1js, der) });
  const signer = new pkijs.SignedData({ schema: info.content }).signerInfos[0];
  const attribute = signer?.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStamp);
  const token = attribute?.values[0];
  if (!token) return null;
  try {
    const checked = await checkToken(new Uint8Array(token.toBER(false)), signatureValue);
    return { time: checked.token.time.toISOString(), authority: checked.token.authority, intact: true };
  } catch (err) {
    problems.push(`the signature's timestamp does not verify: ${(err as Error).message}`);
    return { time: '', authority: 'unknown', intact: false };
  }
}

/** Checks a document timestamp (/SubFilter /ETSI.RFC3161): a timestamp token over the bytes it covers. */
export async function checkDocumentTimestamp(der: Buffer, content: Buffer): Promise<CheckedCms> {
  try {
    const { token } = await checkToken(der, content);
    const signer = token.signer
      ? forge.pki.certificateFromAsn1(forge.asn1.fromDer(token.signer.toString('binary')))
      : null;
    return {
      intact: true,
      problems: [],
      certificate: signer ? certificateReport(signer) : null,
      signedAt: token.time.toISOString(),
      boundCertificate: true,
      timestamp: { time: token.time.toISOString(), authority: token.authority, intact: true },
    };
  } catch (err) {
    return {
      intact: false,
      problems: [`the document timestamp does not verify: ${(err as Error).message}`],
      certificate: null,
      signedAt: null,
      boundCertificate: false,
      timestamp: null,
    };
  }
}
