import type { PadesLevel } from './pades';
import {
  dssOffset,
  onlyValidationData,
  type ValidationDataReport,
  validationDataIn,
} from './validation-data';
import {
  type CertificateReport,
  type CheckedCms,
  checkCms,
  checkDocumentTimestamp,
  type TimestampReport,
} from './verify-cms';

export type { CertificateReport, TimestampReport, ValidationDataReport };

export interface SignatureReport {
  /** A signature, or a document timestamp (PAdES B-LTA: a timestamp token over the whole file before it). */
  kind: 'signature' | 'document-timestamp';
  /** The signature dictionary's /Name: who signed (as the signature states it); a timestamp's authority. */
  name: string | null;
  reason: string | null;
  location: string | null;
  /** When it was made: the CMS signing-time attribute, else the dictionary's /M; a timestamp's time. */
  signedAt: string | null;
  subFilter: string | null;
  /** The bytes it covers hash to the digest it signed, and that digest's signature verifies. */
  intact: boolean;
  /** What was checked and what failed, in words. */
  problems: string[];
  /** It covers the whole file as it is (nothing was appended after it). */
  coversWholeFile: boolean;
  certificate: CertificateReport | null;
  /** Its PAdES baseline level alone: B-B (its certificate bound in), B-T (and a timestamp); else null. */
  level: 'B-B' | 'B-T' | null;
  /** The trusted timestamp on it (B-T), or of a document timestamp, itself. */
  timestamp: TimestampReport | null;
}

export interface VerificationReport {
  /** The file holds at least one signature. */
  signed: boolean;
  /** Every signature is intact and the last covers the whole file (or is followed only by validation data). */
  valid: boolean;
  signatures: SignatureReport[];
  /** Bytes after what the last signature covers (an unsigned change, or trailing data). */
  modifiedAfterLastSignature: boolean;
  /** The PAdES baseline level of the file as a whole (null: not PAdES), and its validation data. */
  pades: { level: PadesLevel | null; validationData: ValidationDataReport };
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

/**
 * Finds the PDF signatures of a file (each signature dictionary's /ByteRange and /Contents) and checks
 * each: the bytes it covers against its signed digest, its CMS signature against its certificate, and
 * its timestamp; a document timestamp's token against the bytes it covers. Trust in a certificate (a
 * chain to a known authority) is not judged here: the report gives the certificate, and says when it is
 * self-signed.
 */
export async function verifyPdfSignatures(pdf: Buffer): Promise<VerificationReport> {
  const text = pdf.toString('latin1');
  const signatures: (SignatureReport & { end: number })[] = [];
  let furthest = 0;
  for (const m of text.matchAll(BYTE_RANGE)) {
    const range = m.slice(1, 5).map(Number) as [number, number, number, number];
    const [a, b, c, d] = range;
    if (a !== 0 || c < b || c + d > pdf.length || b < 2 || c - b > MAX_CONTENTS_HEX) continue;
    if (signatures.length >= MAX_SIGNATURES)
      throw new TooManySignatures(`the file holds more than ${MAX_SIGNATURES} signatures`);
    const der = Buffer.from(text.slice(b + 1, c - 1).replace(/[^0-9a-fA-F]/g, ''), 'hex');
    // The dictionary's other entries sit around /ByteRange and /Contents: from its opening << to
    // /ByteRange, and from the end of /Contents to the first >> (of the dictionary or of one inside it).
    const at = m.index ?? 0;
    const open = text.lastIndexOf('<<', at);
    const after = text.slice(c, c + 2000);
    const close = after.indexOf('>>');
    const around = `${text.slice(open < 0 ? at : open, at)} ${close < 0 ? after : after.slice(0, close)}`;
    const read = (key: string) => {
      try {
        return entry(around, key);
      } catch {
        return null; // a malformed entry is only left out
      }
    };
    const subFilter = read('SubFilter');
    const content = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
    const stamp = subFilter === 'ETSI.RFC3161';
    const checked: CheckedCms = stamp
      ? await checkDocumentTimestamp(der, content)
      : await checkCms(der, content);
    furthest = Math.max(furthest, c + d);
    signatures.push({
      kind: stamp ? 'document-timestamp' : 'signature',
      name: stamp ? (checked.timestamp?.authority ?? null) : read('Name'),
      reason: read('Reason'),
      location: read('Location'),
      subFilter,
      coversWholeFile: c + d === pdf.length,
      intact: checked.intact,
      problems: checked.problems,
      certificate: checked.certificate,
      signedAt: checked.signedAt ?? pdfDate(read('M')),
      level:
        stamp || subFilter !== 'ETSI.CAdES.detached' || !checked.boundCertificate
          ? null
          : checked.timestamp
            ? 'B-T'
            : 'B-B',
      timestamp: checked.timestamp,
      end: c + d,
    });
  }
  // A last line end after %%EOF is not a change, nor validation data added after the signatures (B-LT).
  const tail = pdf.subarray(furthest).toString('latin1').trim();
  const modified = signatures.length > 0 && tail.length > 0 && !onlyValidationData(pdf, furthest);
  const report = signatures.map(({ end: _, ...s }) => s);
  const validationData = validationDataIn(text);
  return {
    signed: signatures.length > 0,
    valid: signatures.length > 0 && signatures.every((s) => s.intact) && !modified,
    signatures: report,
    modifiedAfterLastSignature: modified,
    pades: { level: padesLevelOf(signatures, text, validationData), validationData },
  };
}

/**
 * The file's level: its signatures' lowest (a signature without a timestamp of its own is B-T when a
 * document timestamp covers it); B-LT when validation data follows them; B-LTA when a document
 * timestamp covers that too. Null when a signature is not a PAdES one.
 */
function padesLevelOf(
  signatures: (SignatureReport & { end: number })[],
  text: string,
  validationData: ValidationDataReport,
): PadesLevel | null {
  const signed = signatures.filter((s) => s.kind === 'signature');
  const stamps = signatures.filter((s) => s.kind === 'document-timestamp');
  if (signed.length === 0 || signed.some((s) => s.level === null)) return null;
  const lastSignature = Math.max(...signed.map((s) => s.end));
  const timed = signed.every((s) => s.level === 'B-T') || stamps.some((t) => t.end > lastSignature);
  if (!timed) return 'B-B';
  const dss = dssOffset(text);
  if (dss < lastSignature || !validationData.embedded) return 'B-T';
  return stamps.some((t) => t.end > dss) ? 'B-LTA' : 'B-LT';
}
