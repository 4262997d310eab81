import type { PDFDocument, PDFImage } from 'pdf-lib';
import { BadRequest } from '../../platform/kernel/errors';
import { pdfLib } from '../../platform/signing/pdf-libraries';

/** The largest logo accepted: 200 KB. */
export const LOGO_MAX_BYTES = 200 * 1024;

export type LogoType = 'image/png' | 'image/jpeg';

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
const JPEG = Buffer.from('ffd8ff', 'hex');

const refused = (message: string) => BadRequest.field('file', message);

/**
 * The logo embedded in a PDF (the signature page draws it). pdf-lib reads a JPEG through its buffer from offset 0, so a
 * Buffer that is a view into a larger one (a small Buffer from node's pool) is copied first.
 */
export function embedLogo(doc: PDFDocument, type: LogoType, bytes: Uint8Array): Promise<PDFImage> {
  const own = new Uint8Array(bytes);
  return type === 'image/png' ? doc.embedPng(own) : doc.embedJpg(own);
}

/** A file that is an SVG (or any XML or HTML): text that starts with `<`, maybe after a BOM and space. */
function looksLikeMarkup(bytes: Buffer): boolean {
  const start = bytes
    .subarray(0, 512)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return start.startsWith('<');
}

/**
 * What a logo is, recognised by its content (never its name or the type a client claims): a PNG or a
 * JPEG of at most 200 KB that a PDF can hold (pdf-lib reads it: the signature page draws it). Anything
 * else is a 400 naming the field `file`; an SVG is refused by name, since it can carry script.
 */
export async function logoType(bytes: Buffer): Promise<LogoType> {
  if (bytes.length === 0) throw refused('is empty: send a PNG or JPEG image');
  if (bytes.length > LOGO_MAX_BYTES)
    throw refused(`must be at most 200 KB (${LOGO_MAX_BYTES} bytes); this one has ${bytes.length}`);
  const type: LogoType | null = bytes.subarray(0, 8).equals(PNG)
    ? 'image/png'
    : bytes.subarray(0, 3).equals(JPEG)
      ? 'image/jpeg'
      : null;
  if (!type) {
    throw refused(
      looksLikeMarkup(bytes)
        ? 'SVG (or other markup) is not accepted: send a PNG or JPEG image'
        : 'must be a PNG or JPEG image',
    );
  }
  try {
    const doc = await pdfLib().PDFDocument.create();
    await embedLogo(doc, type, bytes);
  } catch {
    throw refused(`cannot be read as a ${type === 'image/png' ? 'PNG' : 'JPEG'} image`);
  }
  return type;
}
