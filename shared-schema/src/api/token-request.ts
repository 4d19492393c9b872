import { z } from 'zod';
import { deferred } from '../deferred';
import { currentPasswordField, emailField } from './fields';
import { otpField, passkeyAssertionSchema } from './second-factor-fields';

/** POST /api/v1/oauth/token, password grant (Laravel Passport's shape, which the spec mirrors). */
export const tokenRequestSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    grant_type: z.string({ error: 'The grant type is required' }).max(64, 'Unsupported grant type'),
    client_id: z.string({ error: 'The client id is required' }).max(64, 'Invalid client'),
    client_secret: z.string().max(256).optional(),
    username: emailField,
    password: currentPasswordField,
    scope: z.string().max(1000).optional(),
    /** The second factor (issue 38 item 2): an authenticator app's code or a recovery code. */
    otp: otpField.optional(),
    /** The second factor as a passkey's answer to a challenge of POST 2fa/passkey/options. */
    webauthn: passkeyAssertionSchema.optional(),
  }),
);
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export const tokenResponseSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().positive(),
    access_token: z.string(),
  }),
);
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** OAuth error answer: `error` is the machine code, `error_description` and `message` the text. */
export const oauthErrorSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    error: z.string(),
    error_description: z.string(),
    message: z.string(),
  }),
);
export type OAuthError = z.infer<typeof oauthErrorSchema>;
