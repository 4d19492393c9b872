import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import { apiPaths, ERROR_TEXTS, LIMITS, registerRequestSchema } from '@plant/shared-schema';
import { callApi } from '../../session/api';
import { signInWithToken } from '../../session/session';
import { serverFieldErrors } from './form-errors';
import { usePageTitle } from './page-title';
import { useAfterSignIn } from './sign-in-flow';
import { callErrorText, translateUserText } from './texts';
import { bySchema, useForm } from './use-form';
import { useMounted } from './use-mounted';

const FIELDS = ['firstname', 'lastname', 'email', 'password'] as const;
const validate = bySchema(registerRequestSchema, FIELDS);
const INITIAL = { firstname: '', lastname: '', email: '', password: '' };

/** POST register answers the new user's token (and the user) in `data`. */
const registeredSchema = z.object({ access_token: z.string() });

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
  const mounted = useMounted();
  const form = useForm({ fields: FIELDS, initial: INITIAL, validate });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** Registered, but the sign-in after it failed: the account exists, sign-in is the way on. */
  const [registered, setRegistered] = useState(false);
  const { newPasswordMin: min, newPasswordMax: max } = LIMITS;
  const reason = error === null ? '' : translateUserText(i18n, error);

  const submit = async () => {
    if (busy) return;
    const data = form.check();
    if (data === null) return;
    setBusy(true);
    setError(null);
    let message: string | null;
    try {
      const answer = await callApi('POST', apiPaths.register(), registeredSchema, {
        body: data,
        quiet: true,
      });
      if ('error' in answer) {
        if (!mounted.current) return;
        setBusy(false);
        const onFields = serverFieldErrors(answer.error.fields, FIELDS);
        if (!form.showErrors(onFields)) setError(callErrorText(answer.error));
        return;
      }
      const outcome = await signInWithToken(answer.data.access_token);
      message = await afterSignIn(outcome);
    } catch {
      message = ERROR_TEXTS.unknown;
    }
    if (!mounted.current) return;
    setBusy(false);
    if (message !== null) {
      setRegistered(true);
      setError(message);
    }
  };

  return (
    <form
      noValidate
      aria-labelledby="register-title"
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="md">
        <Title order={1} size="h2" id="register-title">
          <Trans>Register</Trans>
        </Title>
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
        <TextInput
          {...form.field('email')}
          label={t`Email`}
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
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
      </Stack>
    </form>
  );
}
