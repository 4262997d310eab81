import type Fontkit from '@pdf-lib/fontkit';
import type * as SignpdfPlaceholder from '@signpdf/placeholder-plain';
import type * as SignpdfModule from '@signpdf/signpdf';
import type Signpdf from '@signpdf/signpdf';
import type * as PdfLib from 'pdf-lib';
import type PdfKit from 'pdfkit';

/**
 * The PDF libraries, each loaded the first time a document is made, read or sealed rather than when the
 * app starts. Together they were about a quarter of loading the app (170 of 630 ms of CPU measured with
 * `node --cpu-prof -e "require('./dist/src/app.js')"`), which every process start and every test file
 * paid while most processes and requests never touch a PDF. The types stay static: only the loading
 * waits.
 */
function once<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => {
    loaded ??= { value: load() };
    return loaded.value;
  };
}

/** A module's default export as `import x from` gives it (esModuleInterop). */
function defaultOf<T>(loaded: unknown): T {
  const m = loaded as { __esModule?: boolean; default?: T };
  return (m?.__esModule ? m.default : m) as T;
}

export const pdfLib = once(() => require('pdf-lib') as typeof PdfLib);
export const pdfKit = once(() => defaultOf<typeof PdfKit>(require('pdfkit')));
export const fontkit = once(() => defaultOf<typeof Fontkit>(require('@pdf-lib/fontkit')));
export const signpdf = once(() => ({
  signpdf: defaultOf<typeof Signpdf>(require('@signpdf/signpdf')),
  plainAddPlaceholder: (require('@signpdf/placeholder-plain') as typeof SignpdfPlaceholder)
    .plainAddPlaceholder,
  // The base class signpdf checks signers against (`instanceof`): its own copy's.
  Signer: (require('@signpdf/signpdf') as typeof SignpdfModule).Signer,
}));
