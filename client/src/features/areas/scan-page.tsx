import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useAtomValue, useStore } from 'jotai';
import { apiPaths, linkGatewayResultSchema } from '@plant/shared-schema';
import { callApi } from '../../session/api';
import { signOut, switchAccount } from '../../session/session';
import { activeAccountIdAtom, sessionAtom } from '../../state/session';
import { usePageTitle } from '../user/page-title';
import { safeRedirect } from '../user/safe-redirect';
import { callErrorText, translateServerText } from '../../i18n/server-texts';

/** Where a scan stands; the failures each say what the user can do next. */
type ScanState =
  | { readonly name: 'linking' }
  /** The code carried no id (or one the server cannot take as an id or serial). */
  | { readonly name: 'missing' }
  /** No gateway with this id or serial in any account the user may view gateways in. */
  | { readonly name: 'not-found'; readonly id: string }
  /** No answer, or another failure: worth another try. */
  | { readonly name: 'failed'; readonly message: string };

/**
 * /scan?id= (spec 000 §2): a gateway's QR code. Signed in: GET linkGateway, then its path, after
 * switching to the gateway's account when the answer names one (the overlay 'Switching to account
 * …' shows it). Signed out: sign-in with a redirect back here. An ended session signs out and
 * does the same. A code without an id fails at once, signed in or not: signing in would not help.
 */
export function ScanPage() {
  const { t, i18n } = useLingui();
  usePageTitle(t`Scan`);
  const search: { id?: string } = useSearch({ strict: false });
  const id = search.id?.trim() ?? '';
  const signedIn = useAtomValue(sessionAtom) !== null;
  const store = useStore();
  const navigate = useNavigate();
  const [state, setState] = useState<ScanState>({ name: 'linking' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (id === '') {
      setState({ name: 'missing' });
      return;
    }
    const toSignIn = () =>
      navigate({
        to: '/user/login',
        search: { redirect: `/scan?${new URLSearchParams({ id }).toString()}` },
        replace: true,
      });
    if (!signedIn) {
      void toSignIn();
      return;
    }
    // The effect runs again only for another code, a sign-in or a retry: not when the account
    // switch below replaces the session, which would link twice.
    let cancelled = false;
    setState({ name: 'linking' });
    void (async () => {
      const answer = await callApi('GET', apiPaths.linkGateway(id), linkGatewayResultSchema, {
        quiet: true,
      });
      if (cancelled) return;
      if ('error' in answer) {
        const { status } = answer.error;
        // The session ended (revoked, expired): signed out, this effect runs again for sign-in.
        if (status === 401) await signOut();
        else if (status === 404) setState({ name: 'not-found', id });
        else if (status === 422) setState({ name: 'missing' });
        else setState({ name: 'failed', message: callErrorText(answer.error) });
        return;
      }
      // The server names a path of this app; anything else is not followed.
      const path = safeRedirect(answer.data.path, location.origin);
      const go = (to: string) => navigate({ href: to, replace: true });
      const { account } = answer.data;
      if (account === null || account.id === store.get(activeAccountIdAtom)) await go(path);
      else await switchAccount({ accountId: account.id, accountName: account.name }, go, path);
    })();
    return () => {
      cancelled = true;
    };
  }, [id, signedIn, navigate, store, attempt]);

  if (state.name === 'linking') {
    return (
      <Center component="main" mih="60vh" p="md">
        <Stack align="center" role="status">
          <Loader aria-hidden />
          <Text>
            <Trans>Linking the gateway...</Trans>
          </Text>
        </Stack>
      </Center>
    );
  }

  const code = state.name === 'not-found' ? state.id : '';
  return (
    <Center component="main" mih="60vh" p="md">
      <Stack gap="md" maw={480} w="100%">
        <Title order={1} size="h2">
          <Trans>The gateway could not be linked</Trans>
        </Title>
        <Alert color="red" role="alert" data-testid="scan-error">
          {state.name === 'missing' ? (
            <Trans>
              The scanned code carries no gateway id. Scan the QR code on the gateway again, or open
              the gateway from the gateway list.
            </Trans>
          ) : state.name === 'not-found' ? (
            <Trans>
              No gateway with the code {code} was found in your accounts. It may belong to an
              account you are not a member of, or your role there may not show gateways.
            </Trans>
          ) : (
            translateServerText(i18n, state.message)
          )}
        </Alert>
        <Group>
          {state.name === 'failed' ? (
            <Button onClick={() => setAttempt((n) => n + 1)}>
              <Trans>Try again</Trans>
            </Button>
          ) : null}
          <Button component={Link} to="/app/devices" variant="light">
            <Trans>Go to the start page</Trans>
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
