/*
 * The texts of connection.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
/** Spec 001 §5: a tag's name is unique among the tags of its gateway. */
export const TAGNAME_USED = 'Tagname already used';
