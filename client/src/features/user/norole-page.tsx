import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, List, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { signOut } from '../../session/session';
import { sessionAtom } from '../../state/session';
import { usePageTitle } from './page-title';

/**
 * /user/norole (spec 000 §2, §4): the account exists but holds no role in any account yet, so the
 * sign-in was refused and nothing was kept in this browser. Says who can help and leads back to
 * sign-in. Someone still signed in whose stored role went missing (the /app guard sends them
 * here) signs out first: the sign-in screen would send them straight back to the app.
 */
export function NorolePage() {
  const { t } = useLingui();
  usePageTitle(t`No role yet`);
  const signedIn = useAtomValue(sessionAtom) !== null;
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        <Trans>Your account has no role yet</Trans>
      </Title>
      <Alert color="yellow" role="status">
        <Trans>
          You are registered, but no one has given you a role in an account yet. Without a role
          there is nothing you may see or do, so you cannot sign in for now.
        </Trans>
      </Alert>
      <Text fw={600}>
        <Trans>Who can help</Trans>
      </Text>
      <List spacing="xs">
        <List.Item>
          <Trans>
            An administrator of your company's account: usually the person who invited you.
          </Trans>
        </List.Item>
        <List.Item>
          <Trans>
            Or the supplier of your machines, if they manage the platform for your company.
          </Trans>
        </List.Item>
      </List>
      <Text>
        <Trans>
          Ask them to give you a role (for example technician or supervisor). Then sign in again.
        </Trans>
      </Text>
      {signedIn ? (
        <Button
          loading={signingOut}
          onClick={() => {
            setSigningOut(true);
            void signOut().then(() => navigate({ to: '/user/login', replace: true }));
          }}
        >
          <Trans>Sign out and go to sign-in</Trans>
        </Button>
      ) : (
        <Button component={Link} to="/user/login">
          <Trans>Back to sign-in</Trans>
        </Button>
      )}
    </Stack>
  );
}
