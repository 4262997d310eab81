import { z } from '../../platform/kernel/zod';
import { credential } from '../../platform/ops/redaction';

// What the contact's pages read from the request's path and query.

/** The action's code or a signer's own: the contact's credential, never logged. */
export const code = credential(
  z
    .string()
    .max(100)
    .meta({
      param: { name: 'code', in: 'path' },
      description: 'The action code (or a signer’s own code): a credential, never logged',
    }),
  'action link',
);

/** The path of every contact page: `/action/{code}…`. */
export const codeParams = z.object({ code });

/** The OpenAPI tag of the contact's pages. */
export const tags = ['Public pages'];

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

/** The contact pages' query as parsed. */
export type ContactQuery = z.output<typeof contactQuery>;
