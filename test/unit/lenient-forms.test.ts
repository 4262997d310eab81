import { parse, stringify } from 'node:querystring';
import { OAuthFields } from '../../src/modules/oauth/oauth.forms';
import { DeclineForm, SignForm, StepForm, VisitorForm } from '../../src/modules/respondent/respondent.forms';

// The forms that must refuse nothing (the contact's pages, the OAuth endpoints), read as the pages'
// urlencoded parser hands them over (node's querystring: text, or a list for a repeated field).

describe('the contact’s forms', () => {
  it('when a field is missing, repeated or padded, then it reads as trimmed text, or empty', () => {
    expect(VisitorForm.parse(parse('firstName=%20Marie%20&lastName=a&lastName=b'))).toEqual({
      firstName: 'Marie',
      lastName: '',
      email: '',
    });
    expect(SignForm.parse(parse('mark=typed&typedName=%20M%20&consent=yes%20'))).toEqual({
      mark: 'typed',
      typedName: 'M',
      drawing: '',
      consent: true,
    });
    expect(SignForm.parse({}).consent).toBe(false);
    // The decline's reason is kept as typed (its length is checked as sent).
    expect(DeclineForm.parse(parse('reason=%20too%20late%20'))).toEqual({ reason: ' too late ' });
    expect(DeclineForm.parse(parse('reason=a&reason=b'))).toEqual({ reason: '' });
  });

  it('when a questionnaire page is sent, then every question field is an answer list, whatever its name', () => {
    const form = StepForm.parse(
      parse(
        stringify({
          _csrf: 't',
          step: ' 2 ',
          nav: 'save',
          'q.a b/ü?&=': 'x',
          'q.constructor': ['y', 'z'],
          'q.toString': '',
          other: 'ignored',
        }),
      ),
    );
    expect(form.step).toBe(2);
    expect(form.nav).toBe('save');
    expect([...form.answers]).toEqual([
      ['q.a b/ü?&=', ['x']],
      ['q.constructor', ['y', 'z']],
      ['q.toString', ['']],
    ]);
    // No step is step 0; one that is not a number is NaN (the page then goes back to the start).
    expect(StepForm.parse({}).step).toBe(0);
    expect(StepForm.parse(parse('step=two&nav=sideways'))).toMatchObject({ step: Number.NaN, nav: 'next' });
    expect(StepForm.parse(parse('nav=back')).nav).toBe('back');
  });
});

describe('the OAuth endpoints’ form', () => {
  it('when fields are repeated, empty or unknown, then they are kept as sent, in the order sent', () => {
    const form = OAuthFields.parse(parse('foo=1&grant_type=x&foo=2&client_secret=&scope=a&scope=b'));
    expect(Object.entries(form)).toEqual([
      ['foo', ['1', '2']],
      ['grant_type', 'x'],
      ['client_secret', ''],
      ['scope', ['a', 'b']],
    ]);
    expect(Object.getPrototypeOf(form)).toBeNull();
    expect(Object.hasOwn(OAuthFields.parse({}), 'client_secret')).toBe(false);
  });
});
