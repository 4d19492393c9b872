import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from './fields';
import { tokenRequestSchema, tokenResponseSchema } from './token-request';
import { base64urlField, otpField, totpCodeField } from './second-factor-fields';
import { SECOND_FACTOR_REQUIREMENTS, TWO_FACTOR_TEXTS } from './two-factor-texts';

// The index exports two-factor-texts.ts and second-factor-fields.ts itself: a texts import must
// not go through a module with zod (shared-schema CONTEXT, gotchas).

/*
 * Two-factor sign-in (issue 38 item 2, DESIGN.md §16): an authenticator app (TOTP, RFC 6238) with
 * recovery codes, and passkeys (WebAuthn). The password grant takes the second factor as `otp`
 * (an app's code or a recovery code) or `webauthn` (a passkey's assertion); without one, a user
 * who has a factor is answered 401 `otp_required`.
 */

/** POST user/2fa/totp: a new secret to add to the app (not on until confirmed). */
export const totpSetupSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** Base32 (RFC 4648, no padding), for typing into the app by hand. */
    secret: z.string(),
    /** `otpauth://totp/…`, what the QR code holds. */
    otpauth_url: z.string(),
  }),
);
export type TotpSetup = z.infer<typeof totpSetupSchema>;

/** POST user/2fa/totp/confirm: the app's current code turns it on. */
export const totpConfirmSchema = /* @__PURE__ */ deferred(() => z.object({ code: totpCodeField }));
export type TotpConfirm = z.infer<typeof totpConfirmSchema>;

/** The recovery codes, shown this once (stored hashed, each usable once). */
export const recoveryCodesSchema = /* @__PURE__ */ deferred(() =>
  z.object({ recovery_codes: z.array(z.string()) }),
);
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** Proof of the second factor for a change of it (turn the app off, new recovery codes). */
export const secondFactorProofSchema = /* @__PURE__ */ deferred(() => z.object({ otp: otpField }));
export type SecondFactorProof = z.infer<typeof secondFactorProofSchema>;

/** One of the user's passkeys as listed (times in ms). */
export const passkeyViewSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    created_at: z.number(),
    last_used_at: z.number().nullable(),
  }),
);
export type PasskeyView = z.infer<typeof passkeyViewSchema>;

/** GET user/2fa: the signed-in user's second factors. */
export const twoFactorStatusSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    totp: z.boolean(),
    recovery_codes_left: z.number().int(),
    passkeys: z.array(passkeyViewSchema),
    /** Whether an account the user belongs to requires it to have a second factor. */
    required: z.boolean(),
  }),
);
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

const credentialDescriptorSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    type: z.literal('public-key'),
    id: z.string(),
    transports: z.array(z.string()).optional(),
  }),
);

/**
 * POST user/2fa/passkeys/options: what navigator.credentials.create takes (its buffers as
 * base64url). A passkey must be discoverable (resident): the sign-in asks for one without
 * naming the user's credentials before the password is known to be right.
 */
export const passkeyCreationOptionsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    challenge: z.string(),
    rp: z.object({ id: z.string(), name: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number() })),
    timeout: z.number(),
    excludeCredentials: z.array(credentialDescriptorSchema),
    authenticatorSelection: z.object({
      residentKey: z.literal('required'),
      requireResidentKey: z.literal(true),
      userVerification: z.enum(['required', 'preferred', 'discouraged']),
    }),
    attestation: z.literal('none'),
  }),
);
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptionsSchema>;

/** POST user/2fa/passkeys: a new passkey (navigator.credentials.create's answer) and its name. */
export const passkeyRegistrationSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: z
      .string({ error: TWO_FACTOR_TEXTS.passkeyNameMissing })
      .trim()
      .min(1, { error: TWO_FACTOR_TEXTS.passkeyNameMissing, abort: true })
      .max(100),
    credential: z.object({
      id: base64urlField(1400).min(1),
      type: z.literal('public-key'),
      response: z.object({
        clientDataJSON: base64urlField(8192).min(1),
        attestationObject: base64urlField(32_000).min(1),
        transports: z.array(z.string().max(32)).max(10).optional(),
      }),
    }),
  }),
);
export type PasskeyRegistration = z.infer<typeof passkeyRegistrationSchema>;

/** POST 2fa/passkey/options: what navigator.credentials.get takes at sign-in. */
export const passkeyRequestOptionsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    challenge: z.string(),
    rpId: z.string(),
    timeout: z.number(),
    userVerification: z.enum(['required', 'preferred', 'discouraged']),
  }),
);
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptionsSchema>;

/**
 * POST 2fa/enrol/totp: a member whose account requires a second factor and who has none sets
 * up the app before it is signed in, proving who it is with the password grant's credentials.
 */
export const twoFactorEnrolSchema = /* @__PURE__ */ deferred(() =>
  tokenRequestSchema.pick({
    client_id: true,
    client_secret: true,
    username: true,
    password: true,
  }),
);
export type TwoFactorEnrol = z.infer<typeof twoFactorEnrolSchema>;

/** POST 2fa/enrol/totp/confirm: the same, with the app's code; signs the member in. */
export const twoFactorEnrolConfirmSchema = /* @__PURE__ */ deferred(() =>
  twoFactorEnrolSchema.extend({ code: totpCodeField }),
);
export type TwoFactorEnrolConfirm = z.infer<typeof twoFactorEnrolConfirmSchema>;

/** Its answer: the recovery codes (shown once) and the token of the sign-in. */
export const twoFactorEnrolledSchema = /* @__PURE__ */ deferred(() =>
  recoveryCodesSchema.extend({ token: tokenResponseSchema }),
);
export type TwoFactorEnrolled = z.infer<typeof twoFactorEnrolledSchema>;

/**
 * POST 2fa/enrol/passkey: the same member registers a passkey instead of the app (its options
 * from POST 2fa/enrol/passkey/options, which takes TwoFactorEnrol), with the grant's credentials
 * beside it. Answers the passkey (PasskeyView), no token: the sign-in is then finished with the
 * passkey itself (the password grant's `webauthn`), so the new passkey is proven to work.
 */
export const twoFactorEnrolPasskeySchema = /* @__PURE__ */ deferred(() =>
  twoFactorEnrolSchema.extend(passkeyRegistrationSchema.shape),
);
export type TwoFactorEnrolPasskey = z.infer<typeof twoFactorEnrolPasskeySchema>;

export const secondFactorRequirementField = /* @__PURE__ */ deferred(() =>
  z.enum(SECOND_FACTOR_REQUIREMENTS),
);

/** GET and PUT accounts/{id}/two-factor: who of the account's members needs a second factor. */
export const accountTwoFactorSchema = /* @__PURE__ */ deferred(() =>
  z.object({ required: secondFactorRequirementField }),
);
export type AccountTwoFactor = z.infer<typeof accountTwoFactorSchema>;

/** GET account/users/two-factor: the active account's members and their second factors. */
export const memberTwoFactorSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    totp: z.boolean(),
    passkeys: z.number().int(),
    /** Whether one of the member's accounts requires it to have a second factor. */
    required: z.boolean(),
  }),
);
export type MemberTwoFactor = z.infer<typeof memberTwoFactorSchema>;

export const twoFactorMemberParamsSchema = /* @__PURE__ */ deferred(() =>
  z.object({ id: idField }),
);

/** What the two-factor log records: a member's own changes, an account's rule, an admin's reset. */
export const TWO_FACTOR_LOG_ACTIONS = [
  'totp_on',
  'totp_off',
  'recovery_codes_renewed',
  'recovery_code_used',
  'passkey_added',
  'passkey_removed',
  'rule_nobody',
  'rule_admins',
  'rule_everyone',
  'admin_reset',
] as const;
export type TwoFactorLogAction = (typeof TWO_FACTOR_LOG_ACTIONS)[number];

/** A person of a log entry: who did it, whose factors it concerned. */
const logPersonSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
  }),
);

/**
 * GET account/users/two-factor/log: the active account's entries (its rule, its admins' resets)
 * and its members' own changes, newest first.
 */
export const twoFactorLogEntrySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    at: z.number().int(),
    action: z.enum(TWO_FACTOR_LOG_ACTIONS),
    actor: logPersonSchema,
    member: logPersonSchema,
  }),
);
export type TwoFactorLogEntry = z.infer<typeof twoFactorLogEntrySchema>;

/** How many entries the log answers (the newest). */
export const TWO_FACTOR_LOG_LIMIT = 200;
