import { z } from 'zod';
import {
  deferred,
  accountTwoFactorSchema,
  apiPaths,
  memberTwoFactorSchema,
  twoFactorLogEntrySchema,
  passkeyCreationOptionsSchema,
  passkeyRequestOptionsSchema,
  passkeyViewSchema,
  recoveryCodesSchema,
  totpSetupSchema,
  twoFactorEnrolledSchema,
  twoFactorStatusSchema,
  type PasskeyRegistration,
  type SecondFactorRequirement,
  type TwoFactorEnrol,
  type TwoFactorEnrolPasskey,
} from '@plant/shared-schema';
import { callApi } from '../../session/api';

/*
 * Two-factor sign-in's calls (issue 38 item 2), through the worker like every call. Quiet: each
 * screen shows its own failures beside the control that failed.
 */
const quiet = { quiet: true } as const;
const noContent = /* @__PURE__ */ deferred(() => z.null());
const message = /* @__PURE__ */ deferred(() => z.object({ message: z.string() }));
const staticConfSchema = /* @__PURE__ */ deferred(() => z.object({ client_id: z.string() }));

export const twoFactorApi = {
  status: () => callApi('GET', apiPaths.twoFactor(), twoFactorStatusSchema, quiet),
  startTotp: () => callApi('POST', apiPaths.twoFactorTotp(), totpSetupSchema, quiet),
  confirmTotp: (code: string) =>
    callApi('POST', apiPaths.twoFactorTotpConfirm(), recoveryCodesSchema, {
      ...quiet,
      body: { code },
    }),
  disableTotp: (otp: string) =>
    callApi('DELETE', apiPaths.twoFactorTotp(), message, {
      ...quiet,
      envelope: false,
      body: { otp },
    }),
  renewRecoveryCodes: (otp: string) =>
    callApi('POST', apiPaths.twoFactorRecoveryCodes(), recoveryCodesSchema, {
      ...quiet,
      body: { otp },
    }),
  passkeyOptions: () =>
    callApi('POST', apiPaths.twoFactorPasskeyOptions(), passkeyCreationOptionsSchema, quiet),
  registerPasskey: (body: PasskeyRegistration) =>
    callApi('POST', apiPaths.twoFactorPasskeys(), passkeyViewSchema, { ...quiet, body }),
  removePasskey: (id: string) =>
    callApi('DELETE', apiPaths.twoFactorPasskey(id), noContent, { ...quiet, envelope: false }),

  /** Signed out: a challenge for a passkey at sign-in. */
  signInOptions: () =>
    callApi('POST', apiPaths.passkeySignInOptions(), passkeyRequestOptionsSchema, quiet),
  /** Signed out: the first-party client the sign-in uses (/staticconf). */
  clientId: () =>
    callApi('GET', apiPaths.staticconf(), staticConfSchema, { ...quiet, envelope: false }),
  enrol: (body: TwoFactorEnrol) =>
    callApi('POST', apiPaths.twoFactorEnrol(), totpSetupSchema, { ...quiet, body }),
  enrolConfirm: (body: TwoFactorEnrol & { readonly code: string }) =>
    callApi('POST', apiPaths.twoFactorEnrolConfirm(), twoFactorEnrolledSchema, {
      ...quiet,
      body,
    }),
  /** Signed out: a passkey instead of the app, its options and its registration (no token). */
  enrolPasskeyOptions: (body: TwoFactorEnrol) =>
    callApi('POST', apiPaths.twoFactorEnrolPasskeyOptions(), passkeyCreationOptionsSchema, {
      ...quiet,
      body,
    }),
  enrolPasskey: (body: TwoFactorEnrolPasskey) =>
    callApi('POST', apiPaths.twoFactorEnrolPasskey(), passkeyViewSchema, { ...quiet, body }),

  accountRule: (accountId: string) =>
    callApi('GET', apiPaths.accountTwoFactor(accountId), accountTwoFactorSchema, quiet),
  setAccountRule: (accountId: string, required: SecondFactorRequirement) =>
    callApi('PUT', apiPaths.accountTwoFactor(accountId), accountTwoFactorSchema, {
      ...quiet,
      body: { required },
    }),
  members: () => callApi('GET', apiPaths.membersTwoFactor(), z.array(memberTwoFactorSchema), quiet),
  history: () => callApi('GET', apiPaths.twoFactorLog(), z.array(twoFactorLogEntrySchema), quiet),
  resetMember: (userId: string) =>
    callApi('DELETE', apiPaths.memberTwoFactor(userId), message, { ...quiet, envelope: false }),
};
