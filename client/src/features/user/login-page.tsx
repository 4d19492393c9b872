import { lazy, Suspense, useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, Text, VisuallyHidden } from '@mantine/core';
import { PasswordInput } from '../../components/password-input';
import { Link, useSearch } from '@tanstack/react-router';
import { useAtom } from 'jotai';
import { z } from 'zod';
import { deferred, currentPasswordField, emailField, TIMINGS } from '@plant/shared-schema';
import { signIn } from '../../session/session';
import { signInNoticeAtom } from './notice';
import { usePageTitle } from './page-title';
import { processing, useAfterSignIn } from './sign-in-flow';
import { translateServerText } from '../../i18n/server-texts';
import { bySchema, useForm } from './use-form';
import { EmailInput, UserForm, useSubmit } from './user-form';

/** The second step, in its own chunk: only who has a second factor loads it. */
const SecondFactorStep = lazy(() =>
  import('../two-factor/second-factor-step').then((m) => ({ default: m.SecondFactorStep })),
);
type SecondStep = {
  readonly email: string;
  readonly password: string;
  readonly kind: 'code' | 'setup';
};

/** The password grant's fields, checked by the shared field schemas the server uses. */
const signInSchema = /* @__PURE__ */ deferred(() =>
  z.object({ email: emailField, password: currentPasswordField }),
);
const FIELDS = ['email', 'password'] as const;
const validate = bySchema(signInSchema, FIELDS);
const INITIAL = { email: '', password: '' };

/**
 * /user/login?redirect= (spec 000 §2, §4, §8). Processing lasts at least 1 s; a refused password
 * shows 'Wrong credentials!' for 3 s, any other failure the server's description for as long; a
 * norole user is refused and sent to /user/norole; a signed-in user goes to the redirect target
 * (a path of this app only) or the asset list.
 */
export function LoginPage() {
  const { t, i18n } = useLingui();
  usePageTitle(t`Sign in`);
  const { redirect }: { redirect?: string } = useSearch({ strict: false });
  const afterSignIn = useAfterSignIn();
  const form = useForm({ fields: FIELDS, initial: INITIAL, validate });
  const [notice, setNotice] = useAtom(signInNoticeAtom);
  const [shownNotice] = useState(notice);
  const [second, setSecond] = useState<SecondStep | null>(null);

  // The notice of a finished password reset is shown once.
  useEffect(() => {
    if (notice !== null) setNotice(null);
  }, [notice, setNotice]);

  const send = async (data: { email: string; password: string }) => {
    const outcome = await processing(signIn(data.email, data.password));
    // The password was right and a second factor is asked for: the next step (issue 38 item 2).
    if (outcome.name === 'second-factor' || outcome.name === 'second-factor-setup') {
      setSecond({
        ...data,
        kind: outcome.name === 'second-factor' ? 'code' : 'setup',
      });
      return null;
    }
    const message = await afterSignIn(outcome, redirect);
    if (message !== null) form.focus('password');
    return message;
  };
  const { busy, error, setError, submit } = useSubmit(form.check, send);

  useEffect(() => {
    // A failed sign-in's message shows until it clears itself (3 s) or the next attempt.
    if (error === null) return;
    const timer = setTimeout(() => setError(null), TIMINGS.loginErrorClearMs);
    return () => clearTimeout(timer);
  }, [error, setError]);

  if (second !== null) {
    return (
      <Suspense fallback={null}>
        <SecondFactorStep {...second} redirect={redirect} onBack={() => setSecond(null)} />
      </Suspense>
    );
  }

  return (
    <UserForm title={<Trans>Sign in</Trans>} busy={busy} onSubmit={submit}>
      {shownNotice === null ? null : (
        <Alert color="green" role="status">
          {i18n._(shownNotice)}
        </Alert>
      )}
      <EmailInput {...form.field('email')} autoComplete="username" />
      <PasswordInput
        {...form.field('password')}
        label={t`Password`}
        autoComplete="current-password"
        required
      />
      {error === null ? null : (
        <Alert color="red" role="alert" data-testid="sign-in-error">
          {translateServerText(i18n, error)}
        </Alert>
      )}
      <Button type="submit" fullWidth loading={busy}>
        <Trans>Sign in</Trans>
      </Button>
      <VisuallyHidden role="status">{busy ? <Trans>Signing in...</Trans> : null}</VisuallyHidden>
      <Group justify="space-between" gap="xs">
        <Anchor component={Link} to="/user/forgot-password" size="sm">
          <Trans>Forgot your password?</Trans>
        </Anchor>
        <Text size="sm">
          <Trans>
            No account yet?{' '}
            <Anchor component={Link} to="/user/register" inherit>
              Register
            </Anchor>
          </Trans>
        </Text>
      </Group>
    </UserForm>
  );
}
