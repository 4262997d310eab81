import { and, asc, eq, sql } from 'drizzle-orm';
import { filePages } from '../../db/schema';
import type { Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';

/** A page of a PDF file as the signing page shows it; `image` tells whether its drawing is stored. */
export interface StoredPage {
  page: number;
  width: number;
  height: number;
  text: string;
  image: boolean;
}

/** The organisation's drawn pages of its PDF files (table file_pages: a cache that goes with its file). */
export function filePagesRepository(q: Tx, ctx: RequestContext) {
  const org = eq(filePages.organisationId, ctx.organisationId);
  return {
    /** The file's pages in order, without their images; empty when they were never stored. */
    async list(fileId: string, imageWidth: number): Promise<StoredPage[]> {
      return q
        .select({
          page: filePages.page,
          width: filePages.width,
          height: filePages.height,
          text: filePages.text,
          image: sql<boolean>`(${filePages.imageWidth} = ${imageWidth})`,
        })
        .from(filePages)
        .where(and(org, eq(filePages.fileId, fileId)))
        .orderBy(asc(filePages.page));
    },
    /** The page's image `imageWidth` pixels wide, when it is stored. */
    async image(fileId: string, page: number, imageWidth: number): Promise<Buffer | undefined> {
      const [row] = await q
        .select({ image: filePages.image })
        .from(filePages)
        .where(
          and(
            org,
            eq(filePages.fileId, fileId),
            eq(filePages.page, page),
            eq(filePages.imageWidth, imageWidth),
          ),
        );
      return row?.image ?? undefined;
    },
    /** Stores the file's pages (without images); pages already stored stay as they are. */
    async putPages(fileId: string, pages: Omit<StoredPage, 'page' | 'image'>[]): Promise<void> {
      if (pages.length === 0) return;
      await q
        .insert(filePages)
        .values(
          pages.map((p, i) => ({
            organisationId: ctx.organisationId,
            fileId,
            page: i + 1,
            width: p.width,
            height: p.height,
            text: p.text,
          })),
        )
        .onConflictDoNothing();
    },
    /** Stores one page's image; nothing happens when the page is not stored (its file is gone). */
    async putImage(fileId: string, page: number, imageWidth: number, png: Buffer): Promise<void> {
      await q
        .update(filePages)
        .set({ image: png, imageWidth })
        .where(and(org, eq(filePages.fileId, fileId), eq(filePages.page, page)));
    },
  };
}
