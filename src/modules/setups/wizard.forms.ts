import type { SendProblem, SendProblemKey } from '../../i18n/desk-send-problems';
import { languages } from '../../i18n/languages';
import { z } from '../../platform/kernel/zod';
import type { OptionsValues } from './pages/wizard.pages';
import type { ActionChoice, SendOptions } from './wizard.service';

// The wizard's forms: their zod shapes, and what the options step's fields mean.

const one = z.string().max(2000);
/** A field that may be repeated (checkboxes): always a list. */
export const many = (max: number) =>
  z
    .union([z.string().max(200), z.array(z.string().max(200)).max(max)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

export const OptionsForm = {
  _csrf: one,
  email: z.literal('yes').optional(),
  sms: z.literal('yes').optional(),
  reminder1Days: z.string().max(10).optional(),
  reminder2Days: z.string().max(10).optional(),
  expiresOn: z.string().max(20).optional(),
  language: z.enum(languages).optional(),
  message: z.string().max(4000).optional(),
  signatureLevel: z.enum(['simple', 'qualified']).optional(),
};
/** The quick-signing step's form: the options only. */
export const QuickForm = z.object(OptionsForm);
/** The action step's form: the options, the contacts, the templates and how they are sent. */
export const ActionForm = z.object({
  ...OptionsForm,
  include: many(50),
  contact: many(50),
  questionListIds: many(20),
  type: z.enum(['qlist', 'multisigning']).default('qlist'),
  together: z.literal('yes').optional(),
  signingOrder: z.literal('sequential').optional(),
});
/** The desk's document step: the options, the PDF uploaded, its title, and the signers in order. */
export const DocumentForm = z.object({
  ...OptionsForm,
  fileId: z.string().max(40).default(''),
  title: z.string().max(2000).optional(),
  contact: many(10),
  position: many(10),
  signingOrder: z.enum(['parallel', 'sequential']).optional(),
});
type OptionsInput = z.output<typeof QuickForm>;
/** The action step's form as parsed. */
export type ActionInput = z.output<typeof ActionForm>;

/** Reads the options step; problems are named for the page (and nothing is sent). */
export function readOptions(f: OptionsInput): {
  options: SendOptions;
  values: OptionsValues;
  problems: SendProblem[];
} {
  const problems: SendProblem[] = [];
  const days = (raw: string | undefined, problem: SendProblemKey) => {
    const text = raw?.trim() ?? '';
    if (!text) return undefined;
    const n = Number(text);
    if (!/^\d{1,3}$/.test(text) || n < 1 || n > 365) {
      problems.push(problem);
      return undefined;
    }
    return n;
  };
  const reminder1Days = days(f.reminder1Days, 'reminder1Days');
  const reminder2Days = days(f.reminder2Days, 'reminder2Days');
  if (reminder1Days !== undefined && reminder2Days !== undefined && reminder2Days <= reminder1Days) {
    problems.push('reminderOrder');
  }
  const expiresOn = f.expiresOn?.trim() || undefined;
  let expiresAt: string | undefined;
  if (expiresOn) {
    // A real day: 2026-02-30 is refused, not rolled over into March.
    const day = new Date(`${expiresOn}T23:59:59Z`);
    const ok =
      /^\d{4}-\d\d-\d\d$/.test(expiresOn) &&
      !Number.isNaN(day.getTime()) &&
      day.toISOString().slice(0, 10) === expiresOn;
    if (ok) expiresAt = `${expiresOn}T23:59:59Z`;
    else problems.push('expiresOn');
  }
  const message = f.message?.trim() || undefined;
  if (message && message.length > 2000) problems.push('messageLong');
  const options: SendOptions = {
    email: f.email === 'yes',
    sms: f.sms === 'yes',
    reminder1Days,
    reminder2Days,
    language: f.language,
    message,
    expiresAt,
    signatureLevel: f.signatureLevel,
  };
  if (!options.email && !options.sms) problems.push('channels');
  const values: OptionsValues = {
    email: options.email,
    sms: options.sms,
    reminder1Days,
    reminder2Days,
    language: f.language,
    message,
    expiresOn,
    signatureLevel: f.signatureLevel,
  };
  return { options, values, problems };
}

/** What the action step asks to send: the options read, with the form's type, templates and order. */
export const choiceOf = (form: ActionInput, options: SendOptions): ActionChoice => ({
  ...options,
  type: form.type,
  questionListIds: form.questionListIds,
  together: form.together === 'yes',
  signingOrder: form.signingOrder === 'sequential' ? 'sequential' : 'parallel',
});

/** The action step's choices as the form sent them, to show the step again. */
export const actionValues = (form: ActionInput, values: OptionsValues) => ({
  ...values,
  type: form.type,
  together: form.together === 'yes',
  questionListIds: form.questionListIds,
  signingOrder: form.signingOrder,
});
