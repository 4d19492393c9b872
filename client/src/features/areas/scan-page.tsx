import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { apiPaths, linkGatewayResultSchema } from '@plant/shared-schema';
import { callApi } from '../../session/api';
import { switchAccount } from '../../session/session';
import { sessionAtom } from '../../state/session';

/**
 * /scan?id= (spec 000 §2): links the scanned gateway. Signed in: the link call, then its path
 * (after switching to the gateway's account when the answer names one). Signed out: sign-in with
 * a redirect back here.
 */
export function ScanPage() {
  const { id }: { id?: string } = useSearch({ strict: false });
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (session === null) {
      void navigate({
        to: '/user/login',
        search: { redirect: location.pathname + location.search },
      });
      return;
    }
    if (id === undefined || id === '') {
      setError('missing');
      return;
    }
    let cancelled = false;
    void (async () => {
      const answer = await callApi('GET', apiPaths.linkGateway(id), linkGatewayResultSchema, {
        quiet: true,
      });
      if (cancelled) return;
      if ('error' in answer) {
        setError(answer.error.message);
        return;
      }
      const { path, account } = answer.data;
      const go = (to: string) => navigate({ to });
      if (account !== null) {
        await switchAccount({ accountId: account.id, accountName: account.name }, go, path);
      } else {
        await go(path);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [id, session, navigate]);

  return (
    <Center mih="60vh" p="md">
      {error === null ? (
        <Stack align="center" role="status">
          <Loader />
          <Text>
            <Trans>Linking the gateway...</Trans>
          </Text>
        </Stack>
      ) : (
        <Alert color="red" title={<Trans>The gateway could not be linked</Trans>} maw={480}>
          {error === 'missing' ? <Trans>The scanned code has no gateway id.</Trans> : error}
        </Alert>
      )}
    </Center>
  );
}
