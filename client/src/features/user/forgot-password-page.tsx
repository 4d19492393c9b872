import { useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import { apiPaths, passwordForgotRequestSchema, TIMINGS } from '@plant/shared-schema';
import { callApi } from '../../session/api';
import { serverFieldErrors } from './form-errors';
import { usePageTitle } from './page-title';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { bySchema, useForm } from './use-form';
import { EmailInput, UserForm, useSubmit } from './user-form';

const FIELDS = ['email'] as const;
const validate = bySchema(passwordForgotRequestSchema, FIELDS);
const INITIAL = { email: '' };

/**
 * /user/forgot-password: POST password/forgot. The confirmation is the same for every address:
 * the server does not tell whether one belongs to an account, and neither does this screen (its
 * own text, not the answer's, so nothing the server might add could leak it).
 */
export function ForgotPasswordPage() {
  const { t, i18n } = useLingui();
  usePageTitle(t`Forgot password`);
  const form = useForm({ fields: FIELDS, initial: INITIAL, validate });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const confirmation = useRef<HTMLHeadingElement>(null);
  const minutes = Math.round(TIMINGS.passwordResetTokenTtlMs / 60_000);

  const send = async (data: { email: string }) => {
    const answer = await callApi('POST', apiPaths.passwordForgot(), z.unknown(), {
      body: data,
      envelope: false,
      quiet: true,
    });
    if ('error' in answer) {
      const onFields = form.showErrors(serverFieldErrors(answer.error.fields, FIELDS));
      return onFields ? null : callErrorText(answer.error);
    }
    setSentTo(data.email);
    // The form is replaced by the confirmation: the focus goes to its heading.
    requestAnimationFrame(() => confirmation.current?.focus());
    return null;
  };
  const { busy, error, submit } = useSubmit(form.check, send);

  if (sentTo !== null) {
    return (
      <Stack gap="md">
        <Title order={1} size="h2" tabIndex={-1} ref={confirmation}>
          <Trans>Check your mail</Trans>
        </Title>
        <Alert color="green" role="status">
          <Trans>
            If this address belongs to an account, a link to reset the password is on its way.
          </Trans>
        </Alert>
        <Text>
          <Trans>
            The link was sent to {sentTo} if an account uses it. It works once and for {minutes}{' '}
            minutes. Nothing arrived? Look in the spam folder, or ask again in a few minutes.
          </Trans>
        </Text>
        <Button component={Link} to="/user/login">
          <Trans>Back to sign-in</Trans>
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setSentTo(null);
            requestAnimationFrame(() => form.focus('email'));
          }}
        >
          <Trans>Use another address</Trans>
        </Anchor>
      </Stack>
    );
  }

  return (
    <UserForm title={<Trans>Forgot your password?</Trans>} busy={busy} onSubmit={submit}>
      <Text size="sm">
        <Trans>Enter the address you sign in with. We send a link to choose a new password.</Trans>
      </Text>
      <EmailInput {...form.field('email')} autoComplete="email" />
      {error === null ? null : (
        <Alert color="red" role="alert">
          {translateServerText(i18n, error)}
        </Alert>
      )}
      <Button type="submit" fullWidth loading={busy}>
        <Trans>Send the link</Trans>
      </Button>
      <Anchor component={Link} to="/user/login" size="sm" ta="center">
        <Trans>Back to sign-in</Trans>
      </Anchor>
    </UserForm>
  );
}
