// Its catalogue and texts join the translation table with the page.
import './catalogues';
import { useEffect, useId, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  Divider,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { TWO_FACTOR_TEXTS, type TotpSetup } from '@plant/shared-schema';
import { signIn, signInWithToken, type SignInOutcome } from '../../session/session';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { getPasskey, passkeysSupported } from './passkey-browser';
import { processing, useAfterSignIn } from '../user/sign-in-flow';
import { twoFactorApi } from './two-factor-api';
import {
  CodeInput,
  PasskeyAbout,
  RecoveryCodesPanel,
  TotpSetupPanel,
  usePasskeyMaker,
} from './two-factor-parts';
import './server-texts';

/** Where the sign-in's second step starts: asking for a factor, or setting one up first. */
export type SecondFactorKind = 'code' | 'setup';

type Step =
  | { readonly name: 'code'; readonly recovery: boolean }
  | { readonly name: 'setup-loading' }
  | { readonly name: 'setup'; readonly setup: TotpSetup }
  | { readonly name: 'codes'; readonly codes: readonly string[]; readonly token: string }
  /** A passkey set up in place of the app: the sign-in is finished with it. */
  | { readonly name: 'passkey-made' };

/** What a passkey ceremony that did not sign in tells the user, by why it ended. */
type PasskeyTexts = { readonly cancelled: string; readonly failed: string };

/**
 * The sign-in's second step (issue 38 item 2), after the password was right: the authenticator
 * app's code, a recovery code or a passkey; or, where an account requires a second factor the
 * user has none of, its set-up: the app's (QR code, key, a code), the recovery codes shown once,
 * and then the app; or a passkey (made with the password as proof, as the app's set-up), with
 * which the sign-in is then finished. The password stays in this screen's memory only, for the
 * grant's second try.
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
  const passkeyButton = useRef<HTMLButtonElement>(null);
  const makePasskey = usePasskeyMaker();

  useEffect(() => {
    // The new passkey's button takes the focus back once a try ended without signing in (a busy
    // button is disabled and loses it), so the keyboard is where the next try starts.
    if (step.name === 'passkey-made' && !busy) passkeyButton.current?.focus();
  }, [step.name, busy]);

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

  const signInWithPasskey = async (texts: PasskeyTexts) => {
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
      if (assertion === 'cancelled' || assertion === 'failed') {
        setError(texts[assertion]);
        return;
      }
      await finish(await processing(signIn(email, password, { webauthn: assertion })));
    } finally {
      setBusy(false);
    }
  };
  const codeStepPasskey: PasskeyTexts = {
    cancelled: t`No passkey was used. Try again, or enter a code.`,
    failed: t`This browser could not use a passkey here. Enter a code instead.`,
  };
  const newPasskey: PasskeyTexts = {
    cancelled: t`No passkey was used. Try again when you are ready.`,
    failed: t`This browser could not use the passkey here. Try again.`,
  };

  /**
   * A passkey in place of the app: its options and its registration with the grant's
   * credentials (nobody is signed in yet), then the sign-in with it. Answers the failure to show
   * at the set-up, or null once the passkey is registered.
   */
  const setUpPasskey = async (name: string): Promise<string | null> => {
    const body = await credentials();
    if ('error' in body) return translateServerText(i18n, callErrorText(body.error));
    const failed = await makePasskey(
      () => twoFactorApi.enrolPasskeyOptions(body.data),
      (registration) => twoFactorApi.enrolPasskey({ ...body.data, ...registration }),
      name,
    );
    if (failed !== null) return failed;
    setError(null);
    setStep({ name: 'passkey-made' });
    // Right away, as every later sign-in will; the step's button is there for a second try.
    await signInWithPasskey(newPasskey);
    return null;
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
        {step.name === 'passkey-made' ? (
          <>
            <Text>
              <Trans>Your passkey is set up. Sign in with it to continue.</Trans>
            </Text>
            <Button
              ref={passkeyButton}
              onClick={() => void signInWithPasskey(newPasskey)}
              loading={busy}
              data-testid="passkey-sign-in"
            >
              <Trans>Sign in with the passkey</Trans>
            </Button>
            <VisuallyHidden role="status">
              {busy ? <Trans>Signing in...</Trans> : null}
            </VisuallyHidden>
          </>
        ) : step.name === 'codes' ? (
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
              {passkeysSupported() ? (
                <Trans>
                  An account you belong to requires two-factor sign-in. Set up an authenticator app
                  or a passkey to continue.
                </Trans>
              ) : (
                <Trans>
                  An account you belong to requires two-factor sign-in. Set up an authenticator app
                  to continue.
                </Trans>
              )}
            </Text>
            {step.name === 'setup' ? (
              <TotpSetupPanel setup={step.setup} confirm={confirmSetup} />
            ) : error === null ? (
              <Text c="dimmed">
                <Trans>Loading…</Trans>
              </Text>
            ) : null}
            {passkeysSupported() ? (
              <>
                <Divider label={t`or`} labelPosition="center" />
                <PasskeySetup setUp={setUpPasskey} />
              </>
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
              onClick={() => void signInWithPasskey(codeStepPasskey)}
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

/**
 * The set-up of a passkey in place of the app: a name (so that the user knows it again on its
 * security page) and the browser's ceremony. `setUp` answers the failure to show, or null.
 */
function PasskeySetup({ setUp }: { readonly setUp: (name: string) => Promise<string | null> }) {
  const { t } = useLingui();
  const headingId = useId();
  const nameInput = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (busy) return;
    const trimmed = name.trim();
    setNameError(trimmed === '' ? t`Please give the passkey a name.` : null);
    setError(null);
    if (trimmed === '') {
      nameInput.current?.focus();
      return;
    }
    setBusy(true);
    try {
      setError(await setUp(trimmed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      noValidate
      aria-labelledby={headingId}
      aria-busy={busy}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <Stack gap="sm" data-testid="passkey-setup">
        <Title order={2} size="h4" id={headingId}>
          <Trans>Use a passkey</Trans>
        </Title>
        <PasskeyAbout />
        <TextInput
          ref={nameInput}
          label={t`Name of the new passkey`}
          description={t`So that you know it again, e.g. “Work laptop”.`}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={nameError}
          maxLength={100}
          required
          data-testid="setup-passkey-name"
        />
        <Group>
          <Button type="submit" variant="light" loading={busy} data-testid="setup-passkey">
            <Trans>Set up a passkey</Trans>
          </Button>
        </Group>
        {error === null ? null : (
          <Text c="red" size="sm" role="alert" data-testid="setup-passkey-error">
            {error}
          </Text>
        )}
      </Stack>
    </form>
  );
}
