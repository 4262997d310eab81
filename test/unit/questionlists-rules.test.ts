import type { Language, Question, Section } from '../../src/modules/questionlists';
import { checkQuestionList, sharedLanguages } from '../../src/modules/questionlists/questionlists.rules';

const both = { nl: 'Vraag', en: 'Question' };
const q = (id: string, type: Question['type'], extra: Partial<Question> = {}): Question => ({
  id,
  type,
  title: both,
  required: false,
  ...extra,
});
const opt = (value: string, label: Partial<Record<Language, string>> = both) => ({ value, label });
const section = (id: string, ...questions: Question[]): Section => ({ id, title: both, questions });
const LANGS: Language[] = ['nl', 'en'];
const check = (...sections: Section[]) => checkQuestionList(LANGS, sections);

describe('the rules of a template (checkQuestionList)', () => {
  it('when a template is well formed, then there are no issues', () => {
    expect(
      check(
        section(
          'a',
          q('name', 'short_text', { description: both }),
          q('color', 'single_choice', { options: [opt('red'), opt('blue')] }),
          q('shade', 'short_text', { condition: { questionId: 'color', equals: 'red' } }),
        ),
        section(
          'b',
          q('pets', 'multiple_choice', { options: [opt('cat'), opt('dog')] }),
          q('catName', 'short_text', { condition: { questionId: 'pets', equals: 'cat' } }),
          q('adult', 'yes_no'),
          q('drinks', 'short_text', { condition: { questionId: 'adult', equals: true } }),
          q('age', 'number'),
          q('senior', 'short_text', { condition: { questionId: 'age', equals: 65 } }),
          q('mail', 'email'),
          q('sameMail', 'short_text', { condition: { questionId: 'mail', equals: 'a@b.c' } }),
        ),
      ),
    ).toEqual([]);
  });

  it('when section or question ids repeat, then the repeat is named with the first one’s place', () => {
    expect(check(section('a', q('x', 'short_text')), section('a', q('x', 'long_text')))).toEqual([
      { path: ['sections', 1, 'id'], message: 'repeats the id of sections[0]' },
      { path: ['sections', 1, 'questions', 0, 'id'], message: 'repeats the id of sections[0].questions[0]' },
    ]);
    expect(check(section('a', q('x', 'short_text'), q('y', 'short_text'), q('x', 'email')))).toEqual([
      { path: ['sections', 0, 'questions', 2, 'id'], message: 'repeats the id of sections[0].questions[0]' },
    ]);
  });

  it('when a text lacks a supported language, then that language is required at its path', () => {
    const issues = checkQuestionList(
      ['nl', 'fr', 'en'],
      [
        {
          id: 's',
          title: { nl: 'Titel', en: 'Title' },
          questions: [
            q('x', 'short_text', { title: { nl: 'x', fr: 'x', en: 'x' }, description: { fr: 'd' } }),
          ],
        },
      ],
    );
    expect(issues).toEqual([
      { path: ['sections', 0, 'title', 'fr'], message: 'is required: fr is a supported language' },
      {
        path: ['sections', 0, 'questions', 0, 'description', 'nl'],
        message: 'is required: nl is a supported language',
      },
      {
        path: ['sections', 0, 'questions', 0, 'description', 'en'],
        message: 'is required: en is a supported language',
      },
    ]);
  });

  it('when a text is in a language the template does not support, then it is named', () => {
    expect(check(section('s', q('x', 'short_text', { title: { nl: 'a', en: 'b', fr: 'c' } })))).toEqual([
      {
        path: ['sections', 0, 'questions', 0, 'title', 'fr'],
        message: 'fr is not one of supportedLanguages',
      },
    ]);
  });

  it('when an option label lacks a language, then its path names the option', () => {
    expect(
      check(section('s', q('c', 'single_choice', { options: [opt('a'), opt('b', { nl: 'B' })] }))),
    ).toEqual([
      {
        path: ['sections', 0, 'questions', 0, 'options', 1, 'label', 'en'],
        message: 'is required: en is a supported language',
      },
    ]);
  });

  it('when a choice question has fewer than 2 options or repeats a value, then it is named', () => {
    expect(check(section('s', q('c', 'single_choice', { options: [opt('a')] })))).toEqual([
      {
        path: ['sections', 0, 'questions', 0, 'options'],
        message: 'a single_choice question needs at least 2 options',
      },
    ]);
    expect(check(section('s', q('c', 'multiple_choice')))).toEqual([
      {
        path: ['sections', 0, 'questions', 0, 'options'],
        message: 'a multiple_choice question needs at least 2 options',
      },
    ]);
    expect(check(section('s', q('c', 'single_choice', { options: [opt('a'), opt('b'), opt('a')] })))).toEqual(
      [
        {
          path: ['sections', 0, 'questions', 0, 'options', 2, 'value'],
          message: 'repeats the value of another option',
        },
      ],
    );
  });

  it('when a question that is not a choice has options, then they are refused (even an empty list)', () => {
    for (const type of ['short_text', 'long_text', 'yes_no', 'number', 'date', 'email', 'phone'] as const) {
      expect(check(section('s', q('x', type, { options: [] })))).toEqual([
        { path: ['sections', 0, 'questions', 0, 'options'], message: `a ${type} question takes no options` },
      ]);
    }
  });

  it('when a condition names the question itself, a later one or an unknown one, then it is refused', () => {
    const path = ['sections', 0, 'questions', 0, 'condition', 'questionId'];
    expect(
      check(section('s', q('x', 'short_text', { condition: { questionId: 'x', equals: 'a' } }))),
    ).toEqual([{ path, message: 'a question cannot depend on itself' }]);
    expect(
      check(
        section(
          's',
          q('x', 'short_text', { condition: { questionId: 'y', equals: 'a' } }),
          q('y', 'short_text'),
        ),
      ),
    ).toEqual([
      { path, message: "refers to an unknown question 'y' (it must come earlier in the template)" },
    ]);
    // A question of an earlier section counts as earlier.
    expect(
      check(
        section('s', q('y', 'short_text')),
        section('t', q('x', 'short_text', { condition: { questionId: 'y', equals: 'a' } })),
      ),
    ).toEqual([]);
  });

  it('when a condition’s value is one its question cannot take, then the value is refused saying what it must be', () => {
    const path = ['sections', 0, 'questions', 1, 'condition', 'equals'];
    const pair = (target: Question, equals: string | number | boolean) =>
      check(section('s', target, q('dep', 'short_text', { condition: { questionId: target.id, equals } })));
    const color = q('color', 'single_choice', { options: [opt('red'), opt('blue')] });
    expect(pair(color, 'green')).toEqual([{ path, message: "must be one of the option values of 'color'" }]);
    expect(pair(color, 1)).toEqual([{ path, message: "must be one of the option values of 'color'" }]);
    expect(pair(q('yn', 'yes_no'), 'yes')).toEqual([
      { path, message: "must be true or false ('yn' is a yes_no question)" },
    ]);
    expect(pair(q('n', 'number'), '5')).toEqual([
      { path, message: "must be a number ('n' is a number question)" },
    ]);
    expect(pair(q('d', 'date'), true)).toEqual([
      { path, message: "must be a string ('d' is a date question)" },
    ]);
    expect(pair(q('yn', 'yes_no'), false)).toEqual([]);
    expect(pair(q('n', 'number'), 0)).toEqual([]);
  });

  it('when a condition names a repeated id, then it is checked against the first question of that id', () => {
    const issues = check(
      section(
        's',
        q('x', 'yes_no'),
        q('x', 'number'),
        q('dep', 'short_text', { condition: { questionId: 'x', equals: true } }),
      ),
    );
    expect(issues).toEqual([
      { path: ['sections', 0, 'questions', 1, 'id'], message: 'repeats the id of sections[0].questions[0]' },
    ]);
  });

  it('when a template has several problems, then every one is answered, not only the first', () => {
    const issues = check(
      section('s', q('c', 'single_choice', { options: [opt('a')], title: { nl: 'x' } })),
      section('s', q('c', 'number', { options: [] })),
    );
    expect(issues.map((i) => i.path.join('.'))).toEqual([
      'sections.0.questions.0.title.en',
      'sections.0.questions.0.options',
      'sections.1.id',
      'sections.1.questions.0.id',
      'sections.1.questions.0.options',
    ]);
  });
});

describe('languages several templates share (sharedLanguages)', () => {
  it('when templates are sent together, then only the languages all of them support remain, in the order nl, fr, en', () => {
    expect(sharedLanguages([{ supportedLanguages: ['en', 'fr', 'nl'] }])).toEqual(['nl', 'fr', 'en']);
    expect(
      sharedLanguages([{ supportedLanguages: ['en', 'nl'] }, { supportedLanguages: ['fr', 'nl', 'en'] }]),
    ).toEqual(['nl', 'en']);
    expect(sharedLanguages([{ supportedLanguages: ['fr'] }, { supportedLanguages: ['nl'] }])).toEqual([]);
    expect(sharedLanguages([])).toEqual(['nl', 'fr', 'en']);
  });
});
