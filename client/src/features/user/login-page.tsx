import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { signIn } from '../../session/session';

/** Sign-in (interim: the user area's issue work completes it). */
export function LoginPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { redirect }: { redirect?: string } = useSearch({ strict: false });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        void signIn(email, password).then(async (outcome) => {
          setBusy(false);
          if (outcome.name === 'signed-in') await navigate({ to: redirect ?? '/app/devices/list' });
          else if (outcome.name === 'norole') await navigate({ to: '/user/norole' });
          else setError(outcome.name === 'failed' ? outcome.message : t`Wrong credentials!`);
        });
      }}
    >
      <Stack>
        <Title order={1}>
          <Trans>Sign in</Trans>
        </Title>
        <TextInput
          label={t`Email`}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <PasswordInput
          label={t`Password`}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        {error === null ? null : (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={busy}>
          <Trans>Sign in</Trans>
        </Button>
      </Stack>
    </form>
  );
}
