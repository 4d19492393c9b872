import './catalogues';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { appPaths } from '@plant/shared-schema';
import { callErrorText } from '../../i18n/server-texts';
import { sessionAtom } from '../../state/session';
import { AuthorizedApps } from './authorized-apps';
import { translateOAuthText } from './developer-texts';
import { OAuthClients } from './oauth-clients';
import { PersonalTokens } from './personal-tokens';
import { useDeveloperData } from './use-developer-data';

/**
 * /app/users/{userid}/accesstokens (spec 000 §2, §3, issue 18): the signed-in user's personal
 * access tokens, OAuth clients and the applications it authorized. Kept on the server only (not
 * synced), so the page needs the network and says so. Only the user manages its own tokens: the
 * API answers for the signed-in user, so another user's page says that instead of showing ours.
 */
export function AccessTokensPage() {
  const { t } = useLingui();
  const { userid = '' }: { userid?: string } = useParams({ strict: false });
  const selfId = useAtomValue(sessionAtom)?.user.id ?? '';
  const self = userid === selfId;
  const { state, reload, retry } = useDeveloperData(self);
  const changed = () => void reload();

  return (
    <Stack gap="xl" maw={960} data-testid="access-tokens" data-state={self ? state.name : 'other'}>
      <Title order={1}>
        <Trans>Access tokens</Trans>
      </Title>
      {!self ? (
        <Alert color="blue" title={t`Only the user can manage its own access tokens`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              <Trans>
                Access tokens and OAuth clients belong to the user who made them. Sign in as this
                user to see or change theirs.
              </Trans>
            </Text>
            <Anchor component={Link} to={appPaths.accessTokens(selfId)}>
              <Trans>Your own access tokens</Trans>
            </Anchor>
          </Stack>
        </Alert>
      ) : state.name === 'loading' ? (
        <Text c="dimmed" aria-busy>
          <Trans>Loading…</Trans>
        </Text>
      ) : state.name === 'unreachable' ? (
        <Unreachable retry={retry} />
      ) : state.name === 'failed' ? (
        <Failed message={callErrorText(state.error)} retry={retry} />
      ) : (
        <>
          {state.stale ? <Stale retry={retry} /> : null}
          <PersonalTokens
            tokens={state.data.tokens}
            roles={state.data.roles}
            scopes={state.data.scopes}
            changed={changed}
          />
          <OAuthClients clients={state.data.clients} roles={state.data.roles} changed={changed} />
          <AuthorizedApps apps={state.data.apps} changed={changed} />
        </>
      )}
    </Stack>
  );
}

function Unreachable({ retry }: { readonly retry: () => void }) {
  const { t } = useLingui();
  return (
    <Alert color="gray" title={t`You are offline`} data-testid="developer-offline">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          <Trans>
            Access tokens and OAuth clients are kept on the server: they show once it can be
            reached.
          </Trans>
        </Text>
        <Button size="xs" variant="light" onClick={retry}>
          <Trans>Try again</Trans>
        </Button>
      </Stack>
    </Alert>
  );
}

function Failed({ message, retry }: { readonly message: string; readonly retry: () => void }) {
  const { t, i18n } = useLingui();
  return (
    <Alert color="red" role="alert" title={t`Whoops! Something went wrong!`}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{translateOAuthText(i18n, message)}</Text>
        <Button size="xs" variant="light" onClick={retry}>
          <Trans>Try again</Trans>
        </Button>
      </Stack>
    </Alert>
  );
}

function Stale({ retry }: { readonly retry: () => void }) {
  return (
    <Alert color="gray" role="status" data-testid="developer-stale">
      <Group justify="space-between">
        <Text size="sm">
          <Trans>The lists could not be read again: they may be out of date.</Trans>
        </Text>
        <Button size="xs" variant="light" onClick={retry}>
          <Trans>Try again</Trans>
        </Button>
      </Group>
    </Alert>
  );
}
