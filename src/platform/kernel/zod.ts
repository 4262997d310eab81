import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { plural } from './words';

// Every schema imports z from here, so `.openapi()` exists before any schema is built.
extendZodWithOpenApi(z);

type Issue = z.core.$ZodRawIssue;

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  date: 'a date',
  bigint: 'a whole number',
  null: 'null',
};

/** What the client sent, in words. */
function sent(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'number' && Number.isNaN(input)) return 'something that is not a number';
  return typeNames[typeof input] ?? typeof input;
}

const units: Record<string, [string, string]> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  file: ['byte', 'bytes'],
};

const formats: Record<string, string> = {
  email: 'must be an e-mail address',
  url: 'must be a URL',
  uuid: 'must be an id (a UUID)',
  datetime: 'must be a date and time in ISO 8601 (e.g. 2026-05-01T12:00:00Z)',
  date: 'must be a date (YYYY-MM-DD)',
  time: 'must be a time (HH:MM[:SS])',
  regex: 'has a form that is not allowed',
  starts_with: 'has a form that is not allowed',
  ends_with: 'has a form that is not allowed',
  includes: 'has a form that is not allowed',
};

/**
 * Messages in plain words for every check a schema does not word itself: they reach API clients in
 * error bodies, so they say what is expected in the client's terms, not the library's.
 */
function plainMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${typeNames[issue.expected] ?? issue.expected}, not ${sent(issue.input)}`;
    case 'too_big': {
      const unit = units[issue.origin];
      if (unit) return `must have at most ${plural(issue.maximum, ...unit)}`;
      if (issue.origin === 'date') return 'is too late';
      return issue.inclusive === false
        ? `must be less than ${issue.maximum}`
        : `must be at most ${issue.maximum}`;
    }
    case 'too_small': {
      const unit = units[issue.origin];
      if (unit && Number(issue.minimum) === 1) return 'must not be empty';
      if (unit) return `must have at least ${plural(issue.minimum, ...unit)}`;
      if (issue.origin === 'date') return 'is too early';
      return issue.inclusive === false
        ? `must be more than ${issue.minimum}`
        : `must be at least ${issue.minimum}`;
    }
    case 'invalid_format':
      return formats[issue.format] ?? `must be in ${issue.format} format`;
    case 'invalid_value': {
      const values = issue.values.map((v: unknown) => JSON.stringify(v));
      if (values.length === 1) return `must be ${values[0]}`;
      const shown = values.length > 12 ? [...values.slice(0, 12), '…'] : values;
      return `must be one of ${shown.join(', ')}`;
    }
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_union':
      return 'is not one of the allowed forms';
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has an element that is not allowed';
    case 'unrecognized_keys':
      return 'has fields that are not known';
    default:
      return undefined;
  }
}

z.config({ customError: plainMessage });

export { z };
