import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { PasswordInput } from '../../components/password-input';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import {
  deferred,
  apiPaths,
  LIMITS,
  registerRequestSchema,
  type RegisterRequest,
} from '@plant/shared-schema';
import { callApi } from '../../session/api';
import { signInWithToken } from '../../session/session';
import { serverFieldErrors } from './form-errors';
import { usePageTitle } from './page-title';
import { useAfterSignIn } from './sign-in-flow';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { bySchema, useForm } from './use-form';
import { EmailInput, UserForm, useSubmit } from './user-form';

const FIELDS = ['firstname', 'lastname', 'email', 'password'] as const;
const validate = bySchema(registerRequestSchema, FIELDS);
const INITIAL = { firstname: '', lastname: '', email: '', password: '' };

/** POST register answers the new user's token (and the user) in `data`. */
const registeredSchema = /* @__PURE__ */ deferred(() => z.object({ access_token: z.string() }));

/**
 * /user/register (spec 000 §2, §7): first name, last name, email and password by the shared
 * register schema (the server's own check, so the messages are the same), then signed in with
 * the token the answer carries. The server's per-field refusals (an address already registered)
 * show under their fields.
 */
export function RegisterPage() {
  const { t, i18n } = useLingui();
  usePageTitle(t`Register`);
  const afterSignIn = useAfterSignIn();
  const form = useForm({ fields: FIELDS, initial: INITIAL, validate });
  /** Registered, but the sign-in after it failed: the account exists, sign-in is the way on. */
  const [registered, setRegistered] = useState(false);
  const { newPasswordMin: min, newPasswordMax: max } = LIMITS;
  const send = async (data: RegisterRequest) => {
    const answer = await callApi('POST', apiPaths.register(), registeredSchema, {
      body: data,
      quiet: true,
    });
    if ('error' in answer) {
      const onFields = serverFieldErrors(answer.error.fields, FIELDS);
      return form.showErrors(onFields) ? null : callErrorText(answer.error);
    }
    const message = await afterSignIn(await signInWithToken(answer.data.access_token));
    if (message !== null) setRegistered(true);
    return message;
  };
  const { busy, error, submit } = useSubmit(form.check, send);
  const reason = error === null ? '' : translateServerText(i18n, error);

  return (
    <UserForm title={<Trans>Register</Trans>} busy={busy} onSubmit={submit}>
      <Text size="sm" c="dimmed">
        <Trans>You get an account of your own, which you administer.</Trans>
      </Text>
      <TextInput
        {...form.field('firstname')}
        label={t`First name`}
        autoComplete="given-name"
        required
      />
      <TextInput
        {...form.field('lastname')}
        label={t`Last name`}
        autoComplete="family-name"
        required
      />
      <EmailInput {...form.field('email')} autoComplete="email" />
      <PasswordInput
        {...form.field('password')}
        label={t`Password`}
        description={t`${min} to ${max} characters`}
        autoComplete="new-password"
        required
      />
      {error === null ? null : (
        <Alert color="red" role="alert">
          {registered ? (
            <Trans>
              Your account was created, but signing in failed: {reason}{' '}
              <Anchor component={Link} to="/user/login" inherit>
                Sign in
              </Anchor>{' '}
              to continue.
            </Trans>
          ) : (
            reason
          )}
        </Alert>
      )}
      <Button type="submit" fullWidth loading={busy} disabled={registered}>
        <Trans>Create account</Trans>
      </Button>
      <VisuallyHidden role="status">
        {busy ? <Trans>Creating your account...</Trans> : null}
      </VisuallyHidden>
      <Group justify="center">
        <Text size="sm">
          <Trans>
            Already registered?{' '}
            <Anchor component={Link} to="/user/login" inherit>
              Sign in
            </Anchor>
          </Trans>
        </Text>
      </Group>
    </UserForm>
  );
}
