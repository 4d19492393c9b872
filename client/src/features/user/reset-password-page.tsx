import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { PasswordInput } from '../../components/password-input';
import { Link, useLocation, useNavigate, useSearch } from '@tanstack/react-router';
import { useSetAtom } from 'jotai';
import { z } from 'zod';
import { apiPaths, emailField, LIMITS, RESET_TOKEN_INVALID_MESSAGE } from '@plant/shared-schema';
import { callApi } from '../../session/api';
import { signIn } from '../../session/session';
import { serverFieldErrors } from './form-errors';
import { checkNewPassword, type NewPasswordField } from './new-password';
import { signInNoticeAtom } from './notice';
import { usePageTitle } from './page-title';
import { processing, useAfterSignIn } from './sign-in-flow';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { InvitationPage } from './invitation-page';
import { useForm } from './use-form';
import { UserForm, useSubmit } from './user-form';

const FIELDS: readonly NewPasswordField[] = ['password', 'repeat'];
const INITIAL = { password: '', repeat: '' };

/** The link of the reset mail: /user/reset-password?token=…&email=… (password.service.ts). */
interface ResetSearch {
  readonly token?: string;
  readonly email?: string;
  /** An invitation's link instead (invitation.service.ts): the invitation page answers it. */
  readonly invitation?: string;
}

/**
 * /user/reset-password and /user/set-password (one screen): the token and address of the mailed
 * link, the new password twice (the shared rule), POST password/reset, then signed in with the
 * new password. The server revokes every session of the user on a reset, so this is the one
 * sign-in that follows it. A link that is used, expired or cut short says so and offers a new one.
 */
export function ResetPasswordPage() {
  const { invitation }: ResetSearch = useSearch({ strict: false });
  return invitation === undefined || invitation === '' ? (
    <ResetPassword />
  ) : (
    <InvitationPage token={invitation} />
  );
}

function ResetPassword() {
  const { t, i18n } = useLingui();
  const { token, email }: ResetSearch = useSearch({ strict: false });
  const setting = useLocation({ select: (l) => l.pathname.startsWith('/user/set-password') });
  usePageTitle(setting ? t`Set your password` : t`Choose a new password`);
  const navigate = useNavigate();
  const afterSignIn = useAfterSignIn();
  const setNotice = useSetAtom(signInNoticeAtom);
  const form = useForm({
    fields: FIELDS,
    initial: INITIAL,
    validate: checkNewPassword,
    dependents: { password: ['repeat'] },
  });
  const send = async (password: string) => {
    const answer = await callApi('POST', apiPaths.passwordReset(), z.unknown(), {
      body: { token, password },
      envelope: false,
      quiet: true,
    });
    if (!('error' in answer)) {
      await signInWith(password);
      return null;
    }
    const onFields = form.showErrors(serverFieldErrors(answer.error.fields, FIELDS));
    if (answer.error.fields?.token !== undefined) return RESET_TOKEN_INVALID_MESSAGE;
    return onFields ? null : callErrorText(answer.error);
  };
  const { busy, error, submit } = useSubmit(form.check, send);
  const address = emailField.safeParse(email ?? '');
  const { newPasswordMin: min, newPasswordMax: max } = LIMITS;

  const title = setting ? <Trans>Set your password</Trans> : <Trans>Choose a new password</Trans>;

  if (token === undefined || token === '') {
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Alert color="red" role="alert">
          <Trans>
            This link is incomplete: it has no reset code. Open the link of the mail once more,
            whole, or ask for a new one.
          </Trans>
        </Alert>
        <Button component={Link} to="/user/forgot-password">
          <Trans>Ask for a new link</Trans>
        </Button>
      </Stack>
    );
  }

  /** Signs in with the new password; where that cannot happen, the sign-in screen says it is set. */
  const signInWith = async (password: string): Promise<void> => {
    const toSignIn = async () => {
      setNotice(msg`Your new password is set. Sign in with it.`);
      await navigate({ to: '/user/login', replace: true });
    };
    if (!address.success) return toSignIn();
    const failed = await afterSignIn(await processing(signIn(address.data, password)));
    if (failed !== null) await toSignIn();
  };

  return (
    <UserForm title={title} busy={busy} onSubmit={submit}>
      {address.success ? (
        // For the browser's password manager (and the reader): whose password this is.
        <TextInput
          label={t`Email`}
          value={address.data}
          name="email"
          autoComplete="username"
          readOnly
        />
      ) : null}
      <PasswordInput
        {...form.field('password')}
        label={t`New password`}
        description={t`${min} to ${max} characters`}
        autoComplete="new-password"
        required
      />
      <PasswordInput
        {...form.field('repeat')}
        label={t`Repeat the new password`}
        autoComplete="new-password"
        required
      />
      {error === null ? null : (
        <Alert color="red" role="alert">
          <Stack gap="xs">
            <Text inherit>{translateServerText(i18n, error)}</Text>
            {error === RESET_TOKEN_INVALID_MESSAGE ? (
              <Anchor component={Link} to="/user/forgot-password" inherit>
                <Trans>Ask for a new link</Trans>
              </Anchor>
            ) : null}
          </Stack>
        </Alert>
      )}
      <Button type="submit" fullWidth loading={busy}>
        {setting ? <Trans>Set the password</Trans> : <Trans>Change the password</Trans>}
      </Button>
      <VisuallyHidden role="status">
        {busy ? <Trans>Saving the new password...</Trans> : null}
      </VisuallyHidden>
      <Anchor component={Link} to="/user/login" size="sm" ta="center">
        <Trans>Back to sign-in</Trans>
      </Anchor>
    </UserForm>
  );
}
