import { z } from '../../platform/kernel/zod';

// The form the OAuth endpoints read (token, revocation, introspection). Their documented forms (the
// routers' TokenRequest, RevocationRequest, IntrospectionRequest) say what a well-formed request sends;
// this one takes whatever a urlencoded form can be, so that every malformed request is answered by the
// endpoint in RFC 6749's words (a repeated field, an unknown grant, a missing token), as it always was.

/** A form field as sent: text, or the list of its values when it was sent more than once. */
const sent = z.union([z.string(), z.array(z.string())]);

/**
 * Every field of an OAuth endpoint's form, by name, in the order sent (the token endpoint names the
 * first repeated one). Null-prototype: a client's field name is never one of Object's.
 */
export const OAuthFields = z
  .record(z.string(), sent)
  .transform((form) => Object.assign(Object.create(null) as Record<string, string | string[]>, form));

/** An OAuth endpoint's form as parsed. */
export type OAuthForm = z.output<typeof OAuthFields>;
