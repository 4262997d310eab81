import {
  DEFAULT_BYTE_RANGE_PLACEHOLDER,
  PDFKitReferenceMock,
  PDFObject,
  removeTrailingNewLine,
  SIG_FLAGS,
} from '@signpdf/utils';

/**
 * Incremental updates to a signed PDF, written the way @signpdf/placeholder-plain writes its own (classic
 * cross-reference sections, no object streams), so that every signature before stays valid and a later
 * signature can still be added: the Document Security Store (PAdES B-LT) and a document timestamp's
 * placeholder (B-LTA). pdf-lib cannot do this: it always rewrites the whole file.
 */

interface PdfInfo {
  xref: { maxIndex: number; startingIndex: number; offsets: Map<number, number> };
  rootRef: string;
  /** The catalog's dictionary, without its << >>. */
  root: string;
  infoRef?: string;
  xRefPosition: number;
}

// placeholder-plain's own readers (it has no exports map, so its files can be required by path).
const plain = () => ({
  readPdf: (require('@signpdf/placeholder-plain/dist/readPdf') as { default: (pdf: Buffer) => PdfInfo })
    .default,
  findObject: (
    require('@signpdf/placeholder-plain/dist/findObject') as {
      default: (pdf: Buffer, xref: PdfInfo['xref'], ref: string) => Buffer;
    }
  ).default,
  getPageRef: (
    require('@signpdf/placeholder-plain/dist/getPageRef') as {
      default: (pdf: Buffer, info: PdfInfo) => string;
    }
  ).default,
  pageWithAnnotation: (
    require('@signpdf/placeholder-plain/dist/createBufferPageWithAnnotation') as {
      default: (pdf: Buffer, info: PdfInfo, pageRef: string, widget: PDFKitReferenceMock) => Buffer;
    }
  ).default,
  trailer: (
    require('@signpdf/placeholder-plain/dist/createBufferTrailer') as {
      default: (pdf: Buffer, info: PdfInfo, added: Map<number, number>) => Buffer;
    }
  ).default,
});

/** One revision being written: objects appended, then the cross-reference section and trailer. */
class Revision {
  readonly info: PdfInfo;
  private pdf: Buffer;
  private readonly added = new Map<number, number>();

  constructor(pdf: Buffer) {
    this.pdf = removeTrailingNewLine(pdf);
    this.info = plain().readPdf(this.pdf);
  }

  get bytes(): Buffer {
    return this.pdf;
  }

  /** Appends an object (a new number, or `number` to replace one) and answers its reference. */
  write(body: Buffer | string, number?: number): PDFKitReferenceMock {
    const index = number ?? ++this.info.xref.maxIndex;
    this.added.set(index, this.pdf.length + 1);
    this.pdf = Buffer.concat([
      this.pdf,
      Buffer.from(`\n${index} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    return new PDFKitReferenceMock(index);
  }

  /** An object of the file as it stands (its dictionary, without << >>). */
  read(ref: string): string {
    return plain().findObject(this.pdf, this.info.xref, ref).toString('latin1');
  }

  rootNumber(): number {
    return Number.parseInt(this.info.rootRef, 10);
  }

  finish(): Buffer {
    const { trailer } = plain();
    return Buffer.concat([this.pdf, Buffer.from('\n'), trailer(this.pdf, this.info, this.added)]);
  }
}

/** A stream object holding `bytes` as they are (DER certificates, CRLs, OCSP answers). */
const stream = (bytes: Buffer) =>
  Buffer.concat([
    Buffer.from(`<<\n/Length ${bytes.length}\n>>\nstream\n`),
    bytes,
    Buffer.from('\nendstream'),
  ]);

const refs = (list: string) => [...list.matchAll(/(\d+)\s+0\s+R/g)].map((m) => `${m[1]} 0 R`);

/** The references listed under `/Key [...]` in a dictionary. */
function listed(dict: string, key: string): string[] {
  const m = new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(dict);
  return m ? refs(m[1]!) : [];
}

const DSS_IN_ROOT = /\s*\/DSS\s+(\d+)\s+0\s+R/;

export interface ValidationData {
  certificates: Buffer[];
  crls: Buffer[];
  ocspResponses: Buffer[];
}

/**
 * Adds validation data to the Document Security Store (ISO 32000-2 §12.8.4.3): each certificate, CRL and
 * OCSP answer as a stream, listed in the catalog's /DSS, kept with what an earlier update put there.
 * Data already in the store (the same bytes) is not added twice.
 */
export function addDss(pdf: Buffer, data: ValidationData): Buffer {
  const update = new Revision(pdf);
  const root = update.info.root;
  const existingRef = DSS_IN_ROOT.exec(root)?.[1];
  const existing = existingRef ? update.read(`${existingRef} 0 R`) : '';
  const known = new Set(
    ['Certs', 'CRLs', 'OCSPs'].flatMap((key) => listed(existing, key)).map((ref) => streamBytes(update, ref)),
  );
  const add = (items: Buffer[]) =>
    unique(items)
      .filter((bytes) => !known.has(bytes.toString('latin1')))
      .map((bytes) => update.write(stream(bytes)).toString());
  const certs = [...listed(existing, 'Certs'), ...add(data.certificates)];
  const crls = [...listed(existing, 'CRLs'), ...add(data.crls)];
  const ocsps = [...listed(existing, 'OCSPs'), ...add(data.ocspResponses)];
  const dss = update.write(
    [
      '<<',
      '/Type /DSS',
      certs.length ? `/Certs [${certs.join(' ')}]` : '',
      crls.length ? `/CRLs [${crls.join(' ')}]` : '',
      ocsps.length ? `/OCSPs [${ocsps.join(' ')}]` : '',
      '>>',
    ]
      .filter(Boolean)
      .join('\n'),
  );
  update.write(`<<\n${root.replace(DSS_IN_ROOT, '').trim()}\n/DSS ${dss}\n>>`, update.rootNumber());
  return update.finish();
}

function unique(items: Buffer[]): Buffer[] {
  const seen = new Set<string>();
  return items.filter((b) => {
    const key = b.toString('latin1');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The content of a stream object written by `stream` (latin1, to compare). */
function streamBytes(update: Revision, ref: string): string {
  const offset = update.info.xref.offsets.get(Number.parseInt(ref, 10));
  if (offset === undefined) return '';
  const text = update.bytes.subarray(offset, offset + 64).toString('latin1');
  const length = /\/Length\s+(\d+)/.exec(text)?.[1];
  const start = update.bytes.indexOf('stream\n', offset);
  if (!length || start < 0) return '';
  const from = start + 'stream\n'.length;
  return update.bytes.subarray(from, from + Number(length)).toString('latin1');
}

/**
 * Appends an empty document timestamp (/Type /DocTimeStamp, /SubFilter /ETSI.RFC3161) with a field on the
 * first page, ready for @signpdf's `sign` to fill with a timestamp token over the whole file.
 */
export function addDocumentTimestampPlaceholder(pdf: Buffer, contentsLength: number): Buffer {
  const update = new Revision(pdf);
  const { getPageRef, pageWithAnnotation } = plain();
  const info = update.info;
  const pageRef = getPageRef(update.bytes, info);
  const signature = update.write(
    PDFObject.convert({
      Type: 'DocTimeStamp',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'ETSI.RFC3161',
      ByteRange: [
        0,
        DEFAULT_BYTE_RANGE_PLACEHOLDER,
        DEFAULT_BYTE_RANGE_PLACEHOLDER,
        DEFAULT_BYTE_RANGE_PLACEHOLDER,
      ],
      Contents: Buffer.alloc(contentsLength),
    }),
  );
  const formRef = /\/AcroForm\s+(\d+\s+0\s+R)/.exec(info.root)?.[1];
  const fields = formRef ? listed(update.read(formRef), 'Fields') : [];
  const widget = update.write(
    PDFObject.convert({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: [0, 0, 0, 0],
      V: signature,
      T: new String(`Timestamp${fields.length + 1}`),
      F: 132, // print, locked
      P: new PDFKitReferenceMock(Number.parseInt(pageRef, 10)),
    }),
  );
  const form = PDFObject.convert({
    Type: 'AcroForm',
    SigFlags: SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY,
    Fields: [...fields.map((r) => new PDFKitReferenceMock(Number.parseInt(r, 10))), widget],
  });
  if (formRef) update.write(form, Number.parseInt(formRef, 10));
  else {
    const made = update.write(form);
    update.write(`<<\n${info.root.trim()}\n/AcroForm ${made}\n>>`, update.rootNumber());
  }
  // The page lists the new field among its annotations (the same object number, rewritten).
  const page = pageWithAnnotation(update.bytes, info, pageRef, widget);
  const pageNumber = Number.parseInt(pageRef, 10);
  const body = page.subarray(page.indexOf('obj\n') + 4, page.lastIndexOf('\nendobj'));
  update.write(body, pageNumber);
  return update.finish();
}
