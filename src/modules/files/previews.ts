import type { Database } from '../../platform/db/database';
import { inActiveOrOwnTransaction, inOwnTenantTransaction } from '../../platform/db/tenant';
import { type FileStorage, keyParts, readAll } from '../../platform/files/storage';
import type { JobHandler } from '../../platform/jobs/job';
import { defineJob } from '../../platform/jobs/job-type';
import { systemContext } from '../../platform/kernel/context';
import { z } from '../../platform/kernel/zod';
import type { Logger } from '../../platform/ops/logger';
import { PdfToolMissing, pageTexts, renderPage } from '../../platform/signing/pdf';
import { pdfLib } from '../../platform/signing/pdf-libraries';
import { filePagesRepository, type StoredPage } from './file-pages.repository';
import { fileById } from './files.service';

/** How wide page images are drawn, in pixels. */
export const PAGE_IMAGE_WIDTH = 1100;

export interface PreviewFacts {
  pages: { width: number; height: number; text: string }[];
  /** Whether page images can be drawn (poppler's pdftoppm is installed). */
  images: boolean;
}

/** A stored PDF file, as previews need it: where its bytes are (`<organisationId>/<fileId>`) and their hash. */
export interface PreviewFile {
  storageKey: string;
  sha256: string;
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

/** Text as PostgreSQL stores it: without NUL characters, which a PDF's text may hold. */
const storable = (text: string) => text.replaceAll('\u0000', '');

/**
 * What the signing page and the wizard show of a PDF file: each page's size and text, and each page as
 * a PNG drawn by poppler (Debian's poppler-utils). Stored with the file (table file_pages) for every
 * instance, drawn ahead by the `file-pages` job when an action with a document is created, or on first
 * view; kept in memory as well by the file's SHA-256. Without poppler the page offers the download only.
 */
export class DocumentPreviews {
  private readonly facts = new Lru<Promise<PreviewFacts>>(32);
  private readonly images = new Lru<Promise<Buffer | null>>(96);
  private toolMissing = false;
  /** Drawings running now, and those waiting for a turn: at most two run at once. */
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly database: Database,
    private readonly storage: FileStorage,
    private readonly logger?: Logger,
  ) {}

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

  /** Reads in the transaction running now (if it is the file's organisation's), else in one of its own. */
  private read<T>(
    file: PreviewFile,
    fn: (repo: ReturnType<typeof filePagesRepository>, fileId: string) => Promise<T>,
  ) {
    const { organisationId, fileId } = keyParts(file.storageKey);
    const ctx = systemContext(organisationId);
    return inActiveOrOwnTransaction(this.database, ctx, (tx) => fn(filePagesRepository(tx, ctx), fileId));
  }

  /** Writes in a transaction of its own; a failure (the file deleted meanwhile) only loses the cache. */
  private async write(
    file: PreviewFile,
    fn: (repo: ReturnType<typeof filePagesRepository>, fileId: string) => Promise<unknown>,
  ): Promise<void> {
    const { organisationId, fileId } = keyParts(file.storageKey);
    const ctx = systemContext(organisationId);
    try {
      await inOwnTenantTransaction(this.database, ctx, (tx) => fn(filePagesRepository(tx, ctx), fileId));
    } catch (err) {
      this.logger?.warn({ err, fileId }, 'file pages: not stored');
    }
  }

  factsOf(file: PreviewFile): Promise<PreviewFacts> {
    let found = this.facts.get(file.sha256);
    if (!found) {
      found = this.loadFacts(file).catch((err) => {
        this.facts.delete(file.sha256);
        throw err;
      });
      this.facts.set(file.sha256, found);
    }
    return found;
  }

  /** Page `page` (from 1) as a PNG; null when it cannot be drawn here (poppler is not installed). */
  async image(file: PreviewFile, page: number): Promise<Buffer | null> {
    const key = `${file.sha256}:${page}`;
    let found = this.images.get(key);
    if (!found) {
      found = this.loadImage(file, page);
      this.images.set(key, found);
    }
    const png = await found;
    if (!png) this.images.delete(key);
    return png;
  }

  /**
   * Draws and stores every page of the file not stored yet, one at a time (a signer's own request waits
   * for at most one drawing of this). Throws PdfToolMissing without poppler.
   */
  async drawAll(file: PreviewFile, signal?: AbortSignal): Promise<void> {
    const facts = await this.factsOf(file);
    if (!facts.images) throw new PdfToolMissing('pdftoppm is not installed (Debian: poppler-utils)');
    let stored = await this.read(file, (repo, fileId) => repo.list(fileId, PAGE_IMAGE_WIDTH));
    if (stored.length === 0) {
      // Known from memory only (their first storing failed): stored now, for the images to go with.
      await this.write(file, (repo, fileId) => repo.putPages(fileId, facts.pages));
      stored = await this.read(file, (repo, fileId) => repo.list(fileId, PAGE_IMAGE_WIDTH));
    }
    let bytes: Promise<Buffer> | undefined;
    for (const page of stored) {
      if (page.image) continue;
      signal?.throwIfAborted();
      bytes ??= readAll(this.storage, file.storageKey);
      const data = await bytes;
      const png = await this.turn(() => renderPage(data, page.page, PAGE_IMAGE_WIDTH));
      await this.write(file, (repo, fileId) => repo.putImage(fileId, page.page, PAGE_IMAGE_WIDTH, png));
      this.images.set(`${file.sha256}:${page.page}`, Promise.resolve(png));
    }
  }

  private async loadFacts(file: PreviewFile): Promise<PreviewFacts> {
    const stored = await this.read(file, (repo, fileId) => repo.list(fileId, PAGE_IMAGE_WIDTH));
    if (stored.length > 0)
      return { pages: stored.map(factOf), images: !this.toolMissing || stored.every((p) => p.image) };
    const data = await readAll(this.storage, file.storageKey);
    const doc = await pdfLib().PDFDocument.load(data, { updateMetadata: false });
    const sizes = doc.getPages().map((p) => p.getSize());
    let texts: string[] = [];
    let images = !this.toolMissing;
    try {
      texts = await pageTexts(data);
    } catch (err) {
      if (!(err instanceof PdfToolMissing)) throw err;
      this.toolMissing = true;
      images = false;
    }
    const pages = sizes.map((s, i) => ({ ...s, text: storable(texts[i] ?? '') }));
    // Without poppler the texts are unknown: nothing is stored, so an instance with poppler stores them.
    if (images) await this.write(file, (repo, fileId) => repo.putPages(fileId, pages));
    return { pages, images };
  }

  private async loadImage(file: PreviewFile, page: number): Promise<Buffer | null> {
    const stored = await this.read(file, (repo, fileId) => repo.image(fileId, page, PAGE_IMAGE_WIDTH));
    if (stored) return stored;
    if (this.toolMissing) return null;
    try {
      const data = await readAll(this.storage, file.storageKey);
      const png = await this.turn(() => renderPage(data, page, PAGE_IMAGE_WIDTH));
      await this.write(file, (repo, fileId) => repo.putImage(fileId, page, PAGE_IMAGE_WIDTH, png));
      return png;
    } catch (err) {
      if (err instanceof PdfToolMissing) this.toolMissing = true;
      // A page poppler cannot draw (or not in time) is left out: the page offers the download.
      return null;
    }
  }
}

const factOf = (p: StoredPage) => ({ width: p.width, height: p.height, text: p.text });

/** Draws a PDF file's pages ahead, for the first signer not to wait (see DocumentPreviews). */
export const filePagesJob = defineJob({
  kind: 'file-pages',
  payload: z.strictObject({ fileId: z.string() }),
  maxAttempts: 3,
  // 300 pages at most (a document to sign) at about 0.4 s each.
  timeoutMs: 300_000,
});

/** The job that draws the file's pages; a file gone or not a PDF is nothing to do. */
export function filePagesHandler(deps: {
  database: Database;
  previews: DocumentPreviews;
}): JobHandler<z.output<typeof filePagesJob.payload>> {
  return async (job, signal) => {
    const ctx = systemContext(job.organisationId);
    const file = await inActiveOrOwnTransaction(deps.database, ctx, (tx) =>
      fileById(tx, ctx, job.payload.fileId),
    );
    if (file?.contentType !== 'application/pdf') return { cancelled: 'the file is gone' };
    try {
      await deps.previews.drawAll(file, signal);
    } catch (err) {
      if (err instanceof PdfToolMissing) return { cancelled: 'poppler is not installed here' };
      throw err;
    }
    return undefined;
  };
}
