import { and, eq } from 'drizzle-orm';
import { files } from '../../db/schema';
import type { RequestContext } from '../../platform/context';
import type { Queryable } from '../../platform/db/database';
import { isId } from '../../platform/ids';

export type FileRow = typeof files.$inferSelect;

export function fileRepository(q: Queryable, ctx: RequestContext) {
  const org = eq(files.organisationId, ctx.organisationId);
  return {
    async insert(row: Omit<FileRow, 'organisationId'>): Promise<FileRow> {
      const [inserted] = await q
        .insert(files)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      return inserted!;
    },
    async find(id: string): Promise<FileRow | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await q
        .select()
        .from(files)
        .where(and(org, eq(files.id, id)));
      return row;
    },
    async remove(id: string): Promise<FileRow | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await q
        .delete(files)
        .where(and(org, eq(files.id, id)))
        .returning();
      return row;
    },
  };
}
