import type { Language } from '../../i18n/languages';
import { type AnswerProblem, respondentTexts } from '../../i18n/respondent';
import type { Question, Section } from '../questionlists';

/** An answer as stored: text types as strings, number, yes_no as boolean, multiple choice as values. */
export type AnswerValue = string | number | boolean | string[];
/**
 * One template's answers, by question id. Always a null-prototype object (see `plainAnswers`): question
 * ids such as `constructor` or `toString` must never find something the contact did not send.
 */
export type Answers = Record<string, AnswerValue>;
/** Answers by template id (the draft of an action or of a campaign visitor). */
export type Drafts = Record<string, Record<string, unknown>>;

export interface AnswerIssue {
  questionId: string;
  problem: AnswerProblem;
}

const MAX_TEXT = new Map<string, number>([
  ['short_text', 500],
  ['long_text', 10_000],
  ['email', 254],
  ['phone', 50],
]);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()./-]{6,30}$/;

/** An empty set of answers, with no prototype. */
export function noAnswers(): Answers {
  return Object.create(null) as Answers;
}

/** Stored or client data as answers: its own keys only, copied onto a null-prototype object. */
export function plainAnswers(value: unknown): Answers {
  const out = noAnswers();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) out[k] = v as AnswerValue;
  }
  return out;
}

/** The answer to one question, only if it was given (never an inherited property). */
export function answerOf(answers: Answers, questionId: string): AnswerValue | undefined {
  return Object.hasOwn(answers, questionId) ? answers[questionId] : undefined;
}

/** One template's answers out of a draft. */
export function draftOf(drafts: Drafts, listId: string): Answers {
  return plainAnswers(Object.hasOwn(drafts, listId) ? drafts[listId] : undefined);
}

/** The draft with one template's answers replaced (a new object; `drafts` is left as it was). */
export function withDraft(drafts: Drafts, listId: string, answers: Answers): Drafts {
  const out = Object.create(null) as Drafts;
  for (const [k, v] of Object.entries(drafts)) out[k] = v;
  out[listId] = answers;
  return out;
}

/**
 * Drafts as ordinary JSON data for the database driver (which looks at `constructor`): a copy through
 * JSON, whose parser makes every key, even `__proto__`, a plain own property.
 */
export function storable(drafts: Drafts): Drafts {
  return JSON.parse(JSON.stringify(drafts)) as Drafts;
}

function isEmpty(value: AnswerValue | undefined): boolean {
  return value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

function isValidDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Whether a question is shown, given the answers so far: its condition's question is shown and matches. */
export function isVisible(
  question: Question,
  answers: Answers,
  byId: Map<string, Question>,
  depth = 0,
): boolean {
  const condition = question.condition;
  if (!condition) return true;
  const target = byId.get(condition.questionId);
  if (!target || depth > 50 || !isVisible(target, answers, byId, depth + 1)) return false;
  const answer = answerOf(answers, condition.questionId);
  return Array.isArray(answer) ? answer.includes(String(condition.equals)) : answer === condition.equals;
}

/** The problem with one answer of the right question, or null. */
export function checkAnswer(question: Question, value: AnswerValue): AnswerProblem | null {
  const options = new Set((question.options ?? []).map((o) => o.value));
  // Only a multiple-choice question takes several values; two for any other is refused, never trimmed.
  if (question.type !== 'multiple_choice' && Array.isArray(value)) return 'oneOnly';
  switch (question.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'number';
    case 'yes_no':
      return typeof value === 'boolean' ? null : 'choice';
    case 'single_choice':
      return typeof value === 'string' && options.has(value) ? null : 'choice';
    case 'multiple_choice':
      return Array.isArray(value) &&
        value.every((v) => options.has(v)) &&
        new Set(value).size === value.length
        ? null
        : 'choice';
    case 'date':
      return typeof value === 'string' && isValidDate(value) ? null : 'date';
    default: {
      if (typeof value !== 'string') return 'length';
      if (value.length > (MAX_TEXT.get(question.type) ?? 500)) return 'length';
      if (question.type === 'email' && !EMAIL.test(value)) return 'email';
      if (question.type === 'phone' && !PHONE.test(value)) return 'phone';
      return null;
    }
  }
}

/**
 * Reads a form field (all strings) as the question's answer; undefined when left empty. Several values
 * for a question that takes one come back as a list, which checkAnswer refuses.
 */
export function fromForm(question: Question, raw: string[]): AnswerValue | undefined {
  const values = raw.map((v) => v.trim()).filter((v) => v !== '');
  if (question.type === 'multiple_choice') return values;
  if (values.length > 1) return values;
  const value = values[0];
  if (value === undefined) return undefined;
  if (question.type === 'number') {
    const n = Number(value.replace(/\s/g, '').replace(',', '.'));
    return Number.isFinite(n) && /^-?[\d\s.,]+$/.test(value) ? n : value;
  }
  if (question.type === 'yes_no') return value === 'yes' ? true : value === 'no' ? false : value;
  return value;
}

export function questionsOf(sections: Section[]): Map<string, Question> {
  return new Map(sections.flatMap((s) => s.questions).map((q) => [q.id, q]));
}

/**
 * Checks answers against a template: types and options of every answer given, and, when `complete`,
 * that every shown required question is answered. Answers to hidden questions are dropped from the
 * result, so a changed condition never keeps a stale answer.
 */
export function checkAnswers(
  sections: Section[],
  answers: Answers,
  opts: { complete: boolean; sectionIds?: string[] },
): { answers: Answers; issues: AnswerIssue[] } {
  const byId = questionsOf(sections);
  const kept = noAnswers();
  const issues: AnswerIssue[] = [];
  for (const section of sections) {
    const inScope = !opts.sectionIds || opts.sectionIds.includes(section.id);
    for (const question of section.questions) {
      if (!isVisible(question, answers, byId)) continue;
      const value = answerOf(answers, question.id);
      if (value === undefined || isEmpty(value)) {
        if (question.required && opts.complete && inScope)
          issues.push({ questionId: question.id, problem: 'required' });
        continue;
      }
      const problem = checkAnswer(question, value);
      if (problem) {
        if (inScope) issues.push({ questionId: question.id, problem });
        continue;
      }
      kept[question.id] = value;
    }
  }
  return { answers: kept, issues };
}

/** An answer as people read it, in `language`: option labels, Yes/No, multiple choice joined by commas. */
export function readable(question: Question, value: AnswerValue, language: Language): string {
  const label = (v: string) => question.options?.find((o) => o.value === v)?.label[language] ?? v;
  if (typeof value === 'boolean') return value ? respondentTexts[language].yes : respondentTexts[language].no;
  if (Array.isArray(value)) return value.map(label).join(', ');
  if (question.type === 'single_choice') return label(String(value));
  return String(value);
}
