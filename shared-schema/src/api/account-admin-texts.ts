/*
 * The texts of account-admin.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
export const ACCOUNT_MOVE_CYCLE = 'An account cannot move under itself or one of its subaccounts.';
/** A deactivated account is turned back on from above: its own admins cannot undo it. */
export const ACCOUNT_REACTIVATED_FROM_ABOVE =
  'Only an administrator of a parent account can reactivate this account.';
/** ... and deactivated from above too: from itself, nobody could undo it (a root account never). */
export const ACCOUNT_DEACTIVATED_FROM_ABOVE =
  'Only an administrator of a parent account can deactivate this account.';
