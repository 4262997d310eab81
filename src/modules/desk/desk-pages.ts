// What the advisers' everyday staff pages share (actions, contacts): their route options, the frame around
// each page, and the paging of their lists.
import { deskWords } from '../../i18n/desk';
import type { Language } from '../../i18n/languages';
import type { RequestContext } from '../../platform/kernel/context';
import { z } from '../../platform/kernel/zod';
import { staffErrorPage } from '../../platform/web/staff-layout';
import { contactLabel, getCustomersById } from '../customers';
import { type DeskDeps, staffFrameOf } from './desk.service';

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

/** The frame of a desk page (everyday or administrators'): see staffFrameOf. */
export const deskFrame = staffFrameOf;

/**
 * The contacts' names by id, in one query (a page names up to 25): a function from an action's contact
 * id to its name — "Campaign" when the action has none, "(deleted contact)" when it is gone.
 */
export async function contactNames(
  deps: DeskDeps,
  ctx: RequestContext,
  ids: string[],
  lang: Language,
): Promise<(id: string | null | undefined) => string> {
  const w = deskWords[lang].actions;
  const label = await contactLabels(deps, ctx, ids);
  return (id) => (id ? (label(id) ?? w.deletedContact) : w.campaign);
}

/** The contacts' names by id, as pages show them; null for one that is not (any more) a contact. */
export async function contactLabels(
  deps: DeskDeps,
  ctx: RequestContext,
  ids: string[],
): Promise<(id: string) => string | null> {
  const found = await getCustomersById(deps, ctx, ids);
  return (id) => {
    const c = found.get(id);
    return c ? contactLabel(c.data) : null;
  };
}
