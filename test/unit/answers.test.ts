import type { Question, Section } from '../../src/modules/questionlists';
import {
  type Answers,
  answerOf,
  checkAnswer,
  checkAnswers,
  draftOf,
  fromForm,
  isVisible,
  noAnswers,
  plainAnswers,
  questionsOf,
  readable,
  storable,
  withDraft,
} from '../../src/modules/respondent/answers';

const q = (id: string, type: Question['type'], extra: Partial<Question> = {}): Question => ({
  id,
  type,
  title: { en: id },
  required: false,
  ...extra,
});
const options = (...values: string[]) =>
  values.map((value) => ({ value, label: { en: value.toUpperCase(), nl: `nl-${value}` } }));
const section = (id: string, ...questions: Question[]): Section => ({ id, title: { en: id }, questions });
const answers = (value: Record<string, unknown>): Answers => plainAnswers(value);

describe('one answer (checkAnswer)', () => {
  const color = q('color', 'single_choice', { options: options('red', 'blue') });
  const pets = q('pets', 'multiple_choice', { options: options('cat', 'dog', 'fish') });

  it.each<[Question['type'], unknown]>([
    ['short_text', 'Jan'],
    ['short_text', 'x'.repeat(500)],
    ['long_text', 'x'.repeat(10_000)],
    ['email', 'jan@example.com'],
    ['email', `${'a'.repeat(242)}@example.com`],
    ['phone', '+32 470 12 34 56'],
    ['phone', '(02) 123.45.67'],
    ['phone', '0470/12-34-56'],
    ['number', 0],
    ['number', -12.5],
    ['yes_no', true],
    ['yes_no', false],
    ['date', '2024-02-29'],
    ['date', '2026-12-31'],
  ])('when a %s question gets %j, then it is accepted', (type, value) => {
    expect(checkAnswer(q('x', type), value as never)).toBeNull();
  });

  it.each<[Question['type'], unknown, string]>([
    ['short_text', 'x'.repeat(501), 'length'],
    ['long_text', 'x'.repeat(10_001), 'length'],
    ['short_text', 5, 'length'],
    ['short_text', true, 'length'],
    ['email', `${'a'.repeat(243)}@example.com`, 'length'],
    ['email', 'jan', 'email'],
    ['email', 'jan@example', 'email'],
    ['email', 'jan @example.com', 'email'],
    ['email', '@example.com', 'email'],
    ['phone', '12345', 'phone'],
    ['phone', 'call me', 'phone'],
    ['phone', '+32 470 12 34 56 ext. 3', 'phone'],
    ['phone', '1'.repeat(51), 'length'],
    ['number', '12', 'number'],
    ['number', Number.NaN, 'number'],
    ['number', Number.POSITIVE_INFINITY, 'number'],
    ['yes_no', 'yes', 'choice'],
    ['yes_no', 1, 'choice'],
    ['date', '2023-02-29', 'date'],
    ['date', '2026-13-01', 'date'],
    ['date', '2026-04-31', 'date'],
    ['date', '2026-3-1', 'date'],
    ['date', '01/03/2026', 'date'],
    ['date', '2026-03-01T00:00:00Z', 'date'],
    ['date', 20260301, 'date'],
  ])('when a %s question gets %j, then the problem is %s', (type, value, problem) => {
    expect(checkAnswer(q('x', type), value as never)).toBe(problem);
  });

  it('when a choice question gets a value that is not one of its options, then the problem is choice', () => {
    expect(checkAnswer(color, 'red')).toBeNull();
    expect(checkAnswer(color, 'green')).toBe('choice');
    expect(checkAnswer(color, 'RED')).toBe('choice');
    expect(checkAnswer(color, true)).toBe('choice');
    expect(checkAnswer(pets, ['cat', 'fish'])).toBeNull();
    expect(checkAnswer(pets, [])).toBeNull();
    expect(checkAnswer(pets, ['cat', 'bird'])).toBe('choice');
    expect(checkAnswer(pets, 'cat')).toBe('choice');
  });

  it('when a multiple-choice answer repeats a value, then it is refused rather than counted twice', () => {
    expect(checkAnswer(pets, ['cat', 'cat'])).toBe('choice');
  });

  it('when a question that takes one value gets a list, then it is refused (oneOnly), never trimmed to one', () => {
    for (const type of ['short_text', 'email', 'phone', 'number', 'yes_no', 'date'] as const)
      expect(checkAnswer(q('x', type), ['a'])).toBe('oneOnly');
    expect(checkAnswer(color, ['red'])).toBe('oneOnly');
    expect(checkAnswer(color, ['red', 'blue'])).toBe('oneOnly');
  });
});

describe('answers read from a form (fromForm)', () => {
  it('when a field is left empty or blank, then there is no answer', () => {
    expect(fromForm(q('x', 'short_text'), [])).toBeUndefined();
    expect(fromForm(q('x', 'short_text'), ['', '   '])).toBeUndefined();
    expect(fromForm(q('x', 'number'), [' '])).toBeUndefined();
  });

  it('when text is given, then it is trimmed', () => {
    expect(fromForm(q('x', 'short_text'), ['  Jan  '])).toBe('Jan');
  });

  it('when a number is written with spaces or a decimal comma, then it is read as a number', () => {
    const n = q('n', 'number');
    expect(fromForm(n, ['42'])).toBe(42);
    expect(fromForm(n, ['1 250'])).toBe(1250);
    expect(fromForm(n, ['3,5'])).toBe(3.5);
    expect(fromForm(n, ['-7.25'])).toBe(-7.25);
  });

  it('when a number field holds something else, then it stays text, which checkAnswer refuses', () => {
    const n = q('n', 'number');
    for (const raw of ['12abc', '1e3', 'Infinity', '0x10', '1.250,50', '--1']) {
      const value = fromForm(n, [raw]);
      expect(typeof value).toBe('string');
      expect(checkAnswer(n, value!)).toBe('number');
    }
  });

  it('when a yes/no field says yes or no, then it is a boolean; anything else stays text and is refused', () => {
    const yn = q('yn', 'yes_no');
    expect(fromForm(yn, ['yes'])).toBe(true);
    expect(fromForm(yn, ['no'])).toBe(false);
    expect(fromForm(yn, ['maybe'])).toBe('maybe');
    expect(checkAnswer(yn, fromForm(yn, ['maybe'])!)).toBe('choice');
  });

  it('when several values come for a question that takes one, then they come back as a list that checkAnswer refuses', () => {
    const text = q('t', 'short_text');
    expect(fromForm(text, ['a', 'b'])).toEqual(['a', 'b']);
    expect(checkAnswer(text, fromForm(text, ['a', 'b'])!)).toBe('oneOnly');
    // One value and an empty one are one value.
    expect(fromForm(text, ['a', ''])).toBe('a');
  });

  it('when a multiple-choice field is sent, then its values are always a list, empty ones left out', () => {
    const m = q('m', 'multiple_choice', { options: options('a', 'b') });
    expect(fromForm(m, ['a', ' ', 'b'])).toEqual(['a', 'b']);
    expect(fromForm(m, [])).toEqual([]);
  });
});

describe('answers as plain data (plainAnswers, answerOf, drafts)', () => {
  it('when question ids are names of Object.prototype, then nothing is found that was not sent', () => {
    const given = answers({ name: 'Jan' });
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])
      expect(answerOf(given, id)).toBeUndefined();
    expect(answerOf(given, 'name')).toBe('Jan');
    expect(Object.getPrototypeOf(given)).toBeNull();
    expect(Object.getPrototypeOf(noAnswers())).toBeNull();
  });

  it('when client data carries a __proto__ key, then it becomes an answer like any other and pollutes nothing', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": "c"}');
    const got = plainAnswers(parsed);
    expect(answerOf(got, '__proto__')).toEqual({ polluted: 'yes' });
    expect(answerOf(got, 'constructor')).toBe('c');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(answerOf(got, 'polluted')).toBeUndefined();
  });

  it('when the data is not an object, then there are no answers', () => {
    for (const value of [null, undefined, 'text', 42, ['a', 'b']])
      expect(Object.keys(plainAnswers(value))).toEqual([]);
  });

  it('when a draft is read, replaced and stored, then each template keeps its own answers and the original is left as it was', () => {
    const drafts = { list1: { a: 'x' } };
    expect(answerOf(draftOf(drafts, 'list1'), 'a')).toBe('x');
    expect(Object.keys(draftOf(drafts, 'list2'))).toEqual([]);
    expect(Object.keys(draftOf(drafts, 'constructor'))).toEqual([]);
    const next = withDraft(drafts, 'list2', answers({ b: 'y' }));
    expect(drafts).toEqual({ list1: { a: 'x' } });
    expect(Object.keys(next).sort()).toEqual(['list1', 'list2']);
    const stored = storable(withDraft(next, '__proto__', answers({ c: 'z' })));
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.hasOwn(stored, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(stored))).toEqual(
      JSON.parse('{"list1":{"a":"x"},"list2":{"b":"y"},"__proto__":{"c":"z"}}'),
    );
  });
});

describe('conditions (isVisible)', () => {
  const hasPets = q('hasPets', 'yes_no');
  const kind = q('kind', 'multiple_choice', {
    options: options('cat', 'dog'),
    condition: { questionId: 'hasPets', equals: true },
  });
  const catName = q('catName', 'short_text', { condition: { questionId: 'kind', equals: 'cat' } });
  const orphan = q('orphan', 'short_text', { condition: { questionId: 'missing', equals: 'x' } });
  const byId = questionsOf([section('s', hasPets, kind, catName, orphan)]);

  it('when a question has no condition, then it is shown', () => {
    expect(isVisible(hasPets, noAnswers(), byId)).toBe(true);
  });

  it('when the answer equals the condition (includes it, for multiple choice), then the question is shown', () => {
    expect(isVisible(kind, answers({ hasPets: true }), byId)).toBe(true);
    expect(isVisible(kind, answers({ hasPets: false }), byId)).toBe(false);
    expect(isVisible(kind, noAnswers(), byId)).toBe(false);
    expect(isVisible(catName, answers({ hasPets: true, kind: ['dog', 'cat'] }), byId)).toBe(true);
    expect(isVisible(catName, answers({ hasPets: true, kind: ['dog'] }), byId)).toBe(false);
  });

  it('when the question a condition depends on is hidden, then the dependent one is hidden too, whatever its answer', () => {
    expect(isVisible(catName, answers({ hasPets: false, kind: ['cat'] }), byId)).toBe(false);
  });

  it('when a condition names an unknown question, then the question is hidden', () => {
    expect(isVisible(orphan, answers({ missing: 'x' }), byId)).toBe(false);
  });

  it('when conditions form a loop (in stored data), then the question is hidden rather than recursing forever', () => {
    const a = q('a', 'short_text', { condition: { questionId: 'b', equals: 'x' } });
    const b = q('b', 'short_text', { condition: { questionId: 'a', equals: 'x' } });
    const loop = questionsOf([section('s', a, b)]);
    expect(isVisible(a, answers({ a: 'x', b: 'x' }), loop)).toBe(false);
  });

  it('when the condition compares a number or a boolean, then the answer must be that value, not its text', () => {
    const age = q('age', 'number');
    const adult = q('adult', 'short_text', { condition: { questionId: 'age', equals: 18 } });
    const ids = questionsOf([section('s', age, adult)]);
    expect(isVisible(adult, answers({ age: 18 }), ids)).toBe(true);
    expect(isVisible(adult, answers({ age: '18' }), ids)).toBe(false);
  });
});

describe('a template’s answers (checkAnswers)', () => {
  const sections = [
    section(
      'about',
      q('name', 'short_text', { required: true }),
      q('email', 'email'),
      q('hasPets', 'yes_no', { required: true }),
      q('petName', 'short_text', { required: true, condition: { questionId: 'hasPets', equals: true } }),
    ),
    section('money', q('budget', 'number', { required: true })),
  ];

  it('when every shown required question is answered well, then there are no issues and the answers are kept', () => {
    const result = checkAnswers(
      sections,
      answers({ name: 'Jan', hasPets: true, petName: 'Rex', budget: 10 }),
      {
        complete: true,
      },
    );
    expect(result.issues).toEqual([]);
    expect({ ...result.answers }).toEqual({ name: 'Jan', hasPets: true, petName: 'Rex', budget: 10 });
    expect(Object.getPrototypeOf(result.answers)).toBeNull();
  });

  it('when a shown required question is unanswered or empty, then complete answers name it as required, in template order', () => {
    const result = checkAnswers(sections, answers({ name: '', hasPets: true, petName: [] }), {
      complete: true,
    });
    expect(result.issues).toEqual([
      { questionId: 'name', problem: 'required' },
      { questionId: 'petName', problem: 'required' },
      { questionId: 'budget', problem: 'required' },
    ]);
  });

  it('when answers are a draft (not complete), then missing answers are fine but wrong ones are still named', () => {
    const result = checkAnswers(sections, answers({ email: 'nope', budget: 'ten' }), { complete: false });
    expect(result.issues).toEqual([
      { questionId: 'email', problem: 'email' },
      { questionId: 'budget', problem: 'number' },
    ]);
    expect(Object.keys(result.answers)).toEqual([]);
  });

  it('when a question is hidden by its condition, then its answer is dropped and it is not required', () => {
    const result = checkAnswers(
      sections,
      answers({ name: 'Jan', hasPets: false, petName: 'Rex', budget: 1 }),
      {
        complete: true,
      },
    );
    expect(result.issues).toEqual([]);
    expect(answerOf(result.answers, 'petName')).toBeUndefined();
  });

  it('when answers name questions the template does not have, then they are dropped', () => {
    const result = checkAnswers(sections, answers({ name: 'Jan', hasPets: false, budget: 1, extra: 'x' }), {
      complete: true,
    });
    expect(Object.keys(result.answers).sort()).toEqual(['budget', 'hasPets', 'name']);
  });

  it('when only some sections are checked, then only their issues are named, yet wrong answers elsewhere are still dropped', () => {
    const result = checkAnswers(sections, answers({ name: 'Jan', hasPets: false, budget: 'lots' }), {
      complete: true,
      sectionIds: ['about'],
    });
    expect(result.issues).toEqual([]);
    expect(answerOf(result.answers, 'budget')).toBeUndefined();
    expect(checkAnswers(sections, answers({}), { complete: true, sectionIds: ['money'] }).issues).toEqual([
      { questionId: 'budget', problem: 'required' },
    ]);
  });
});

describe('answers as people read them (readable)', () => {
  const color = q('color', 'single_choice', { options: options('red', 'blue') });
  const pets = q('pets', 'multiple_choice', { options: options('cat', 'dog') });

  it('when an answer is a choice, then its label in the language is shown (the value when it has none)', () => {
    expect(readable(color, 'red', 'en')).toBe('RED');
    expect(readable(color, 'red', 'nl')).toBe('nl-red');
    expect(readable(color, 'red', 'fr')).toBe('red');
    expect(readable(pets, ['cat', 'dog'], 'en')).toBe('CAT, DOG');
    expect(readable(pets, ['cat', 'gone'], 'en')).toBe('CAT, gone');
  });

  it('when an answer is yes or no, then it is said in the language', () => {
    const yn = q('yn', 'yes_no');
    expect([readable(yn, true, 'nl'), readable(yn, false, 'nl')]).toEqual(['Ja', 'Nee']);
    expect([readable(yn, true, 'fr'), readable(yn, false, 'fr')]).toEqual(['Oui', 'Non']);
    expect([readable(yn, true, 'en'), readable(yn, false, 'en')]).toEqual(['Yes', 'No']);
  });

  it('when an answer is text or a number, then it is shown as it is', () => {
    expect(readable(q('n', 'number'), 1250.5, 'en')).toBe('1250.5');
    expect(readable(q('t', 'short_text'), 'red', 'en')).toBe('red');
  });
});
