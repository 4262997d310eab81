/**
 * What a PDF's Document Security Store holds, and whether the bytes after the last signature are only
 * such validation data (PAdES B-LT adds it after the signatures it serves: it changes nothing they
 * cover, so a file ending with it is still whole).
 */

export interface ValidationDataReport {
  /** The file has a Document Security Store with at least one certificate, CRL or OCSP answer. */
  embedded: boolean;
  certificates: number;
  crls: number;
  ocspResponses: number;
}

const DSS_DICT = /\/Type\s*\/DSS\b[^>]*/g;

/** The counts of the last Document Security Store in the file (the one the latest catalog names). */
export function validationDataIn(text: string): ValidationDataReport {
  const last = [...text.matchAll(DSS_DICT)].at(-1)?.[0] ?? '';
  const count = (key: string) => {
    const list = new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(last)?.[1] ?? '';
    return [...list.matchAll(/\d+\s+\d+\s+R/g)].length;
  };
  const certificates = count('Certs');
  const crls = count('CRLs');
  const ocspResponses = count('OCSPs');
  return { embedded: certificates + crls + ocspResponses > 0, certificates, crls, ocspResponses };
}

/** Where the Document Security Store object starts, or -1 (a document timestamp after it covers it). */
export function dssOffset(text: string): number {
  const at = text.lastIndexOf('/Type /DSS');
  return at < 0 ? -1 : text.lastIndexOf(' obj', at);
}

const normalise = (dict: string) =>
  dict
    .replace(/\/DSS\s+\d+\s+\d+\s+R/, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Whether `tail` (the bytes after what the last signature covers) is one incremental update that only
 * adds validation data: streams with nothing but a length, a /Type /DSS dictionary listing them, and the
 * catalog again with only its /DSS entry new or changed; then the cross-reference section and trailer.
 * Anything else (a page, a form field, an annotation, another catalog entry) is a change.
 */
export function onlyValidationData(pdf: Buffer, from: number): boolean {
  const text = pdf.toString('latin1');
  let at = from;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const objects: { number: number; dict: string }[] = [];
  for (;;) {
    skipSpace();
    const head = /^(\d{1,10}) 0 obj\s*/.exec(text.slice(at, at + 40));
    if (!head) break;
    at += head[0].length;
    if (!text.startsWith('<<', at)) return false;
    const close = dictionaryEnd(text, at);
    if (close < 0) return false;
    const dict = text.slice(at, close);
    at = close;
    skipSpace();
    if (text.startsWith('stream', at)) {
      const length = /^<<\s*\/Length\s+(\d{1,9})\s*>>$/.exec(dict)?.[1];
      if (!length) return false;
      const start = text.indexOf('\n', at) + 1;
      if (start <= 0) return false;
      at = start + Number(length);
      skipSpace();
      if (!text.startsWith('endstream', at)) return false;
      at += 'endstream'.length;
      skipSpace();
    }
    if (!text.startsWith('endobj', at)) return false;
    at += 'endobj'.length;
    objects.push({ number: Number(head[1]), dict });
  }
  const rest = text.slice(at);
  // One section and trailer, then the end of the file: a second update after it is not looked into.
  const trailer = /^xref\s[\d\s fn]*trailer\s*(<<(?:(?!>>)[\s\S])*>>)\s*startxref\s*\d+\s*%%EOF\s*$/.exec(
    rest,
  );
  if (!trailer || objects.length === 0) return false;
  const root = /\/Root\s+(\d+)\s+0\s+R/.exec(trailer[1]!)?.[1];
  if (!root || /\/Encrypt\b/.test(trailer[1]!)) return false;
  return objects.every((o) => {
    if (/^<<\s*\/Length\s+\d+\s*>>$/.test(o.dict)) return true;
    if (/^<<\s*\/Type\s*\/DSS(\s*\/(Certs|CRLs|OCSPs)\s*\[[\d\sR]*\])*\s*>>$/.test(o.dict)) return true;
    if (o.number !== Number(root)) return false;
    const before = previousDictionary(text, o.number, from);
    return before !== null && normalise(before) === normalise(o.dict);
  });
}

/** The end (after >>) of the dictionary opening at `open`, nested dictionaries included; -1 if none. */
function dictionaryEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length - 1 && i < open + 100_000; i++) {
    if (text[i] === '<' && text[i + 1] === '<') {
      depth++;
      i++;
    } else if (text[i] === '>' && text[i + 1] === '>') {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Object `number`'s dictionary as the file had it before `before` (its latest revision there). */
function previousDictionary(text: string, number: number, before: number): string | null {
  const head = text.lastIndexOf(`\n${number} 0 obj`, before);
  if (head < 0) return null;
  const open = text.indexOf('<<', head);
  const close = open < 0 ? -1 : dictionaryEnd(text, open);
  return close < 0 ? null : text.slice(open, close);
}
