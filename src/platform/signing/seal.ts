import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type { SealKey } from './certificate';
import { openSealKey } from './cms';
import { atLeast, type PadesLevel, padesCms, type Timestamper } from './pades';
import { pdfLib, signpdf as signing } from './pdf-libraries';
import { addDocumentTimestampPlaceholder, addDss } from './pdf-update';
import { type RevocationSources, validationData } from './revocation';
import type { TimestampToken } from './tsa';

export interface SealInfo {
  reason: string;
  /** Who signs (shown by PDF readers as the signer); plain ASCII. */
  name: string;
  location: string;
  contactInfo: string;
  /** The claimed signing time: the signature dictionary's /M. */
  signingTime: Date;
}

/** How documents are sealed: the level, the time-stamping authority, and (B-LT up) revocation data. */
export interface PadesProfile extends RevocationSources {
  level: PadesLevel;
  /** The time-stamping authority: needed from B-T up. */
  stamp: Timestamper | null;
}

/**
 * A signature's /Contents: room for the CMS with the seal's chain, and with a timestamp token with its
 * own (real authorities send chains of three or four certificates). The room is in the file either way.
 */
const SIGNATURE_BYTES = { plain: 8_192, timestamped: 16_384 };
/** A document timestamp's /Contents: a token with the authority's chain. */
const TIMESTAMP_BYTES = 12_288;

export const BASIC_PROFILE: PadesProfile = {
  level: 'B-B',
  stamp: null,
  fetchCrl: () => Promise.reject(new Error('no revocation data at B-B')),
  fetchOcsp: () => Promise.reject(new Error('no revocation data at B-B')),
  now: () => new Date(),
};

/**
 * Seals a whole PDF with a PAdES signature made with `key` (see sealSignatures): any later change to the
 * file breaks it, which any PDF reader or `pdfsig` shows. Pages are not changed; the signature is
 * invisible (what the signer sees is drawn on the pages before sealing).
 */
export async function sealPdf(
  pdf: Uint8Array,
  key: SealKey,
  info: SealInfo,
  profile: PadesProfile = BASIC_PROFILE,
): Promise<Buffer> {
  // Signing appends to the file, which needs the classic cross-reference layout (no object streams).
  const plain = Buffer.from(await (await pdfLib().PDFDocument.load(pdf)).save({ useObjectStreams: false }));
  return sealSignatures(plain, key, [info], profile);
}

/**
 * One signature per entry of `signatures`, each appended to the file as it stands (an incremental update:
 * the earlier ones cover the file as it was and stay valid), at the profile's level: from B-T each
 * carries a timestamp; at B-LT the validation data of every certificate involved follows in the
 * Document Security Store; at B-LTA a document timestamp closes the file. `pdf` is written with
 * classic cross-reference tables (pdf-lib's `save({ useObjectStreams: false })`), as appending needs.
 */
export async function sealSignatures(
  pdf: Buffer,
  key: SealKey,
  signatures: SealInfo[],
  profile: PadesProfile,
): Promise<Buffer> {
  if (atLeast(profile.level, 'B-T') && !profile.stamp)
    throw new Error(`PAdES ${profile.level} needs a time-stamping authority (TSA_URL)`);
  let out = pdf;
  const opened = await openSealKey(key);
  const tokens: TimestampToken[] = [];
  const stamp = atLeast(profile.level, 'B-T') ? profile.stamp : null;
  for (const info of signatures) {
    const signed = await addSignature(out, opened, info, stamp);
    out = signed.pdf;
    if (signed.token) tokens.push(signed.token);
  }
  if (!atLeast(profile.level, 'B-LT')) return out;
  const certificates = [opened.certificate, ...opened.chain, ...tokens.flatMap((t) => t.certificates)];
  out = addDss(out, await validationData(certificates, profile));
  if (profile.level === 'B-LTA') out = await addDocumentTimestamp(out, profile.stamp!);
  return out;
}

async function addSignature(
  pdf: Buffer,
  key: Awaited<ReturnType<typeof openSealKey>>,
  info: SealInfo,
  stamp: Timestamper | null,
): Promise<{ pdf: Buffer; token: TimestampToken | null }> {
  const { signpdf, plainAddPlaceholder, Signer } = signing();
  const prepared = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: info.reason,
    contactInfo: info.contactInfo,
    name: info.name,
    location: info.location,
    signingTime: info.signingTime,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    signatureLength: stamp ? SIGNATURE_BYTES.timestamped : SIGNATURE_BYTES.plain,
    appName: 'ActionDesk',
  });
  let token: TimestampToken | null = null;
  const signer = new (class extends Signer {
    override async sign(signedBytes: Buffer): Promise<Buffer> {
      const made = await padesCms(key, signedBytes, stamp);
      token = made.token;
      return made.cms;
    }
  })();
  return { pdf: await signpdf.sign(prepared, signer), token };
}

/** A document timestamp over the whole file (B-LTA): the token itself is the /Contents. */
async function addDocumentTimestamp(pdf: Buffer, stamp: Timestamper): Promise<Buffer> {
  const { signpdf, Signer } = signing();
  const prepared = addDocumentTimestampPlaceholder(pdf, TIMESTAMP_BYTES);
  const signer = new (class extends Signer {
    override async sign(covered: Buffer): Promise<Buffer> {
      return (await stamp(covered)).der;
    }
  })();
  return signpdf.sign(prepared, signer);
}
