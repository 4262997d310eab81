import { longDateTime } from '../../i18n/dates';
import type { Language } from '../../i18n/languages';
import { reportTexts } from '../../i18n/report';
import { documentFonts } from '../../platform/signing/fonts';
import { pdfKit } from '../../platform/signing/pdf-libraries';

export interface ReportInput {
  organisation: string;
  contact: string | null;
  templates: string[];
  submittedAt: Date;
  language: Language;
  timeZone: string;
  sections: { title: string; items: { question: string; answer: string }[] }[];
}

/**
 * The PDF report of a submission: organisation, contact, templates, date, then every question and
 * answer by section, with page numbers. DejaVu Sans is embedded, so names and answers in Latin,
 * Greek or Cyrillic script print as written.
 */
export function renderReport(input: ReportInput): Promise<Buffer> {
  const w = reportTexts[input.language];
  const PDFDocument = pdfKit();
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    bufferPages: true,
    info: { Title: `${input.organisation} — ${input.templates.join(', ')}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const fonts = documentFonts();
  doc.registerFont('Body', fonts.regular);
  doc.registerFont('Bold', fonts.bold);
  doc.font('Bold').fontSize(18).text(input.organisation);
  doc
    .moveDown(0.3)
    .font('Body')
    .fontSize(13)
    .text(`${w.title}: ${input.templates.join(', ')}`);
  doc.moveDown(0.5).fontSize(10);
  if (input.contact) doc.text(`${w.contact}: ${input.contact}`);
  const date = longDateTime(input.submittedAt, input.language, input.timeZone);
  doc.text(`${w.date}: ${date}`);
  for (const section of input.sections) {
    doc.moveDown(1).font('Bold').fontSize(13).text(section.title);
    for (const item of section.items) {
      doc.moveDown(0.4).font('Bold').fontSize(10).text(item.question);
      doc.font('Body').text(item.answer || w.none);
    }
  }
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Body')
      .fontSize(8)
      .text(`${w.page} ${i + 1} / ${range.count}`, 0, doc.page.height - 36, {
        align: 'center',
        width: doc.page.width,
      });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
