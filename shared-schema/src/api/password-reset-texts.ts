/*
 * The texts of password-reset.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
export const RESET_TOKEN_INVALID_MESSAGE = 'Reset-token invalid or expired.';
export const RESET_SUCCESS_MESSAGE = 'Password-reset successful, log in with new credentials.';
export const FORGOT_ACCEPTED_MESSAGE =
  'If this address belongs to an account, a link to reset the password is on its way.';
