import { languages } from '../../db/schema/enums';
import type { Language, Question, Section } from './questionlists.schemas';
import { choiceTypes } from './questionlists.schemas';

/** The languages every one of the templates supports, in the order nl, fr, en. */
export function sharedLanguages(templates: { supportedLanguages: readonly string[] }[]): Language[] {
  return languages.filter((l) => templates.every((t) => t.supportedLanguages.includes(l)));
}

export interface RuleIssue {
  path: (string | number)[];
  message: string;
}

type Texts = Partial<Record<Language, string>>;

/**
 * The checks a template's shape alone cannot express: unique ids, options only (and always) on choice
 * questions, a text in every supported language, conditions on an earlier question with a value that
 * question can take. Returns every problem, with the path of the field at fault.
 */
export function checkQuestionList(supportedLanguages: readonly Language[], sections: Section[]): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const texts = (value: Texts | undefined, path: (string | number)[]) => {
    if (!value) return;
    for (const lang of supportedLanguages) {
      if (value[lang] === undefined)
        issues.push({ path: [...path, lang], message: `is required: ${lang} is a supported language` });
    }
    for (const lang of Object.keys(value)) {
      if (!supportedLanguages.includes(lang as Language))
        issues.push({ path: [...path, lang], message: `${lang} is not one of supportedLanguages` });
    }
  };

  const seenSections = new Map<string, number>();
  const earlier = new Map<string, Question>();
  const seenQuestions = new Map<string, string>();
  sections.forEach((section, s) => {
    const sPath = ['sections', s];
    const firstSection = seenSections.get(section.id);
    if (firstSection !== undefined)
      issues.push({ path: [...sPath, 'id'], message: `repeats the id of sections[${firstSection}]` });
    else seenSections.set(section.id, s);
    texts(section.title, [...sPath, 'title']);

    section.questions.forEach((question, q) => {
      const qPath = [...sPath, 'questions', q];
      const first = seenQuestions.get(question.id);
      if (first !== undefined) issues.push({ path: [...qPath, 'id'], message: `repeats the id of ${first}` });
      texts(question.title, [...qPath, 'title']);
      texts(question.description, [...qPath, 'description']);
      checkOptions(question, qPath, issues, texts);
      if (question.condition) checkCondition(question, qPath, earlier, issues);
      if (first === undefined) {
        seenQuestions.set(question.id, `sections[${s}].questions[${q}]`);
        earlier.set(question.id, question);
      }
    });
  });
  return issues;
}

function checkOptions(
  question: Question,
  qPath: (string | number)[],
  issues: RuleIssue[],
  texts: (value: Texts | undefined, path: (string | number)[]) => void,
) {
  const isChoice = choiceTypes.includes(question.type);
  if (!isChoice) {
    if (question.options !== undefined)
      issues.push({ path: [...qPath, 'options'], message: `a ${question.type} question takes no options` });
    return;
  }
  const options = question.options ?? [];
  if (options.length < 2) {
    issues.push({
      path: [...qPath, 'options'],
      message: `a ${question.type} question needs at least 2 options`,
    });
  }
  const values = new Set<string>();
  options.forEach((option, o) => {
    if (values.has(option.value))
      issues.push({
        path: [...qPath, 'options', o, 'value'],
        message: 'repeats the value of another option',
      });
    values.add(option.value);
    texts(option.label, [...qPath, 'options', o, 'label']);
  });
}

function checkCondition(
  question: Question,
  qPath: (string | number)[],
  earlier: Map<string, Question>,
  issues: RuleIssue[],
) {
  const condition = question.condition!;
  const cPath = [...qPath, 'condition'];
  if (condition.questionId === question.id) {
    issues.push({ path: [...cPath, 'questionId'], message: 'a question cannot depend on itself' });
    return;
  }
  const target = earlier.get(condition.questionId);
  if (!target) {
    issues.push({
      path: [...cPath, 'questionId'],
      message: `refers to an unknown question '${condition.questionId}' (it must come earlier in the template)`,
    });
    return;
  }
  const value = condition.equals;
  const wrong = (message: string) => issues.push({ path: [...cPath, 'equals'], message });
  if (choiceTypes.includes(target.type)) {
    if (typeof value !== 'string' || !(target.options ?? []).some((o) => o.value === value))
      wrong(`must be one of the option values of '${target.id}'`);
  } else if (target.type === 'yes_no') {
    if (typeof value !== 'boolean') wrong(`must be true or false ('${target.id}' is a yes_no question)`);
  } else if (target.type === 'number') {
    if (typeof value !== 'number') wrong(`must be a number ('${target.id}' is a number question)`);
  } else if (typeof value !== 'string') {
    wrong(`must be a string ('${target.id}' is a ${target.type} question)`);
  }
}
