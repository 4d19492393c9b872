// Its catalogue and texts join the translation table with the page.
import './catalogues';
import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import type { TotpSetup, TwoFactorStatus } from '@plant/shared-schema';
import { LoadState, PageError, useLoaded } from '../../components/page-state';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { sessionAtom } from '../../state/session';
import { passkeysSupported } from './passkey-browser';
import { twoFactorApi } from './two-factor-api';
import {
  CodeInput,
  PasskeyAbout,
  RecoveryCodesPanel,
  TotpSetupPanel,
  usePasskeyMaker,
} from './two-factor-parts';
import './server-texts';

/**
 * /app/users/{userid}/security (issue 38 item 2): the signed-in user's own two-factor sign-in.
 * The authenticator app (set up with its QR code and key, confirmed with a code; off, and new
 * recovery codes, with a code), the recovery codes shown once, and passkeys (added through the
 * browser, listed, removed). Online only: every change is the server's to check.
 */
export function SecurityPage() {
  const { t } = useLingui();
  const { userid = '' }: { userid?: string } = useParams({ strict: false });
  const self = useAtomValue(sessionAtom)?.user.id === userid;
  const [loaded, replace] = useLoaded(`${userid}`, () => twoFactorApi.status());
  const reload = async () => {
    const answer = await twoFactorApi.status();
    if (!('error' in answer)) replace(answer.data);
  };

  if (!self) {
    return (
      <Stack gap="md" maw={640}>
        <Title order={1}>
          <Trans>Two-factor sign-in</Trans>
        </Title>
        <Alert color="gray">
          <Trans>Only the user sets up its own two-factor sign-in.</Trans>
        </Alert>
      </Stack>
    );
  }
  if (loaded.name !== 'loaded') return <LoadState state={loaded} />;
  const status = loaded.data;
  const on = status.totp || status.passkeys.length > 0;

  return (
    <Stack gap="lg" maw={720} data-testid="security-page">
      <Title order={1}>
        <Trans>Two-factor sign-in</Trans>
      </Title>
      <Group gap="xs">
        <Badge color={on ? 'green' : 'gray'} variant="light" data-testid="two-factor-state">
          {on ? t`On` : t`Off`}
        </Badge>
        {status.required ? (
          <Text size="sm">
            <Trans>An account you belong to requires a second factor.</Trans>
          </Text>
        ) : null}
      </Group>
      <AppSection status={status} reload={reload} />
      <PasskeySection status={status} reload={reload} />
    </Stack>
  );
}

function Section({ title, children }: { readonly title: string; readonly children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

type AppStep =
  | { readonly name: 'idle' }
  | { readonly name: 'setup'; readonly setup: TotpSetup }
  | { readonly name: 'codes'; readonly codes: readonly string[] }
  | { readonly name: 'prove'; readonly action: 'off' | 'renew' };

/** The authenticator app: set up, turn off, new recovery codes. */
function AppSection({
  status,
  reload,
}: {
  readonly status: TwoFactorStatus;
  readonly reload: () => Promise<void>;
}) {
  const { t, i18n } = useLingui();
  const [step, setStep] = useState<AppStep>({ name: 'idle' });
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const serverText = (text: string) => translateServerText(i18n, text);
  const left = status.recovery_codes_left;

  const start = async () => {
    setBusy(true);
    setError(null);
    const answer = await twoFactorApi.startTotp();
    setBusy(false);
    if ('error' in answer) setError(serverText(callErrorText(answer.error)));
    else setStep({ name: 'setup', setup: answer.data });
  };

  const confirm = async (typed: string): Promise<string | null> => {
    const answer = await twoFactorApi.confirmTotp(typed);
    if ('error' in answer)
      return serverText(answer.error.fields?.code?.[0] ?? callErrorText(answer.error));
    setStep({ name: 'codes', codes: answer.data.recovery_codes });
    await reload();
    return null;
  };

  const prove = async (action: 'off' | 'renew') => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const typed = code.trim();
    if (action === 'off') {
      const answer = await twoFactorApi.disableTotp(typed);
      setBusy(false);
      if ('error' in answer) {
        setError(serverText(answer.error.fields?.otp?.[0] ?? callErrorText(answer.error)));
        return;
      }
      setCode('');
      setStep({ name: 'idle' });
      await reload();
      return;
    }
    const answer = await twoFactorApi.renewRecoveryCodes(typed);
    setBusy(false);
    if ('error' in answer) {
      setError(serverText(answer.error.fields?.otp?.[0] ?? callErrorText(answer.error)));
      return;
    }
    setCode('');
    setStep({ name: 'codes', codes: answer.data.recovery_codes });
    await reload();
  };

  return (
    <Section title={t`Authenticator app`}>
      {step.name === 'codes' ? (
        <>
          <RecoveryCodesPanel codes={step.codes} />
          <Group>
            <Button
              variant="default"
              onClick={() => setStep({ name: 'idle' })}
              data-testid="recovery-codes-done"
            >
              <Trans>Done</Trans>
            </Button>
          </Group>
        </>
      ) : step.name === 'setup' ? (
        <TotpSetupPanel setup={step.setup} confirm={confirm} />
      ) : step.name === 'prove' ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void prove(step.action);
          }}
        >
          <Stack gap="sm">
            <Text size="sm">
              <Trans>Enter a code from your authenticator app, or a recovery code.</Trans>
            </Text>
            <CodeInput
              value={code}
              onChange={setCode}
              error={error}
              recovery
              label={t`Code or recovery code`}
              autoFocus
            />
            <Group>
              <Button type="submit" loading={busy} color={step.action === 'off' ? 'red' : 'blue'}>
                {step.action === 'off' ? (
                  <Trans>Turn the app off</Trans>
                ) : (
                  <Trans>Make new recovery codes</Trans>
                )}
              </Button>
              <Button variant="default" onClick={() => setStep({ name: 'idle' })}>
                <Trans>Cancel</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      ) : status.totp ? (
        <Stack gap="sm">
          <Text data-testid="totp-on">
            <Trans>The app is on. Recovery codes left: {left}</Trans>
          </Text>
          <Group>
            <Button variant="light" onClick={() => setStep({ name: 'prove', action: 'renew' })}>
              <Trans>New recovery codes</Trans>
            </Button>
            <Button
              variant="light"
              color="red"
              onClick={() => setStep({ name: 'prove', action: 'off' })}
            >
              <Trans>Turn off</Trans>
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            <Trans>
              An app on your phone (such as an authenticator app) shows a new 6-digit code every 30
              seconds. With it on, signing in asks for that code after your password.
            </Trans>
          </Text>
          <Group>
            <Button onClick={() => void start()} loading={busy} data-testid="totp-start">
              <Trans>Set up the app</Trans>
            </Button>
          </Group>
        </Stack>
      )}
      {step.name === 'prove' ? null : <PageError error={error} />}
    </Section>
  );
}

/** Passkeys: add one through the browser, list them, remove one. */
function PasskeySection({
  status,
  reload,
}: {
  readonly status: TwoFactorStatus;
  readonly reload: () => Promise<void>;
}) {
  const { t, i18n } = useLingui();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const makePasskey = usePasskeyMaker();
  const serverText = (text: string) => translateServerText(i18n, text);
  const dateOf = (ms: number) => i18n.date(new Date(ms), { dateStyle: 'medium' });

  const add = async () => {
    if (busy) return;
    const trimmed = name.trim();
    if (trimmed === '') {
      setError(t`Please give the passkey a name.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const failed = await makePasskey(
        () => twoFactorApi.passkeyOptions(),
        (registration) => twoFactorApi.registerPasskey(registration),
        trimmed,
      );
      if (failed !== null) {
        setError(failed);
        return;
      }
      setName('');
      await reload();
    } finally {
      setBusy(false);
    }
  };

  const remove = async (id: string) => {
    setError(null);
    const answer = await twoFactorApi.removePasskey(id);
    if ('error' in answer) setError(serverText(callErrorText(answer.error)));
    await reload();
  };

  return (
    <Section title={t`Passkeys`}>
      <PasskeyAbout />
      {status.passkeys.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No passkeys yet.</Trans>
        </Text>
      ) : (
        <Table data-testid="passkeys">
          <Table.Caption>
            <Trans>Your passkeys</Trans>
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Name</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Added</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Last used</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Actions</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {status.passkeys.map((key) => (
              <Table.Tr key={key.id} data-passkey={key.name}>
                <Table.Th scope="row">
                  <bdi>{key.name}</bdi>
                </Table.Th>
                <Table.Td>{dateOf(key.created_at)}</Table.Td>
                <Table.Td>{key.last_used_at === null ? '–' : dateOf(key.last_used_at)}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => void remove(key.id)}
                    aria-label={t`Remove passkey ${key.name}`}
                  >
                    <Trans>Remove</Trans>
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {passkeysSupported() ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <Group align="flex-end">
            <TextInput
              label={t`Name of the new passkey`}
              description={t`So that you know it again, e.g. “Work laptop”.`}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={100}
              data-testid="passkey-name"
            />
            <Button type="submit" loading={busy} data-testid="passkey-add">
              <Trans>Add a passkey</Trans>
            </Button>
          </Group>
        </form>
      ) : (
        <Text size="sm" c="dimmed">
          <Trans>This browser does not offer passkeys.</Trans>
        </Text>
      )}
      <PageError error={error} />
    </Section>
  );
}
