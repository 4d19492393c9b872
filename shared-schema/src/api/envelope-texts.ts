/*
 * The texts of envelope.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
/** A text of the body holds U+0000, which Postgres cannot store in text or JSON (a 500 before). */
export const NUL_TEXT_MESSAGE = 'The text may not contain NUL characters.';
