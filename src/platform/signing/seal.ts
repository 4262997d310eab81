import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import signpdf from '@signpdf/signpdf';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { PDFDocument } from 'pdf-lib';
import type { SealKey } from './certificate';

export interface SealInfo {
  reason: string;
  /** Who seals (shown by PDF readers as the signer of the seal). */
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
  const doc = await PDFDocument.load(pdf);
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: info.reason,
    contactInfo: info.contactInfo,
    name: info.name,
    location: info.location,
    signingTime: info.signingTime,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'ActionDesk',
  });
  // Signing needs the classic cross-reference layout (no object streams).
  const prepared = Buffer.from(await doc.save({ useObjectStreams: false }));
  return signpdf.sign(prepared, new P12Signer(key.p12, { passphrase: key.passphrase }), info.signingTime);
}
