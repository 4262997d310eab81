import { z } from '../../platform/zod';

/**
 * What the contact's pages read from the query: the page (`step`: a number, `review` or `decline`), the
 * language, and `saved=1` after "save and continue later". Other parameters (a mail client's tracking)
 * are ignored; a repeated or oversized one is refused.
 */
export const contactQuery = z.object({
  step: z.string().max(20).optional(),
  lang: z.string().max(20).optional(),
  saved: z.string().max(5).optional(),
});
