import { z } from 'zod';
import { emailField, newPasswordField } from './fields';

export const RESET_TOKEN_INVALID_MESSAGE = 'Reset-token invalid or expired.';
export const RESET_SUCCESS_MESSAGE = 'Password-reset successful, log in with new credentials.';
export const FORGOT_ACCEPTED_MESSAGE =
  'If this address belongs to an account, a link to reset the password is on its way.';

/** POST /api/v1/password/forgot */
export const passwordForgotRequestSchema = z.object({ email: emailField });
export type PasswordForgotRequest = z.infer<typeof passwordForgotRequestSchema>;

/** POST /api/v1/password/reset (also the set-password screen: same call). */
export const passwordResetRequestSchema = z.object({
  token: z
    .string({ error: RESET_TOKEN_INVALID_MESSAGE })
    .min(1, RESET_TOKEN_INVALID_MESSAGE)
    .max(200, RESET_TOKEN_INVALID_MESSAGE),
  password: newPasswordField,
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;
