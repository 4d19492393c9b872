import { z } from 'zod';
import { deferred } from '../deferred';
import { emailField, newPasswordField } from './fields';
import { RESET_TOKEN_INVALID_MESSAGE } from './password-reset-texts';
export {
  FORGOT_ACCEPTED_MESSAGE,
  RESET_SUCCESS_MESSAGE,
  RESET_TOKEN_INVALID_MESSAGE,
} from './password-reset-texts';

/** POST /api/v1/password/forgot */
export const passwordForgotRequestSchema = /* @__PURE__ */ deferred(() =>
  z.object({ email: emailField }),
);
export type PasswordForgotRequest = z.infer<typeof passwordForgotRequestSchema>;

/** POST /api/v1/password/reset (also the set-password screen: same call). */
export const passwordResetRequestSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    token: z
      .string({ error: RESET_TOKEN_INVALID_MESSAGE })
      .min(1, RESET_TOKEN_INVALID_MESSAGE)
      .max(200, RESET_TOKEN_INVALID_MESSAGE),
    password: newPasswordField,
  }),
);
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/**
 * POST /api/v1/password/reset's answer. `revoked_clients`: the user's OAuth clients whose secret
 * the new password ended (those that mint tokens for the user without it: client credentials);
 * each needs a new secret from the developer area.
 */
export const passwordResetAnswerSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    success: z.literal(true),
    message: z.string(),
    revoked_clients: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
);
export type PasswordResetAnswer = z.infer<typeof passwordResetAnswerSchema>;
