/*
 * The texts of profile.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
/** Spec 001 §5's text for a contact that is none of the three. */
export const CONTACT_NOT_VALID = 'Must be a valid email address, phone number or telegram number';
/** Spec 001 §5. */
export const TIME_NOT_VALID = 'The time needs to be valid';
export const EMAIL_CHANGE_OWN = 'Only the user can change its own e-mail address.';
