import { z } from '../kernel/zod';

/** The one pagination shape (spec part 8): page from 1, limit 1–100, default 25. */
export const pageQuery = {
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(1)
    .meta({ description: 'Page number, from 1', param: { name: 'page', in: 'query' } }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(25)
    .meta({ description: 'Items per page, 1–100', param: { name: 'limit', in: 'query' } }),
};

export interface Page {
  page: number;
  limit: number;
}

export function offsetOf(p: Page): number {
  return (p.page - 1) * p.limit;
}
