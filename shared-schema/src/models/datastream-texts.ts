/*
 * The texts of datastream.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
/** Why the sandbox did not turn a value into one (shown with 'This code is not valid'). */
export const CODE_RUN_TEXTS = {
  tooSlow: 'The code took too long.',
  tooMuchMemory: 'The code used too much memory.',
  tooDeep: 'The code nested its calls too deeply.',
  noValidValue: 'The code returned no valid value.',
  textTooLong: 'The code returned a text that is too long.',
  /** Followed by the error the code threw, e.g. "ReferenceError: x is not defined". */
  failed: 'The code failed: ',
  notRun: 'The code could not be run.',
} as const;
/** What a stream's type expects of a value (ingest's refusals, the code trial's answers). */
export const VALUE_TYPE_TEXTS = {
  number: 'A number was expected.',
  state: 'A state number was expected.',
  boolean: 'True or false was expected.',
  text: 'A text was expected.',
} as const;
/** The stream has no value yet and none was given to try the code on. */
export const NO_VALUE_TO_TRY = 'This data stream has no value yet: enter one to try the code.';
