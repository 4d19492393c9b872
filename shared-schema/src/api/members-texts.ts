/*
 * The texts of members.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
export const LAST_ROLE = 'A member keeps at least one role: remove it from the account instead.';
export const NOT_YOURSELF = 'You cannot remove yourself from the account.';
export const RESET_LINK_SENT = 'A link to set a new password is on its way.';
