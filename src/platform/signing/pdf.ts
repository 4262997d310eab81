import { spawn } from 'node:child_process';
import { pdfLib } from './pdf-libraries';

/** At most this many pages in a document to sign (a contact reads it page by page on a phone). */
const MAX_SIGNING_PAGES = 300;

/**
 * Why a PDF cannot be signed (encrypted, damaged, empty or too long), or null when it can. Signing
 * appends pages and a seal to the file, which needs a readable, unencrypted PDF.
 */
export async function isSignablePdf(bytes: Uint8Array): Promise<string | null> {
  let pages: number;
  try {
    pages = (await pdfLib().PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
  } catch (err) {
    return (err as Error).name === 'EncryptedPDFError'
      ? 'is an encrypted PDF: upload it without a password or restrictions to have it signed'
      : 'is not a PDF that can be read (damaged or not a PDF)';
  }
  if (pages === 0) return 'is a PDF without pages';
  if (pages > MAX_SIGNING_PAGES) return `has ${pages} pages; at most ${MAX_SIGNING_PAGES} can be signed`;
  return null;
}

export class PdfToolMissing extends Error {
  override name = 'PdfToolMissing';
}

/** Runs a poppler tool with the PDF on standard input; its standard output, or an error. */
function runTool(command: string, args: string[], input: Uint8Array, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], timeout: 30_000 });
    const chunks: Buffer[] = [];
    let size = 0;
    child.on('error', (err) =>
      reject(
        (err as NodeJS.ErrnoException).code === 'ENOENT'
          ? new PdfToolMissing(`${command} is not installed (Debian: poppler-utils)`)
          : err,
      ),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`${command} failed (${signal ?? `exit ${code}`})`));
    });
    // A tool that stops reading early (a damaged file) closes its input: that is not our error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** One page (from 1) as a PNG `width` pixels wide, drawn by poppler's pdftoppm. */
export function renderPage(bytes: Uint8Array, page: number, width = 1100): Promise<Buffer> {
  return runTool(
    'pdftoppm',
    [
      '-png',
      '-f',
      String(page),
      '-l',
      String(page),
      '-scale-to-x',
      String(width),
      '-scale-to-y',
      '-1',
      '-singlefile',
      '-',
    ],
    bytes,
    20 * 1024 * 1024,
  );
}

/** The text of each page (poppler's pdftotext, reading order), for screen readers and text checks. */
export async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const text = (await runTool('pdftotext', ['-enc', 'UTF-8', '-', '-'], bytes, 20 * 1024 * 1024)).toString(
    'utf8',
  );
  const pages = text.split('\f');
  if (pages.length > 1 && pages[pages.length - 1]!.trim() === '') pages.pop();
  return pages.map((p) => p.trim());
}
