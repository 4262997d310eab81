// What the advisers' everyday staff pages share (actions, contacts): their route options, the frame around
// each page, and the paging of their lists.
import type { RequestContext } from '../../platform/kernel/context';
import { z } from '../../platform/kernel/zod';
import { type StaffPageFrame, staffErrorPage } from '../../platform/web/staff-layout';
import { type DeskDeps, staffUserOf } from './desk.service';

/** The route options every everyday page declares (each adds its tag and permission). */
export const deskPage = { audience: 'staff' as const, errorPage: staffErrorPage };

/** Rows on one page of a list. */
export const PAGE_SIZE = 25;

/** `?page=`: a page number from 1, anything else read as 1. */
export const pageParam = z
  .string()
  .max(7)
  .optional()
  .transform((p) => Math.min(Math.max(Number.parseInt(p ?? '1', 10) || 1, 1), 100_000));

/** The signed-in staff user and the CSRF token, as every desk page (everyday or administrators') shows them. */
export const deskFrame = async (
  deps: DeskDeps,
  ctx: RequestContext,
  csrf: string,
): Promise<StaffPageFrame> => ({
  me: await staffUserOf(deps, ctx),
  csrf,
});
