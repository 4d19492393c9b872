import { z } from 'zod';
import { deferred } from '../../deferred';
import {
  accountTwoFactorSchema,
  memberTwoFactorSchema,
  twoFactorLogEntrySchema,
  passkeyCreationOptionsSchema,
  passkeyRegistrationSchema,
  passkeyRequestOptionsSchema,
  passkeyViewSchema,
  recoveryCodesSchema,
  secondFactorProofSchema,
  totpConfirmSchema,
  totpSetupSchema,
  twoFactorEnrolConfirmSchema,
  twoFactorEnrolledSchema,
  twoFactorEnrolPasskeySchema,
  twoFactorEnrolSchema,
  twoFactorStatusSchema,
} from '../../api/two-factor';
import { FIRST_PARTY, PUBLIC, type ApiRoute } from '../route-access';
import { data, idParams } from './shared';

const message = /* @__PURE__ */ deferred(() =>
  z.object({ success: z.literal(true), message: z.string() }),
);

/**
 * Two-factor sign-in (issue 38 item 2). A user's own factors and an account's rule are the app's
 * own business: no scoped token changes how its user signs in, so they are first-party only.
 */
export const TWO_FACTOR_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/user/2fa',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary: "The signed-in user's second factors: authenticator app, recovery codes, passkeys.",
    response: data(twoFactorStatusSchema),
  },
  {
    method: 'POST',
    path: '/user/2fa/totp',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary: 'A new authenticator app secret and its otpauth URL; on once confirmed with a code.',
    response: data(totpSetupSchema),
  },
  {
    method: 'POST',
    path: '/user/2fa/totp/confirm',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary:
      'Turns the authenticator app on with its current code; answers ten recovery codes, shown this once.',
    body: totpConfirmSchema,
    response: data(recoveryCodesSchema),
  },
  {
    method: 'DELETE',
    path: '/user/2fa/totp',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary: 'Turns the authenticator app off, with one of its codes or a recovery code.',
    body: secondFactorProofSchema,
    response: message,
  },
  {
    method: 'POST',
    path: '/user/2fa/recovery-codes',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary: 'Ten new recovery codes in place of the old ones, with a code of the app.',
    body: secondFactorProofSchema,
    response: data(recoveryCodesSchema),
  },
  {
    method: 'POST',
    path: '/user/2fa/passkeys/options',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary: 'The options of navigator.credentials.create for a new passkey (a challenge).',
    response: data(passkeyCreationOptionsSchema),
  },
  {
    method: 'POST',
    path: '/user/2fa/passkeys',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary: 'Registers a passkey: the browser answer to the challenge of the options, and a name.',
    body: passkeyRegistrationSchema,
    response: data(passkeyViewSchema),
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/user/2fa/passkeys/:id',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary: "Removes one of the user's passkeys.",
    params: idParams,
    status: 204,
  },
  {
    method: 'POST',
    path: '/2fa/passkey/options',
    access: PUBLIC,
    tag: 'Two-factor sign-in',
    summary:
      "A challenge for a passkey at sign-in: the password grant's `webauthn` answers it (single use, 5 minutes).",
    response: data(passkeyRequestOptionsSchema),
  },
  {
    method: 'POST',
    path: '/2fa/enrol/totp',
    access: PUBLIC,
    tag: 'Two-factor sign-in',
    summary:
      "A member whose account requires a second factor and who has none: an authenticator app secret, with the password grant's credentials.",
    body: twoFactorEnrolSchema,
    response: data(totpSetupSchema),
  },
  {
    method: 'POST',
    path: '/2fa/enrol/totp/confirm',
    access: PUBLIC,
    tag: 'Two-factor sign-in',
    summary:
      'Turns that app on with its code and signs the member in: the recovery codes and a token.',
    body: twoFactorEnrolConfirmSchema,
    response: data(twoFactorEnrolledSchema),
  },
  {
    method: 'POST',
    path: '/2fa/enrol/passkey/options',
    access: PUBLIC,
    tag: 'Two-factor sign-in',
    summary:
      "The same member, a passkey instead of the app: the options of navigator.credentials.create, with the password grant's credentials.",
    body: twoFactorEnrolSchema,
    response: data(passkeyCreationOptionsSchema),
  },
  {
    method: 'POST',
    path: '/2fa/enrol/passkey',
    access: PUBLIC,
    tag: 'Two-factor sign-in',
    summary:
      "Registers that passkey (logged as added); the password grant's `webauthn` with it then signs the member in.",
    body: twoFactorEnrolPasskeySchema,
    response: data(passkeyViewSchema),
    status: 201,
  },
  {
    method: 'GET',
    path: '/accounts/:id/two-factor',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary: "Who of the account's members must sign in with a second factor (account::view).",
    params: idParams,
    response: data(accountTwoFactorSchema),
  },
  {
    method: 'PUT',
    path: '/accounts/:id/two-factor',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary:
      "Sets who of the account's members must sign in with a second factor: nobody, admins, everyone (account::edit).",
    params: idParams,
    body: accountTwoFactorSchema,
    response: data(accountTwoFactorSchema),
  },
  {
    method: 'GET',
    path: '/account/users/two-factor',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary: "The active account's members and their second factors (user::view).",
    response: data(z.array(memberTwoFactorSchema)),
  },
  {
    method: 'GET',
    path: '/account/users/two-factor/log',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary:
      "The two-factor log of the active account (its rule, its admins' resets) and of its members' own factors, newest first (user::view).",
    response: data(z.array(twoFactorLogEntrySchema)),
  },
  {
    method: 'DELETE',
    path: '/account/users/:id/two-factor',
    access: FIRST_PARTY,
    tag: 'Two-factor sign-in',
    summary:
      "Resets a member's second factors (user::edit, in every account of the member; an admin's by an admin), logged.",
    params: idParams,
    response: message,
  },
];
