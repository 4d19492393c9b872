/*
 * The texts of code-rules.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
/** Spec 001 §5: pre-processing code returns a value, ends statements with ';', uses $variables. */
export const CODE_NOT_VALID = 'This code is not valid';
/** Why code is not valid: the rule it breaks (the server's check says which). */
export const CODE_REASONS = {
  tooLong: 'The code is longer than 10,000 characters.',
  unreadable: 'A string, comment or bracket is not closed, or the brackets are nested too deeply.',
  noReturn: 'The code must end by returning a value.',
  names: 'Variables must start with $.',
  semicolons: 'Every statement must end with a semicolon.',
} as const;
