import { z } from 'zod';
import { deferred } from '../deferred';
import { TWO_FACTOR_TEXTS } from './two-factor-texts';

/*
 * The second factor's fields that the password grant carries (issue 38 item 2, DESIGN.md §16):
 * apart from the two-factor routes' schemas so that token-request.ts can take them without an
 * import circle (two-factor.ts names the token answer).
 */

/** A text of base64url characters (WebAuthn's binary fields on the wire), at most `max` long. */
export const base64urlField = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, TWO_FACTOR_TEXTS.passkeyInvalid);

/** The six digits an authenticator app shows (RFC 6238: SHA-1, 30 s). Spaces are the reader's. */
export const totpCodeField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: TWO_FACTOR_TEXTS.codeFormat })
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, TWO_FACTOR_TEXTS.codeFormat)),
);

/**
 * `otp` of the password grant and of the calls that ask for proof: an app's code or one of the
 * recovery codes (told apart by their form: six digits, or letters and digits in groups).
 */
export const otpField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: TWO_FACTOR_TEXTS.codeFormat })
    .min(1, { error: TWO_FACTOR_TEXTS.codeFormat, abort: true })
    .max(64, TWO_FACTOR_TEXTS.codeFormat),
);

/**
 * A passkey's answer to a sign-in challenge (`PublicKeyCredential` of navigator.credentials.get,
 * its buffers as base64url): the second factor of the password grant's `webauthn`.
 */
export const passkeyAssertionSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: base64urlField(1400).min(1),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: base64urlField(8192).min(1),
      authenticatorData: base64urlField(8192).min(1),
      signature: base64urlField(2048).min(1),
      userHandle: base64urlField(200).nullable().optional(),
    }),
  }),
);
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;
