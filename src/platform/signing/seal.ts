import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type { SealKey } from './certificate';
import { pdfLib, signpdf as signing } from './pdf-libraries';

export interface SealInfo {
  reason: string;
  /** Who signs (shown by PDF readers as the signer); plain ASCII. */
  name: string;
  location: string;
  contactInfo: string;
  signingTime: Date;
}

/**
 * Seals a whole PDF with a CMS signature (`ETSI.CAdES.detached`) made with `key`: any later change to
 * the file breaks it, which any PDF reader or `pdfsig` shows. Pages are not changed; the signature is
 * invisible (what the signer sees is drawn on the pages before sealing).
 */
export async function sealPdf(pdf: Uint8Array, key: SealKey, info: SealInfo): Promise<Buffer> {
  // Signing appends to the file, which needs the classic cross-reference layout (no object streams).
  const plain = Buffer.from(await (await pdfLib().PDFDocument.load(pdf)).save({ useObjectStreams: false }));
  return addSignature(plain, key, info);
}

/**
 * Appends one more signature to a PDF written by sealPdf or by this function, as an incremental update:
 * the earlier signatures cover the file as it was and stay valid; the new one covers all of it.
 */
export function addSignature(pdf: Buffer, key: SealKey, info: SealInfo): Promise<Buffer> {
  const { signpdf, plainAddPlaceholder, P12Signer } = signing();
  const prepared = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: info.reason,
    contactInfo: info.contactInfo,
    name: info.name,
    location: info.location,
    signingTime: info.signingTime,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'ActionDesk',
  });
  return signpdf.sign(prepared, new P12Signer(key.p12, { passphrase: key.passphrase }), info.signingTime);
}
