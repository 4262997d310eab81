import { createHash, verify as verifySignature } from 'node:crypto';
import forge from 'node-forge';

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

export interface SignatureReport {
  /** The signature dictionary's /Name: who signed (as the signature states it). */
  name: string | null;
  reason: string | null;
  location: string | null;
  /** When it was made: the CMS signing-time attribute, else the dictionary's /M. */
  signedAt: string | null;
  subFilter: string | null;
  /** The bytes it covers hash to the digest it signed, and that digest's signature verifies. */
  intact: boolean;
  /** What was checked and what failed, in words. */
  problems: string[];
  /** It covers the whole file as it is (nothing was appended after it). */
  coversWholeFile: boolean;
  certificate: CertificateReport | null;
}

export interface VerificationReport {
  /** The file holds at least one signature. */
  signed: boolean;
  /** Every signature is intact and the last covers the whole file. */
  valid: boolean;
  signatures: SignatureReport[];
  /** Bytes after what the last signature covers (an unsigned change, or trailing data). */
  modifiedAfterLastSignature: boolean;
}

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s*\]/g;
/** At most this many signatures are read from one file (each hashes up to the whole file). */
const MAX_SIGNATURES = 20;
/** A CMS signature in a PDF is a few kilobytes; a /Contents larger than this is not one. */
const MAX_CONTENTS_HEX = 1_000_000;

export class TooManySignatures extends Error {
  override name = 'TooManySignatures';
}

/** Reads the PDF literal string starting at `at` (an opening parenthesis): escapes, nested parentheses. */
function literalAt(text: string, at: number): string | null {
  if (text[at] !== '(') return null;
  let depth = 0;
  let out = '';
  for (let i = at; i < text.length && i < at + 4000; i++) {
    const c = text[i]!;
    if (c === '\\') {
      const next = text[i + 1] ?? '';
      const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
      if (/[0-7]/.test(next)) {
        const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1))![0];
        out += String.fromCharCode(Number.parseInt(octal, 8));
        i += octal.length;
      } else {
        out += escapes[next] ?? next;
        i++;
      }
      continue;
    }
    if (c === '(') {
      depth++;
      if (depth === 1) continue;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return decodePdfString(out);
    }
    out += c;
  }
  return null;
}

/** A PDF text string: UTF-16BE with a byte-order mark, else PDFDocEncoding (read as Latin-1). */
function decodePdfString(raw: string): string {
  if (raw.startsWith('\u00fe\u00ff')) {
    const bytes = Buffer.from(raw.slice(2), 'latin1');
    return bytes
      .subarray(0, bytes.length - (bytes.length % 2))
      .swap16()
      .toString('utf16le');
  }
  return raw;
}

/** The value of `/Key (string)` or `/Key /Name` in a piece of a signature dictionary. */
function entry(dict: string, key: string): string | null {
  const at = dict.search(new RegExp(`/${key}\\s*[(/]`));
  if (at < 0) return null;
  const start = dict.indexOf(key, at) + key.length;
  const rest = dict.slice(start).trimStart();
  if (rest.startsWith('/')) return /^\/([^\s/<>[\]()]+)/.exec(rest)?.[1] ?? null;
  return literalAt(rest, 0);
}

/** `D:20260302090000Z` or `D:20260302100000+01'00'` as ISO 8601. */
function pdfDate(value: string | null): string | null {
  const m = value && /^D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(Z|[+-]\d{2}'?\d{2}'?)?/.exec(value);
  if (!m) return null;
  const zone = !m[7] || m[7] === 'Z' ? 'Z' : `${m[7].slice(0, 3)}:${m[7].replace(/'/g, '').slice(3, 5)}`;
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${zone}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function certificateReport(cert: forge.pki.Certificate): CertificateReport {
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes();
  const dn = (attrs: forge.pki.CertificateField[]) =>
    attrs.map((a) => `${a.shortName ?? a.name ?? a.type}=${a.value}`).join(', ');
  return {
    subject: dn(cert.subject.attributes),
    issuer: dn(cert.issuer.attributes),
    serialNumber: cert.serialNumber,
    notBefore: cert.validity.notBefore.toISOString(),
    notAfter: cert.validity.notAfter.toISOString(),
    fingerprint: createHash('sha256').update(Buffer.from(der, 'binary')).digest('hex'),
    selfSigned: cert.isIssuer(cert),
  };
}

const DIGESTS: Record<string, string> = {
  [forge.pki.oids.sha256!]: 'sha256',
  [forge.pki.oids.sha384!]: 'sha384',
  [forge.pki.oids.sha512!]: 'sha512',
  [forge.pki.oids.sha1!]: 'sha1',
};

/** Checks one CMS signature over the byte ranges it names. */
function checkSignature(
  pdf: Buffer,
  range: number[],
  hex: string,
): Omit<SignatureReport, 'name' | 'reason' | 'location' | 'subFilter' | 'coversWholeFile'> {
  const problems: string[] = [];
  const [a, b, c, d] = range as [number, number, number, number];
  let certificate: CertificateReport | null = null;
  let signedAt: string | null = null;
  try {
    const der = Buffer.from(hex.replace(/[^0-9a-fA-F]/g, ''), 'hex');
    // The placeholder is padded with zeros after the DER: read the first value, not every byte.
    const fromDer = forge.asn1.fromDer as unknown as (
      bytes: forge.util.ByteStringBuffer,
      options: object,
    ) => forge.asn1.Asn1;
    const asn1 = fromDer(forge.util.createBuffer(der.toString('binary')), { parseAllBytes: false });
    const message = forge.pkcs7.messageFromAsn1(asn1) as forge.pkcs7.PkcsSignedData & {
      rawCapture: {
        authenticatedAttributes?: forge.asn1.Asn1[];
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
    }
    const content = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
    const actual = createHash(algorithm).update(content).digest('hex');
    if (!signedDigest) problems.push('the signature names no message digest');
    else if (signedDigest !== actual) problems.push('the signed bytes were changed (digest mismatch)');
    const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attrs);
    const signedAttributes = Buffer.from(forge.asn1.toDer(set).getBytes(), 'binary');
    const publicKey = forge.pki.publicKeyToPem(cert.publicKey);
    const ok = verifySignature(
      algorithm,
      signedAttributes,
      publicKey,
      Buffer.from(message.rawCapture.signature ?? '', 'binary'),
    );
    if (!ok) problems.push('the signature does not verify with its certificate');
  } catch (err) {
    problems.push(`the signature cannot be read: ${(err as Error).message}`);
  }
  return { intact: problems.length === 0, problems, certificate, signedAt };
}

/**
 * Finds the PDF signatures of a file (each signature dictionary's /ByteRange and /Contents) and checks
 * each: the bytes it covers against its signed digest, and its CMS signature against its certificate.
 * Trust in the certificate (a chain to a known authority) is not judged here: the report gives the
 * certificate, and says when it is self-signed.
 */
export function verifyPdfSignatures(pdf: Buffer): VerificationReport {
  const text = pdf.toString('latin1');
  const signatures: SignatureReport[] = [];
  let furthest = 0;
  for (const m of text.matchAll(BYTE_RANGE)) {
    const range = m.slice(1, 5).map(Number) as [number, number, number, number];
    const [a, b, c, d] = range;
    if (a !== 0 || c < b || c + d > pdf.length || b < 2 || c - b > MAX_CONTENTS_HEX) continue;
    if (signatures.length >= MAX_SIGNATURES)
      throw new TooManySignatures(`the file holds more than ${MAX_SIGNATURES} signatures`);
    const hex = text.slice(b + 1, c - 1);
    // The dictionary's other entries sit around /ByteRange and /Contents: from its opening << to
    // /ByteRange, and from the end of /Contents to the first >> (of the dictionary or of one inside it).
    const at = m.index ?? 0;
    const open = text.lastIndexOf('<<', at);
    const after = text.slice(c, c + 2000);
    const close = after.indexOf('>>');
    const around = `${text.slice(open < 0 ? at : open, at)} ${close < 0 ? after : after.slice(0, close)}`;
    const checked = checkSignature(pdf, range, hex);
    furthest = Math.max(furthest, c + d);
    const read = (key: string) => {
      try {
        return entry(around, key);
      } catch {
        return null; // a malformed entry is only left out
      }
    };
    signatures.push({
      name: read('Name'),
      reason: read('Reason'),
      location: read('Location'),
      subFilter: read('SubFilter'),
      coversWholeFile: c + d === pdf.length,
      ...checked,
      signedAt: checked.signedAt ?? pdfDate(read('M')),
    });
  }
  // A last line end after %%EOF is not a change.
  const tail = pdf.subarray(furthest).toString('latin1').trim();
  const modified = signatures.length > 0 && tail.length > 0;
  return {
    signed: signatures.length > 0,
    valid: signatures.length > 0 && signatures.every((s) => s.intact) && !modified,
    signatures,
    modifiedAfterLastSignature: modified,
  };
}
