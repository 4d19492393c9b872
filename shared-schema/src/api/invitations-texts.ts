/*
 * The texts of invitations.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
export const INVITATION_INVALID = 'This invitation is invalid, was used already or has expired.';
export const ALREADY_MEMBER = 'This person is a member of the account already.';
export const INVITATION_REVOKED =
  'This invitation was revoked. Please ask whoever invited you for a new one.';
export const INVITATION_CLOSED = 'This invitation was accepted or revoked already.';
