// A plain A4 PDF of `pages` pages, forty lines of text each: what the signing benches draw and sign.
import { PDFDocument, StandardFonts } from 'pdf-lib';

export async function samplePdf(pages: number, title = 'Contract'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595.28, 841.89]);
    for (let line = 0; line < 40; line++)
      page.drawText(`${title}, page ${i}, clause ${line + 1}: the parties agree to what is written here.`, {
        x: 56,
        y: 780 - line * 18,
        size: 10,
        font,
      });
  }
  return doc.save();
}
