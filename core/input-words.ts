import { z } from 'zod';

/** What zod's types are, in a scheduler's words. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object ({…})',
  date: 'a date',
};

/**
 * The words of every input refusal that its schema does not word itself: a missing field "is
 * required", a value of the wrong kind "must be text" (never "Invalid input: expected string,
 * received undefined"), a value none of a field's forms takes "is not a value this field
 * takes". Set once for the process, before any input is read (the runner imports it).
 */
z.config({
  customError: (issue) => {
    if (issue.code !== 'invalid_type' && issue.code !== 'invalid_union') return undefined;
    if (issue.input === undefined) return 'is required';
    if (issue.code === 'invalid_union') return 'is not a value this field takes';
    return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
  },
});
