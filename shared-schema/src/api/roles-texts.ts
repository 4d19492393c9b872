/*
 * The texts of roles.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
export const ROLE_IS_FIXED = 'The roles admin and norole cannot be changed or deleted.';
export const ROLE_HAS_MEMBERS = 'Remove the role from its users first.';
export const ROLE_NAME_TAKEN = 'A role with this name exists already.';
export const UNKNOWN_PERMISSION = 'Unknown permission.';
