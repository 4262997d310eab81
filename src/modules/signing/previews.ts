import { PdfToolMissing, pageTexts, renderPage } from '../../platform/signing/pdf';
import { pdfLib } from '../../platform/signing/pdf-libraries';

export interface PreviewFacts {
  pages: { width: number; height: number; text: string }[];
  /** Whether page images can be drawn (poppler's pdftoppm is installed). */
  images: boolean;
}

/** A small least-recently-used map. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  delete(key: string): void {
    this.map.delete(key);
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as string);
  }
}

/**
 * What the signing page shows of a document: each page's size and text, and each page as a PNG drawn by
 * poppler (Debian's poppler-utils). Kept in memory by the document's SHA-256, so a signer paging
 * through a document costs one drawing per page. Without poppler the page offers the download only.
 */
export class DocumentPreviews {
  private readonly facts = new Lru<Promise<PreviewFacts>>(32);
  private readonly images = new Lru<Promise<Buffer>>(96);
  private toolMissing = false;
  /** Drawings running now, and those waiting for a turn: at most two run at once. */
  private running = 0;
  private readonly queue: (() => void)[] = [];

  private async turn<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= 2) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }

  factsOf(sha256: string, bytes: () => Promise<Buffer>): Promise<PreviewFacts> {
    let found = this.facts.get(sha256);
    if (!found) {
      found = this.readFacts(bytes).catch((err) => {
        this.facts.delete(sha256);
        throw err;
      });
      this.facts.set(sha256, found);
    }
    return found;
  }

  /** Page `page` (from 1) as a PNG; null when poppler is not installed. */
  async image(sha256: string, page: number, bytes: () => Promise<Buffer>): Promise<Buffer | null> {
    if (this.toolMissing) return null;
    const key = `${sha256}:${page}`;
    let found = this.images.get(key);
    if (!found) {
      found = this.turn(async () => renderPage(await bytes(), page));
      this.images.set(key, found);
    }
    try {
      return await found;
    } catch (err) {
      this.images.delete(key);
      if (err instanceof PdfToolMissing) this.toolMissing = true;
      // A page poppler cannot draw (or not in time) is left out: the page offers the download.
      return null;
    }
  }

  private async readFacts(bytes: () => Promise<Buffer>): Promise<PreviewFacts> {
    const data = await bytes();
    const doc = await pdfLib().PDFDocument.load(data, { updateMetadata: false });
    const sizes = doc.getPages().map((p) => p.getSize());
    let texts: string[] = [];
    let images = !this.toolMissing;
    try {
      texts = await pageTexts(data);
    } catch (err) {
      if (err instanceof PdfToolMissing) {
        this.toolMissing = true;
        images = false;
      }
    }
    return { pages: sizes.map((s, i) => ({ ...s, text: texts[i] ?? '' })), images };
  }
}
