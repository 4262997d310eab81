import { languages } from '../../db/schema/enums';
import { timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { walkQuery } from '../../platform/lists/cursor';

export const Language = z.enum(languages).meta({ id: 'Language', description: 'Language code' });
export type Language = z.infer<typeof Language>;

/** A text per language; which languages are required is checked against supportedLanguages. */
const Texts = (max: number) =>
  z
    .partialRecord(Language, z.string().trim().min(1).max(max))
    .meta({ description: 'Text per language code (nl, fr, en); every supported language is required' });

const questionTypes = [
  'short_text',
  'long_text',
  'single_choice',
  'multiple_choice',
  'yes_no',
  'number',
  'date',
  'email',
  'phone',
] as const;
export const choiceTypes: readonly string[] = ['single_choice', 'multiple_choice'];

/**
 * The one pattern of section ids, question ids and option values: they become form field names, HTML
 * ids and keys of stored answers, so they are plain words (never `__proto__` or anything with a dot).
 */
const LOCAL_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const localIdRule = 'must be 1–64 letters, digits, _ or -, starting with a letter or digit';

const localId = z.string().regex(LOCAL_ID, localIdRule).meta({
  description:
    'Stable id, unique within the template; answers refer to it. Pattern: ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$',
});

const Option = z.strictObject({
  value: z
    .string()
    .regex(LOCAL_ID, localIdRule)
    .meta({ description: 'Stored as the answer. Same pattern as ids: ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$' }),
  label: Texts(500),
});

const Condition = z
  .strictObject({
    questionId: localId.meta({ description: 'An earlier question of the template' }),
    equals: z.union([z.string().max(200), z.number(), z.boolean()]).meta({
      description:
        'Shown when that answer equals this value (for multiple choice: when it includes it). A choice value, true/false for yes_no, a number for number.',
    }),
  })
  .meta({ id: 'QuestionCondition' });

export const Question = z
  .strictObject({
    id: localId,
    type: z.enum(questionTypes),
    title: Texts(1000),
    description: Texts(4000).optional(),
    required: z.boolean().default(false),
    options: z
      .array(Option)
      .max(100)
      .optional()
      .meta({ description: 'Only for single_choice and multiple_choice' }),
    condition: Condition.optional(),
  })
  .meta({ id: 'Question' });

export const Section = z
  .strictObject({
    id: localId,
    title: Texts(500),
    questions: z.array(Question).min(1).max(200),
  })
  .meta({ id: 'QuestionSection' });

export type Question = z.infer<typeof Question>;
export type Section = z.infer<typeof Section>;

const slug = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lower-case letters and digits separated by single hyphens')
  .max(100);

const fields = {
  name: z.string().trim().min(1).max(200),
  slug: slug.meta({ description: 'Unique in the organisation; derived from the name when left out' }),
  description: z.string().trim().max(2000),
  supportedLanguages: z
    .array(Language)
    .min(1)
    .max(languages.length)
    .refine((l) => new Set(l).size === l.length, 'must not repeat a language')
    .meta({ uniqueItems: true }),
  hasReportSpec: z.boolean().meta({ description: 'A PDF report of the answers is generated on completion' }),
  active: z.boolean().meta({ description: 'Only active templates are listed and can be sent' }),
  sections: z.array(Section).min(1).max(50),
};

export const CreateQuestionList = z
  .strictObject({
    name: fields.name,
    slug: fields.slug.optional(),
    description: fields.description.default(''),
    supportedLanguages: fields.supportedLanguages,
    hasReportSpec: fields.hasReportSpec.default(false),
    active: fields.active.default(true),
    sections: fields.sections,
  })
  .meta({ id: 'CreateQuestionList' });

export const UpdateQuestionList = z
  .strictObject({
    name: fields.name.optional(),
    slug: fields.slug.optional(),
    description: fields.description.optional(),
    supportedLanguages: fields.supportedLanguages.optional(),
    hasReportSpec: fields.hasReportSpec.optional(),
    active: fields.active.optional(),
    sections: fields.sections.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' })
  .meta({ id: 'UpdateQuestionList', minProperties: 1 });

/** The spec's question list (2.2), plus state and timestamps. */
export const QuestionListSummary = z
  .object({
    _id: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    supportedLanguages: z.array(Language),
    hasReportSpec: z.boolean(),
    active: z.boolean(),
    version: z.number().int().meta({ description: 'Bumped when the questions or languages change' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'QuestionListSummary' });

export const QuestionList = QuestionListSummary.extend({ sections: z.array(Section) }).meta({
  id: 'QuestionList',
});

export const ListQuestionListsQuery = z.object({
  includeInactive: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'true also lists inactive templates (the spec’s list is active only)' }),
  ...walkQuery,
});

export type CreateQuestionList = z.infer<typeof CreateQuestionList>;
export type UpdateQuestionList = z.infer<typeof UpdateQuestionList>;
export type QuestionListSummary = z.infer<typeof QuestionListSummary>;
export type QuestionList = z.infer<typeof QuestionList>;
