import type { PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib';
import { pdfLib } from '../../platform/signing/pdf-libraries';

const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 56;
const ink = () => pdfLib().rgb(0.1, 0.1, 0.1);
/** The grey of secondary text and rules. */
export const muted = () => pdfLib().rgb(0.3, 0.3, 0.33);

/** Writes lines top-down on A4 pages added to `doc`, wrapping to the width and adding pages as needed. */
export class PageWriter {
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
export const printable = (s: string) => s.replace(/[\p{Cc}\p{Cs}]/gu, ' ');
