// Its catalogue and texts join the translation table with the page.
import './catalogues';
import { useEffect, useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Divider, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { TWO_FACTOR_TEXTS, type TotpSetup } from '@plant/shared-schema';
import { signIn, signInWithToken, type SignInOutcome } from '../../session/session';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { getPasskey, passkeysSupported } from './passkey-browser';
import { processing, useAfterSignIn } from '../user/sign-in-flow';
import { twoFactorApi } from './two-factor-api';
import { CodeInput, RecoveryCodesPanel, TotpSetupPanel } from './two-factor-parts';
import './server-texts';

/** Where the sign-in's second step starts: asking for a factor, or setting one up first. */
export type SecondFactorKind = 'code' | 'setup';

type Step =
  | { readonly name: 'code'; readonly recovery: boolean }
  | { readonly name: 'setup-loading' }
  | { readonly name: 'setup'; readonly setup: TotpSetup }
  | { readonly name: 'codes'; readonly codes: readonly string[]; readonly token: string };

/**
 * The sign-in's second step (issue 38 item 2), after the password was right: the authenticator
 * app's code, a recovery code or a passkey; or, where an account requires a second factor the
 * user has none of, the app's set-up (QR code, key, a code), the recovery codes shown once, and
 * then the app. The password stays in this screen's memory only, for the grant's second try.
 */
export function SecondFactorStep({
  email,
  password,
  redirect,
  kind,
  onBack,
}: {
  readonly email: string;
  readonly password: string;
  readonly redirect: string | undefined;
  readonly kind: SecondFactorKind;
  readonly onBack: () => void;
}) {
  const { t, i18n } = useLingui();
  const titleId = useId();
  const afterSignIn = useAfterSignIn();
  const [step, setStep] = useState<Step>(
    kind === 'code' ? { name: 'code', recovery: false } : { name: 'setup-loading' },
  );
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Ends a sign-in that got past the grant, or shows why it did not. */
  const finish = async (outcome: SignInOutcome) => {
    if (outcome.name === 'second-factor') {
      setError(translateServerText(i18n, outcome.message));
      return;
    }
    if (outcome.name === 'second-factor-setup') {
      await startSetup();
      return;
    }
    const message = await afterSignIn(outcome, redirect);
    if (message !== null) setError(translateServerText(i18n, message));
  };

  const credentials = async () => {
    const conf = await twoFactorApi.clientId();
    if ('error' in conf) return conf;
    return { data: { client_id: conf.data.client_id, username: email, password } };
  };

  const startSetup = async () => {
    setStep({ name: 'setup-loading' });
    const body = await credentials();
    const answer = 'error' in body ? body : await twoFactorApi.enrol(body.data);
    if ('error' in answer) {
      setError(translateServerText(i18n, callErrorText(answer.error)));
      return;
    }
    setError(null);
    setStep({ name: 'setup', setup: answer.data });
  };

  useEffect(() => {
    // A required factor not set up yet: its set-up starts as the step shows.
    if (kind === 'setup') void startSetup();
    // Once, as the step opens: `startSetup` is a new function on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const sendCode = async () => {
    if (busy) return;
    const typed = code.trim();
    if (typed === '') {
      setError(translateServerText(i18n, TWO_FACTOR_TEXTS.codeFormat));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await finish(await processing(signIn(email, password, { otp: typed })));
    } finally {
      setBusy(false);
    }
  };

  const signInWithPasskey = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const options = await twoFactorApi.signInOptions();
      if ('error' in options) {
        setError(translateServerText(i18n, callErrorText(options.error)));
        return;
      }
      const assertion = await getPasskey(options.data);
      if (assertion === 'cancelled') {
        setError(t`No passkey was used. Try again, or enter a code.`);
        return;
      }
      if (assertion === 'failed') {
        setError(t`This browser could not use a passkey here. Enter a code instead.`);
        return;
      }
      await finish(await processing(signIn(email, password, { webauthn: assertion })));
    } finally {
      setBusy(false);
    }
  };

  const confirmSetup = async (typed: string): Promise<string | null> => {
    const body = await credentials();
    const answer =
      'error' in body ? body : await twoFactorApi.enrolConfirm({ ...body.data, code: typed });
    if ('error' in answer) {
      const field = answer.error.fields?.code?.[0];
      return translateServerText(i18n, field ?? callErrorText(answer.error));
    }
    setStep({
      name: 'codes',
      codes: answer.data.recovery_codes,
      token: answer.data.token.access_token,
    });
    return null;
  };

  const title = <Trans>Two-factor sign-in</Trans>;
  const back = (
    <Anchor component="button" type="button" size="sm" onClick={onBack}>
      <Trans>Back to sign-in</Trans>
    </Anchor>
  );

  if (step.name !== 'code') {
    return (
      <Stack gap="md" aria-labelledby={titleId} component="section">
        <Title order={1} size="h2" id={titleId}>
          {step.name === 'codes' ? <Trans>Two-factor sign-in is on</Trans> : title}
        </Title>
        {step.name === 'codes' ? (
          <>
            <RecoveryCodesPanel codes={step.codes} />
            <Button
              loading={busy}
              onClick={() => {
                setBusy(true);
                void signInWithToken(step.token)
                  .then(finish)
                  .finally(() => setBusy(false));
              }}
              data-testid="two-factor-continue"
            >
              <Trans>I have kept the codes: continue</Trans>
            </Button>
          </>
        ) : (
          <>
            <Text>
              <Trans>
                An account you belong to requires two-factor sign-in. Set up an authenticator app to
                continue.
              </Trans>
            </Text>
            {step.name === 'setup' ? (
              <TotpSetupPanel setup={step.setup} confirm={confirmSetup} />
            ) : error === null ? (
              <Text c="dimmed">
                <Trans>Loading…</Trans>
              </Text>
            ) : null}
          </>
        )}
        {error !== null && step.name !== 'setup' ? (
          <Text c="red" role="alert" data-testid="second-factor-error">
            {error}
          </Text>
        ) : null}
        {back}
      </Stack>
    );
  }

  return (
    <form
      noValidate
      aria-labelledby={titleId}
      aria-busy={busy}
      onSubmit={(e) => {
        e.preventDefault();
        void sendCode();
      }}
      data-testid="second-factor"
    >
      <Stack gap="md">
        <Title order={1} size="h2" id={titleId}>
          {title}
        </Title>
        <Text>
          {step.recovery ? (
            <Trans>Enter one of your recovery codes. Each code works once.</Trans>
          ) : (
            <Trans>Enter the 6-digit code from your authenticator app.</Trans>
          )}
        </Text>
        <CodeInput
          key={step.recovery ? 'recovery' : 'app'}
          value={code}
          onChange={setCode}
          error={error}
          recovery={step.recovery}
          label={step.recovery ? t`Recovery code` : t`Code`}
          autoFocus
        />
        <Button type="submit" fullWidth loading={busy} data-testid="second-factor-submit">
          <Trans>Verify</Trans>
        </Button>
        <VisuallyHidden role="status">{busy ? <Trans>Signing in...</Trans> : null}</VisuallyHidden>
        <Group justify="space-between" gap="xs">
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              setCode('');
              setError(null);
              setStep({ name: 'code', recovery: !step.recovery });
            }}
            data-testid={step.recovery ? 'use-app-code' : 'use-recovery-code'}
          >
            {step.recovery ? (
              <Trans>Use the authenticator app</Trans>
            ) : (
              <Trans>Use a recovery code</Trans>
            )}
          </Anchor>
          {back}
        </Group>
        {passkeysSupported() ? (
          <>
            <Divider label={t`or`} labelPosition="center" />
            <Button
              variant="light"
              fullWidth
              onClick={() => void signInWithPasskey()}
              disabled={busy}
              data-testid="use-passkey"
            >
              <Trans>Use a passkey</Trans>
            </Button>
          </>
        ) : null}
      </Stack>
    </form>
  );
}
