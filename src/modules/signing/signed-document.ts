import { createHash } from 'node:crypto';
import type { PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib';
import type { SignatureMark, SignerTrailEntry } from '../../db/schema';
import { documentFonts } from '../../platform/fonts';
import { fontkit, pdfLib } from '../../platform/pdf-libraries';
import {
  asciiName,
  type CertificateFacts,
  type SealKey,
  transliterate,
} from '../../platform/signing/certificate';
import { addSignature } from '../../platform/signing/seal';
import type { Language } from '../questionlists';

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
  organisation: string;
  actionId: string;
  language: Language;
  timeZone: string;
  signers: SignedBy[];
  seal: { key: SealKey; certificate: CertificateFacts };
  now: Date;
}

interface Words {
  signatures: string;
  signedBy: (name: string) => string;
  signedOn: string;
  confirmed: Record<'email' | 'sms', (to: string) => string>;
  audit: string;
  document: string;
  sha256: string;
  pages: string;
  action: string;
  organisation: string;
  signer: string;
  email: string;
  phone: string;
  delivery: string;
  ip: string;
  userAgent: string;
  consent: string;
  steps: Record<SignerTrailEntry['step'], string>;
  step: string;
  utc: string;
  local: (zone: string) => string;
  seal: string;
  sealText: string;
  subject: string;
  fingerprint: string;
  page: (n: number, of: number) => string;
}

const words: Record<Language, Words> = {
  nl: {
    signatures: 'Handtekeningen',
    signedBy: (n) => `Ondertekend door ${n}`,
    signedOn: 'Ondertekend op',
    confirmed: {
      email: (to) => `Identiteit bevestigd met een eenmalige code per e-mail naar ${to}`,
      sms: (to) => `Identiteit bevestigd met een eenmalige code per sms naar ${to}`,
    },
    audit: 'Audittrail',
    document: 'Document',
    sha256: 'SHA-256 van het originele document',
    pages: 'Pagina’s in het origineel',
    action: 'Actie',
    organisation: 'Organisatie',
    signer: 'Ondertekenaar',
    email: 'E-mail',
    phone: 'Telefoon',
    delivery: 'Code verstuurd via',
    ip: 'IP-adres',
    userAgent: 'Browser (user agent)',
    consent: 'Toestemming',
    steps: {
      opened: 'Geopend',
      'code-sent': 'Code verstuurd',
      'code-wrong': 'Verkeerde code',
      'code-locked': 'Code geblokkeerd',
      'code-verified': 'Code bevestigd',
      signed: 'Ondertekend',
      declined: 'Geweigerd',
    },
    step: 'Stap',
    utc: 'UTC',
    local: (z) => z,
    seal: 'Elektronisch zegel',
    sealText:
      'Elke handtekening is een digitale PDF-handtekening (CMS, ETSI.CAdES.detached) met het zegelcertificaat van de organisatie, na elkaar toegevoegd; de laatste dekt het volledige bestand. Elke latere wijziging maakt ze ongeldig.',
    subject: 'Certificaat',
    fingerprint: 'SHA-256-vingerafdruk',
    page: (n, of) => `Pagina ${n} van ${of}`,
  },
  fr: {
    signatures: 'Signatures',
    signedBy: (n) => `Signé par ${n}`,
    signedOn: 'Signé le',
    confirmed: {
      email: (to) => `Identité confirmée par un code à usage unique envoyé par e-mail à ${to}`,
      sms: (to) => `Identité confirmée par un code à usage unique envoyé par SMS au ${to}`,
    },
    audit: 'Piste d’audit',
    document: 'Document',
    sha256: 'SHA-256 du document original',
    pages: 'Pages de l’original',
    action: 'Action',
    organisation: 'Organisation',
    signer: 'Signataire',
    email: 'E-mail',
    phone: 'Téléphone',
    delivery: 'Code envoyé par',
    ip: 'Adresse IP',
    userAgent: 'Navigateur (user agent)',
    consent: 'Consentement',
    steps: {
      opened: 'Ouvert',
      'code-sent': 'Code envoyé',
      'code-wrong': 'Code erroné',
      'code-locked': 'Code bloqué',
      'code-verified': 'Code confirmé',
      signed: 'Signé',
      declined: 'Refusé',
    },
    step: 'Étape',
    utc: 'UTC',
    local: (z) => z,
    seal: 'Cachet électronique',
    sealText:
      'Chaque signature est une signature numérique PDF (CMS, ETSI.CAdES.detached) faite avec le certificat de cachet de l’organisation, ajoutées l’une après l’autre ; la dernière couvre tout le fichier. Toute modification ultérieure les invalide.',
    subject: 'Certificat',
    fingerprint: 'Empreinte SHA-256',
    page: (n, of) => `Page ${n} sur ${of}`,
  },
  en: {
    signatures: 'Signatures',
    signedBy: (n) => `Signed by ${n}`,
    signedOn: 'Signed on',
    confirmed: {
      email: (to) => `Identity confirmed with a one-time code sent by e-mail to ${to}`,
      sms: (to) => `Identity confirmed with a one-time code sent by text message to ${to}`,
    },
    audit: 'Audit trail',
    document: 'Document',
    sha256: 'SHA-256 of the original document',
    pages: 'Pages in the original',
    action: 'Action',
    organisation: 'Organisation',
    signer: 'Signer',
    email: 'E-mail',
    phone: 'Phone',
    delivery: 'Code sent by',
    ip: 'IP address',
    userAgent: 'Browser (user agent)',
    consent: 'Consent',
    steps: {
      opened: 'Opened',
      'code-sent': 'Code sent',
      'code-wrong': 'Wrong code',
      'code-locked': 'Code locked',
      'code-verified': 'Code verified',
      signed: 'Signed',
      declined: 'Declined',
    },
    step: 'Step',
    utc: 'UTC',
    local: (z) => z,
    seal: 'Electronic seal',
    sealText:
      'Each signature is a PDF digital signature (CMS, ETSI.CAdES.detached) made with the organisation’s seal certificate, added one after the other; the last one covers the whole file. Any later change breaks them.',
    subject: 'Certificate',
    fingerprint: 'SHA-256 fingerprint',
    page: (n, of) => `Page ${n} of ${of}`,
  },
};

/** `2026-03-02 09:00:00` in `timeZone` (sv-SE formats dates the ISO way). */
export function formatInstant(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(at);
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const ink = () => pdfLib().rgb(0.1, 0.1, 0.1);
const muted = () => pdfLib().rgb(0.3, 0.3, 0.33);

/** Writes lines top-down on A4 pages added to `doc`, wrapping to the width and adding pages as needed. */
class PageWriter {
  page!: PDFPage;
  y = 0;
  readonly added: PDFPage[] = [];
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
  ) {
    this.newPage();
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.added.push(this.page);
    this.y = A4[1] - MARGIN;
  }
  space(points: number) {
    this.y -= points;
  }
  /** Makes room for `height` points, on a new page when this one is full. */
  need(height: number) {
    if (this.y - height < MARGIN + 20) this.newPage();
  }
  text(value: string, opts: { size?: number; bold?: boolean; color?: RGB; indent?: number } = {}) {
    const size = opts.size ?? 10;
    const font = opts.bold ? this.fonts.bold : this.fonts.regular;
    const indent = opts.indent ?? 0;
    const width = A4[0] - 2 * MARGIN - indent;
    for (const line of wrap(value, font, size, width)) {
      this.need(size * 1.4);
      this.y -= size * 1.4;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: opts.color ?? ink() });
    }
  }
  /** A label and its value on one line (the value wrapped beside the label). */
  field(label: string, value: string, indent = 0) {
    this.text(`${label}: ${value}`, { indent });
  }
}

/** Splits text into lines no wider than `width`, breaking at spaces (or inside a word that is too long). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

/** A PDF font cannot draw control characters; user agents and names could carry some. */
const printable = (s: string) => s.replace(/[\p{Cc}\p{Cs}]/gu, ' ');

/**
 * The signed document: the original pages unchanged, then a signature page (each signer's drawn or typed
 * signature, name and time) and the audit trail (who, how the code went out, from where, each step in
 * UTC and in `timeZone`, the original's SHA-256, the seal's certificate), the whole file then sealed.
 */
export async function buildSignedDocument(input: SignedDocumentInput): Promise<Buffer> {
  const w = words[input.language];
  const doc = await pdfLib().PDFDocument.load(input.original, { updateMetadata: false });
  const originalPages = doc.getPageCount();
  doc.registerFontkit(fontkit());
  const faces = documentFonts();
  const fonts = {
    regular: await doc.embedFont(faces.regular, { subset: true }),
    bold: await doc.embedFont(faces.bold, { subset: true }),
  };
  const oblique = await doc.embedFont(faces.oblique, { subset: true });
  const when = (at: Date) =>
    `${formatInstant(at, 'UTC')} ${w.utc} · ${formatInstant(at, input.timeZone)} ${input.timeZone}`;

  const out = new PageWriter(doc, fonts);
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

  out.newPage();
  out.text(w.audit, { size: 18, bold: true });
  out.space(6);
  out.field(w.document, printable(input.title));
  out.field(w.organisation, printable(input.organisation));
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
  out.field(w.subject, input.seal.certificate.subject);
  out.field(w.fingerprint, input.seal.certificate.fingerprint);

  const added = out.added;
  added.forEach((page, i) => {
    page.drawText(
      `${printable(input.title)} — ${w.page(originalPages + i + 1, originalPages + added.length)}`,
      {
        x: MARGIN,
        y: 30,
        size: 8,
        font: fonts.regular,
        color: muted(),
      },
    );
  });

  // One PDF signature per signer, each appended to the file as it stands (incremental updates): the
  // first covers the document with its signature and audit pages, each next one all that came before.
  let pdf: Buffer = Buffer.from(await doc.save({ useObjectStreams: false }));
  for (const signer of input.signers) {
    const how = signer.codeChannel === 'sms' ? 'SMS' : 'e-mail';
    pdf = await addSignature(pdf, input.seal.key, {
      // PDF signature dictionaries are read as plain text by most verifiers: ASCII (transliterated).
      reason: transliterate(
        `Signed by ${signer.name} on ${formatInstant(signer.signedAt, 'UTC')} UTC; one-time code by ${how}`,
      ).slice(0, 200),
      name: transliterate(signer.name).slice(0, 100) || 'Signer',
      location: asciiName(input.organisation),
      contactInfo: '',
      signingTime: input.now,
    });
  }
  return pdf;
}
