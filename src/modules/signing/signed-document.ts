import { createHash } from 'node:crypto';
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import type { SignatureMark, SignerTrailEntry } from '../../db/schema';
import { dateTimeSeconds } from '../../i18n/dates';
import type { Language } from '../../i18n/languages';
import { type SignedDocumentTexts, signedDocumentTexts } from '../../i18n/signed-document';
import {
  asciiName,
  type CertificateFacts,
  type SealKey,
  transliterate,
} from '../../platform/signing/certificate';
import { documentFonts } from '../../platform/signing/fonts';
import { fontkit, pdfLib } from '../../platform/signing/pdf-libraries';
import { type PadesProfile, sealSignatures } from '../../platform/signing/seal';
import { embedLogo, type LogoType } from '../organisations';
import { MARGIN, muted, PageWriter, printable } from './page-writer';

export interface SignedBy {
  name: string;
  email: string | null;
  phone: string | null;
  codeChannel: 'email' | 'sms' | null;
  ip: string | null;
  userAgent: string | null;
  consent: string;
  signature: SignatureMark;
  signedAt: Date;
  trail: SignerTrailEntry[];
}

export interface SignedDocumentInput {
  original: Uint8Array;
  title: string;
  /** The organisation's own name (the audit trail, the seal's location). */
  organisation: string;
  /** What its contacts know it by: the name (and logo) on top of the signature page. */
  brand?: { name: string; logo: { contentType: LogoType; bytes: Uint8Array } | null };
  actionId: string;
  language: Language;
  timeZone: string;
  signers: SignedBy[];
  seal: { key: SealKey; certificate: CertificateFacts };
  /** The PAdES level sealed at, with the timestamp authority it needs (docs/signing.md). */
  pades: PadesProfile;
  now: Date;
  /** Signed in test mode (issue 31): every page marked, the signatures say so; sealed with the test seal. */
  test?: boolean;
}

/** What the pages share: the wording in the action's language, and an instant in UTC and local time. */
interface Pages {
  w: SignedDocumentTexts;
  when: (at: Date) => string;
}

/** The organisation as its contacts know it, on top of the signature page: its logo, then its name. */
async function writeBrand(out: PageWriter, doc: PDFDocument, input: SignedDocumentInput): Promise<void> {
  const brand = input.brand;
  if (!brand) return;
  if (brand.logo) {
    const image = await embedLogo(doc, brand.logo.contentType, brand.logo.bytes);
    const scale = Math.min(40 / image.height, 180 / image.width, 1);
    out.page.drawImage(image, {
      x: MARGIN,
      y: out.y - image.height * scale,
      width: image.width * scale,
      height: image.height * scale,
    });
    out.space(image.height * scale + 6);
  }
  out.text(printable(brand.name), { size: 14, bold: true });
  out.space(10);
}

/** The signature page: each signer's drawn or typed signature, name and time, and how they confirmed. */
async function writeSignatures(
  out: PageWriter,
  doc: PDFDocument,
  oblique: PDFFont,
  input: SignedDocumentInput,
  { w, when }: Pages,
): Promise<void> {
  await writeBrand(out, doc, input);
  out.text(w.signatures, { size: 18, bold: true });
  out.text(`${w.document}: ${printable(input.title)}`, { color: muted() });
  out.space(12);
  for (const signer of input.signers) {
    out.need(150);
    out.text(w.signedBy(printable(signer.name)), { size: 12, bold: true });
    out.space(8);
    const top = out.y;
    if (signer.signature.kind === 'drawn') {
      const image = await doc.embedPng(Buffer.from(signer.signature.png, 'base64'));
      const scale = Math.min(240 / image.width, 80 / image.height, 1);
      out.page.drawImage(image, {
        x: MARGIN,
        y: top - image.height * scale,
        width: image.width * scale,
        height: image.height * scale,
      });
      out.y = top - 80;
    } else {
      out.page.drawText(printable(signer.signature.text), {
        x: MARGIN,
        y: top - 40,
        size: 28,
        font: oblique,
        color: pdfLib().rgb(0.05, 0.15, 0.45),
      });
      out.y = top - 56;
    }
    out.page.drawLine({
      start: { x: MARGIN, y: out.y - 4 },
      end: { x: MARGIN + 260, y: out.y - 4 },
      thickness: 0.75,
      color: muted(),
    });
    out.space(8);
    out.field(w.signedOn, when(signer.signedAt));
    const to = signer.codeChannel === 'sms' ? signer.phone : signer.email;
    if (signer.codeChannel && to)
      out.text(w.confirmed[signer.codeChannel](printable(to)), { color: muted() });
    out.space(18);
  }
}

/**
 * The audit trail: the document and its original's SHA-256, each signer (who, how the code went out,
 * from where, each step), and the seal's certificate.
 */
function writeAuditTrail(
  out: PageWriter,
  input: SignedDocumentInput,
  originalPages: number,
  { w, when }: Pages,
): void {
  out.newPage();
  out.text(w.audit, { size: 18, bold: true });
  out.space(6);
  out.field(w.document, printable(input.title));
  out.field(w.organisation, printable(input.organisation));
  if (input.brand && input.brand.name !== input.organisation)
    out.field(w.shownAs, printable(input.brand.name));
  out.field(w.action, input.actionId);
  out.field(w.pages, String(originalPages));
  out.field(w.sha256, createHash('sha256').update(input.original).digest('hex'));
  for (const signer of input.signers) {
    out.space(14);
    out.need(120);
    out.text(`${w.signer}: ${printable(signer.name)}`, { size: 12, bold: true });
    if (signer.email) out.field(w.email, printable(signer.email));
    if (signer.phone) out.field(w.phone, printable(signer.phone));
    if (signer.codeChannel) out.field(w.delivery, signer.codeChannel === 'sms' ? 'SMS' : w.email);
    out.field(w.ip, signer.ip ?? '—');
    out.field(w.userAgent, printable(signer.userAgent ?? '—'));
    out.field(w.consent, printable(signer.consent));
    out.space(4);
    for (const entry of signer.trail) {
      const detail = entry.channel
        ? ` (${entry.channel === 'sms' ? 'SMS' : w.email}${entry.to ? `: ${printable(entry.to)}` : ''})`
        : '';
      out.text(
        `${w.steps[entry.step]}${detail} — ${when(new Date(entry.at))}${entry.ip ? ` — ${entry.ip}` : ''}`,
        {
          indent: 12,
        },
      );
    }
  }
  out.space(14);
  out.need(80);
  out.text(w.seal, { size: 12, bold: true });
  out.text(w.sealText);
  out.field(w.level, w.levels[input.pades.level]);
  out.field(w.subject, input.seal.certificate.subject);
  out.field(w.fingerprint, input.seal.certificate.fingerprint);
}

/** Numbers the added pages after the original's, under the document's title. */
function numberPages(
  added: PDFPage[],
  font: PDFFont,
  input: SignedDocumentInput,
  originalPages: number,
  { w }: Pages,
): void {
  added.forEach((page, i) => {
    page.drawText(
      `${printable(input.title)} — ${w.page(originalPages + i + 1, originalPages + added.length)}`,
      {
        x: MARGIN,
        y: 30,
        size: 8,
        font,
        color: muted(),
      },
    );
  });
}

/** A red band across the top of every page: a document signed in test mode proves nothing. */
function markAsTest(all: PDFPage[], font: PDFFont, mark: string): void {
  const red = pdfLib().rgb(0.75, 0.05, 0.05);
  for (const page of all) {
    const { width, height } = page.getSize();
    const size = 11;
    const text = `${mark} · ${mark}`;
    page.drawRectangle({ x: 0, y: height - 24, width, height: 24, color: pdfLib().rgb(1, 0.92, 0.92) });
    page.drawText(text, {
      x: Math.max(8, (width - font.widthOfTextAtSize(text, size)) / 2),
      y: height - 17,
      size,
      font,
      color: red,
    });
  }
}

/**
 * One PDF signature per signer, each appended to the file as it stands (incremental updates): the
 * first covers the document with its signature and audit pages, each next one all that came before.
 */
function sealForEachSigner(unsealed: Buffer, input: SignedDocumentInput): Promise<Buffer> {
  const signatures = input.signers.map((signer) => {
    const how = signer.codeChannel === 'sms' ? 'SMS' : 'e-mail';
    return {
      // PDF signature dictionaries are read as plain text by most verifiers: ASCII (transliterated).
      reason: transliterate(
        `${input.test ? 'TEST - no legal value. ' : ''}Signed by ${signer.name} on ${dateTimeSeconds(signer.signedAt, 'UTC')} UTC; one-time code by ${how}`,
      ).slice(0, 200),
      name: transliterate(signer.name).slice(0, 100) || 'Signer',
      location: asciiName(input.organisation),
      contactInfo: '',
      signingTime: input.now,
    };
  });
  return sealSignatures(unsealed, input.seal.key, signatures, input.pades);
}

/**
 * The signed document: the original pages unchanged, then a signature page (each signer's drawn or typed
 * signature, name and time) and the audit trail (who, how the code went out, from where, each step in
 * UTC and in `timeZone`, the original's SHA-256, the seal's certificate), the whole file then sealed.
 */
export async function buildSignedDocument(input: SignedDocumentInput): Promise<Buffer> {
  const w = signedDocumentTexts[input.language];
  const doc = await pdfLib().PDFDocument.load(input.original, { updateMetadata: false });
  const originalPages = doc.getPageCount();
  doc.registerFontkit(fontkit());
  const faces = documentFonts();
  const fonts = {
    regular: await doc.embedFont(faces.regular, { subset: true }),
    bold: await doc.embedFont(faces.bold, { subset: true }),
  };
  const oblique = await doc.embedFont(faces.oblique, { subset: true });
  const pages: Pages = {
    w,
    when: (at: Date) =>
      `${dateTimeSeconds(at, 'UTC')} ${w.utc} · ${dateTimeSeconds(at, input.timeZone)} ${input.timeZone}`,
  };
  const out = new PageWriter(doc, fonts);
  await writeSignatures(out, doc, oblique, input, pages);
  writeAuditTrail(out, input, originalPages, pages);
  numberPages(out.added, fonts.regular, input, originalPages, pages);
  if (input.test) markAsTest(doc.getPages(), fonts.bold, w.testMark);
  return sealForEachSigner(Buffer.from(await doc.save({ useObjectStreams: false })), input);
}
