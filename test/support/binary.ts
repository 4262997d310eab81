import type { Test } from 'supertest';

/** Makes supertest collect the response body as a Buffer, whatever its content type. */
export function asBuffer(req: Test): Test {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

/** The text of a PDF, read by a real PDF parser (pdf-parse). */
export async function pdfText(pdf: Buffer): Promise<string> {
  const { PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data: pdf });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** A real PDF (made with pdf-lib): `pages` A4 pages, each with `text` and its page number. */
export async function samplePdf(text: string, pages = 1): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`${text} - page ${i}`, { x: 56, y: 770, size: 16, font });
  }
  return Buffer.from(await doc.save());
}

/** What Debian's pdfsig says of a PDF (it exits 0 even for a broken signature: read its text). */
export async function pdfsig(bytes: Uint8Array): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-pdfsig-'));
  try {
    const file = path.join(dir, 'signed.pdf');
    fs.writeFileSync(file, bytes);
    // Never online (-no-ocsp); its stderr (e.g. "Unable to validate this type of signature" for a
    // document timestamp) is not the report.
    return execFileSync('pdfsig', ['-no-ocsp', file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The PDF with one byte of `needle` (a text inside a content stream or the file) flipped. */
export function flipByte(pdf: Buffer, needle: string): Buffer {
  const copy = Buffer.from(pdf);
  const at = copy.indexOf(needle);
  if (at < 0) throw new Error(`"${needle}" is not in the file`);
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

/** A real PNG (8-bit RGB, no filter): `pixel` gives each pixel's colour; written with node's zlib. */
export async function samplePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number] = () => [11, 87, 208],
): Promise<Buffer> {
  const zlib = await import('node:zlib');
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set(pixel(x, y), 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real JPEG: a PDF page with `text`, drawn small by poppler's pdftoppm. */
export async function sampleJpeg(text: string): Promise<Buffer> {
  const { execFileSync } = await import('node:child_process');
  return execFileSync('pdftoppm', ['-jpeg', '-r', '12', '-singlefile', '-'], {
    input: await samplePdf(text),
  });
}
