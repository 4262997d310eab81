import { z } from '../kernel/zod';

/**
 * Secrets shown once (docs/api.md#secrets-are-shown-once): a new API key, an OAuth client secret, a
 * webhook signing secret. The answer that creates one carries it; a replay of that request (the same
 * Idempotency-Key) answers the same resource with the secret null and `secretAlreadyShown: true`, and
 * the stored answer never holds it (http/idempotency.ts). The answer's schema marks its secret fields,
 * so the route that answers them cannot forget: the platform reads the marks from the schema.
 */

/** The field that says whether this answer carries its secrets (false) or is a replay without them (true). */
export const SECRET_ALREADY_SHOWN = 'secretAlreadyShown';

/** How a secret field is marked in its schema, and so in the OpenAPI document. */
const SHOWN_ONCE = 'x-shown-once';

/**
 * `answer` with `secrets` added, each nullable and marked shown once, and `secretAlreadyShown`. The
 * platform sets `secretAlreadyShown` (a handler answers without it).
 */
export function withSecretsShownOnce<Shape extends z.ZodRawShape, Secrets extends Record<string, z.ZodType>>(
  answer: z.ZodObject<Shape>,
  secrets: Secrets,
) {
  const marked = Object.fromEntries(
    Object.entries(secrets).map(([name, secret]) => [
      name,
      secret.nullable().meta({
        [SHOWN_ONCE]: true,
        description: `${secret.description ?? 'A secret'} Shown only in the answer that made it: a replay of the request (the same Idempotency-Key) answers null, with \`secretAlreadyShown: true\`.`,
      }),
    ]),
  ) as { [K in keyof Secrets]: z.ZodNullable<Secrets[K]> };
  return answer.extend({
    ...marked,
    [SECRET_ALREADY_SHOWN]: z.boolean().meta({
      description:
        'false: this answer carries the secret, the only time it is shown (store it now). true: this is a replay of the request (its Idempotency-Key), which answers the same resource without the secret (null); the secret from the first answer still works',
    }),
  });
}

/** The fields of an answer's schema that are secrets shown once (none for most routes). */
export function shownOnceFields(schema: z.ZodType | undefined): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([, field]) => field.meta()?.[SHOWN_ONCE] === true)
    .map(([name]) => name);
}

/**
 * An answer (JSON text) as a replay gives it and as it is stored: its secret `fields` null and
 * `secretAlreadyShown` true; everything else as it was, in the same order.
 */
export function withoutSecrets(body: string, fields: readonly string[]): string {
  if (fields.length === 0) return body;
  const answer = JSON.parse(body) as Record<string, unknown>;
  for (const field of fields) if (Object.hasOwn(answer, field)) answer[field] = null;
  answer[SECRET_ALREADY_SHOWN] = true;
  return JSON.stringify(answer);
}
