import { newPasswordField } from '@plant/shared-schema';
import type { FieldErrors } from './form-errors';
import { PASSWORDS_DIFFER_MESSAGE, REPEAT_MISSING_MESSAGE } from '../../i18n/server-texts';
import type { Validate } from './use-form';

export type NewPasswordField = 'password' | 'repeat';

/**
 * A new password typed twice: the first by the shared rule (the server's own), the second must
 * repeat it. Answers the password to send.
 */
export const checkNewPassword: Validate<NewPasswordField, string> = (values) => {
  const errors: FieldErrors<NewPasswordField> = {};
  const parsed = newPasswordField.safeParse(values.password);
  if (!parsed.success) {
    const first = parsed.error.issues[0]?.message;
    if (first !== undefined) errors.password = first;
  }
  if (values.repeat === '') errors.repeat = REPEAT_MISSING_MESSAGE;
  else if (values.repeat !== values.password) errors.repeat = PASSWORDS_DIFFER_MESSAGE;
  return parsed.success && errors.repeat === undefined ? { data: parsed.data } : { errors };
};
