/*
 * The texts of two-factor sign-in (issue 38 item 2) that the server and the shared schemas give
 * people, apart from the schemas (no zod here): the client's translation table for them
 * (client/src/features/user/two-factor-server-texts.ts) takes them without the schemas.
 */
export const TWO_FACTOR_TEXTS = {
  /** The password grant's `otp_required`: the password was right, a second factor is missing. */
  codeRequired: 'Enter the code from your authenticator app, a recovery code, or use a passkey.',
  /** A code (app or recovery) or a passkey that did not prove the second factor. */
  codeWrong: 'The code is not valid. Please try again.',
  codeFormat: 'Please enter the 6-digit code from your authenticator app.',
  /** The grant of a member who must have a second factor and has none yet. */
  setupRequired: 'Your account requires two-factor sign-in. Please set it up to continue.',
  /** The enrolment calls, when no enrolment is due (a factor exists, or none is required). */
  setupNotDue: 'Two-factor sign-in is set up already, or not required for you.',
  alreadyOn: 'Two-factor sign-in with an authenticator app is on already.',
  notOn: 'Two-factor sign-in with an authenticator app is not on.',
  totpOff: 'Two-factor sign-in with the authenticator app is off.',
  noPendingSetup: 'Please start the setup of the authenticator app again.',
  /** Taking away the last factor while an account requires one. */
  stillRequired:
    'An account you belong to requires a second factor: add another one before you remove this one.',
  passkeyInvalid: 'The passkey could not be verified.',
  passkeyKnown: 'This passkey is registered already.',
  passkeyLimit: 'You have the most passkeys one user may register (20). Remove one first.',
  passkeyNameMissing: 'Please give the passkey a name.',
  /** The admin's reset of a member's second factor, done. */
  resetDone:
    'The member’s second factor was reset. The member sets up a new one at the next sign-in.',
  /** The admin's reset, refused: the member also belongs to accounts the admin does not manage. */
  resetOutsideReach:
    'This member also belongs to accounts you do not manage: an administrator of those accounts resets its second factor.',
  resetAdminOnly: 'Only an administrator resets the second factor of an administrator.',
} as const;

/** Who of an account's members must sign in with a second factor. */
export const SECOND_FACTOR_REQUIREMENTS = ['nobody', 'admins', 'everyone'] as const;
export type SecondFactorRequirement = (typeof SECOND_FACTOR_REQUIREMENTS)[number];

/** How many recovery codes a user gets, each usable once. */
export const RECOVERY_CODE_COUNT = 10;
/** The most passkeys one user registers. */
export const PASSKEY_LIMIT = 20;
