import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Code, Group, List, Stack, Text, TextInput } from '@mantine/core';
import type {
  PasskeyCreationOptions,
  PasskeyRegistration,
  PasskeyView,
  TotpSetup,
} from '@plant/shared-schema';
import type { Result } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { createPasskey } from './passkey-browser';
import { QrCode } from '../qr/qr-code';
import { saveBlob } from '../../sync/download-file';
import './server-texts';

/*
 * The parts two-factor sign-in's screens share (issue 38 item 2): the code field, the
 * authenticator app's set-up (QR code and key) and the recovery codes shown once. Their own chunk:
 * the sign-in screen loads them only once a second factor is asked for.
 */

/**
 * The field for a code: an app's six digits (the phone's number pad, the browser's one-time-code
 * autofill) or, with `recovery`, a recovery code (letters too).
 */
export function CodeInput({
  value,
  onChange,
  error,
  recovery = false,
  label,
  autoFocus = false,
}: {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error: string | null;
  readonly recovery?: boolean;
  readonly label: string;
  readonly autoFocus?: boolean;
}) {
  return (
    <TextInput
      label={label}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      aria-invalid={error === null ? undefined : true}
      name={recovery ? 'recovery-code' : 'otp'}
      autoComplete={recovery ? 'off' : 'one-time-code'}
      inputMode={recovery ? 'text' : 'numeric'}
      autoCapitalize="none"
      spellCheck={false}
      maxLength={recovery ? 20 : 7}
      required
      data-autofocus={autoFocus ? true : undefined}
      // A screen that changes to this field puts the focus here (the user types next).
      autoFocus={autoFocus}
      data-testid={recovery ? 'recovery-code-input' : 'otp-input'}
    />
  );
}

/** The key in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * The authenticator app's set-up: the QR code of the otpauth URL, the URL and the key as text
 * (for an app on the same device, and for whoever cannot scan), and the code that confirms it.
 * `confirm` answers the failure to show, or null.
 */
export function TotpSetupPanel({
  setup,
  confirm,
}: {
  readonly setup: TotpSetup;
  readonly confirm: (code: string) => Promise<string | null>;
}) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const keyId = useId();
  const send = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const failure = await confirm(code.replace(/\s+/g, ''));
    setBusy(false);
    setError(failure);
  };
  return (
    <form
      noValidate
      aria-busy={busy}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <Stack gap="sm" data-testid="totp-setup">
        <Text size="sm">
          <Trans>
            Scan the QR code with your authenticator app, or type the key into it. Then enter the
            6-digit code the app shows.
          </Trans>
        </Text>
        <Box maw={220} data-testid="totp-qr">
          <QrCode text={setup.otpauth_url} label={t`QR code for your authenticator app`} />
        </Box>
        <div>
          <Text size="sm" fw={600} id={keyId}>
            <Trans>Key</Trans>
          </Text>
          <Code
            block
            aria-labelledby={keyId}
            data-testid="totp-secret"
            data-secret={setup.secret}
            style={{ fontSize: '1.05rem', letterSpacing: '0.05em' }}
          >
            {grouped(setup.secret)}
          </Code>
        </div>
        <div>
          <Text size="sm" fw={600}>
            <Trans>Set-up address (otpauth URL)</Trans>
          </Text>
          <Code block data-testid="totp-url" style={{ wordBreak: 'break-all' }}>
            {setup.otpauth_url}
          </Code>
        </div>
        <CodeInput
          value={code}
          onChange={setCode}
          error={error}
          label={t`Code from the app`}
          autoFocus
        />
        <Group>
          <Button type="submit" loading={busy} data-testid="totp-confirm">
            <Trans>Turn on</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The recovery codes, shown this once (the server keeps only their hashes): to copy or save as a
 * file. Each signs in once in place of the app's code.
 */
export function RecoveryCodesPanel({ codes }: { readonly codes: readonly string[] }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState<string | null>(null);
  const text = codes.join('\n');
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied(t`Copied.`),
      () => setCopied(t`Copying is not allowed here: select the codes and copy them.`),
    );
  };
  return (
    <Stack gap="sm" data-testid="recovery-codes">
      <Alert color="yellow" title={t`Your recovery codes`}>
        <Trans>
          Keep these codes somewhere safe: they are shown only now. Each one signs you in once when
          you do not have your authenticator app.
        </Trans>
      </Alert>
      <List
        type="ordered"
        styles={{ item: { fontFamily: 'monospace', fontSize: '1.05rem' } }}
        aria-label={t`Recovery codes`}
      >
        {codes.map((code) => (
          <List.Item key={code} data-recovery-code={code}>
            {code}
          </List.Item>
        ))}
      </List>
      <Group>
        <Button variant="light" onClick={copy}>
          <Trans>Copy the codes</Trans>
        </Button>
        <Button
          variant="light"
          onClick={() =>
            saveBlob(new Blob([`${text}\n`], { type: 'text/plain' }), 'recovery-codes.txt')
          }
        >
          <Trans>Download the codes</Trans>
        </Button>
      </Group>
      <Text role="status" size="sm" c="green">
        {copied}
      </Text>
    </Stack>
  );
}

/** What a passkey is, in the words both the security page and the sign-in's set-up use. */
export function PasskeyAbout() {
  return (
    <Text size="sm">
      <Trans>
        A passkey lives on this device or a security key and confirms your sign-in with a touch,
        your fingerprint or your device&apos;s PIN.
      </Trans>
    </Text>
  );
}

/**
 * A new passkey's whole ceremony, as the security page and the sign-in's set-up both make one:
 * the server's options, the browser's creation, the registration under `name`. Answers the text
 * to show when it did not end registered, else null. The two differ only in their calls (signed
 * in, or with the grant's credentials beside them).
 */
export function usePasskeyMaker(): (
  options: () => Promise<Result<PasskeyCreationOptions>>,
  register: (registration: PasskeyRegistration) => Promise<Result<PasskeyView>>,
  name: string,
) => Promise<string | null> {
  const { t, i18n } = useLingui();
  return async (options, register, name) => {
    const asked = await options();
    if ('error' in asked) return translateServerText(i18n, callErrorText(asked.error));
    const credential = await createPasskey(asked.data);
    if (credential === 'cancelled') return t`No passkey was made. Try again when you are ready.`;
    if (credential === 'failed') return t`This browser could not make a passkey here.`;
    const made = await register({ name, credential });
    if (!('error' in made)) return null;
    const field = made.error.fields?.credential?.[0] ?? made.error.fields?.name?.[0];
    return translateServerText(i18n, field ?? callErrorText(made.error));
  };
}
