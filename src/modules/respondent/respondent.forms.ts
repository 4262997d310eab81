import { z } from '../../platform/kernel/zod';

// The contact's forms: their zod shapes. A contact's form is never refused for its shape: a field that
// is missing, repeated or not text reads as '', and the use cases name what is wrong on the page itself.
// (They are documented as plain objects, their fields named in each page's description.)

/** A form field as one trimmed string ('' when absent, repeated or not text). */
const field = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === 'string' ? v.trim() : ''));

/** A form field as typed, untrimmed ('' when absent, repeated or not text). */
const asTyped = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === 'string' ? v : ''));

/** A form field as sent: text, or the list of its values when it was sent more than once. */
const sent = z.union([z.string(), z.array(z.string())]);

/** Form fields of the questions (`q.<id>`), each as a list of strings; a Map, so no key is special. */
function answersOf(body: Record<string, unknown>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of Object.entries(body)) {
    if (!k.startsWith('q.')) continue;
    out.set(
      k,
      (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string'),
    );
  }
  return out;
}

/**
 * A page of the questionnaire: `step` (its number; NaN when it is not one), `nav` (`back`, `save`, or
 * anything else: `next`) and the answers, one field per question whatever its name (`q.<questionId>`).
 */
export const StepForm = z
  .object({ step: field.transform(Number), nav: field })
  .catchall(sent)
  .transform(({ step, nav, ...fields }) => ({
    step,
    nav: nav === 'back' ? ('back' as const) : nav === 'save' ? ('save' as const) : ('next' as const),
    answers: answersOf(fields),
  }));

/** A campaign's start: who this browser answers as. */
export const VisitorForm = z.object({ firstName: field, lastName: field, email: field });

/** A signer asks for a one-time code on a channel (`email` or `sms`). */
export const CodeRequestForm = z.object({ channel: field });

/** A signer confirms the one-time code. */
export const CodeForm = z.object({ code: field });

/** A signature: typed or drawn, and the consent (`yes`). */
export const SignForm = z.object({
  mark: field,
  typedName: field,
  drawing: field,
  consent: field.transform((v) => v === 'yes'),
});

/** A signer declines: the reason as typed (its length is checked as it was sent). */
export const DeclineForm = z.object({ reason: asTyped });
