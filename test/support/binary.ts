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
