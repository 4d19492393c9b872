import './catalogues';
import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import {
  authorizeQuerySchema,
  type AuthorizePreview,
  type AuthorizeQuery,
} from '@plant/shared-schema';
import type { WorkerError } from '@plant/sync-worker/api';
import { callErrorText } from '../../i18n/server-texts';
import { developerApi } from './developer-api';
import { scopeDescription, translateOAuthText } from './developer-texts';

type Consent =
  | { readonly name: 'loading' }
  | { readonly name: 'refused'; readonly error: WorkerError }
  | { readonly name: 'asking'; readonly query: AuthorizeQuery; readonly preview: AuthorizePreview }
  | {
      readonly name: 'answering';
      readonly query: AuthorizeQuery;
      readonly preview: AuthorizePreview;
    }
  | { readonly name: 'leaving' };

const QUERY_KEYS = Object.keys(authorizeQuerySchema.shape) as (keyof AuthorizeQuery)[];

/**
 * The request's own query, read from the address as the application wrote it (the router would
 * read values such as a numeric `state` as JSON): only the fields of an authorization request.
 */
function requestQuery(): { readonly text: string; readonly query: AuthorizeQuery | null } {
  const all = new URLSearchParams(window.location.search);
  const kept = new URLSearchParams();
  const fields: Record<string, string> = {};
  for (const key of QUERY_KEYS) {
    const value = all.get(key);
    if (value === null) continue;
    kept.set(key, value);
    fields[key] = value;
  }
  const parsed = authorizeQuerySchema.safeParse(fields);
  return { text: kept.toString(), query: parsed.success ? parsed.data : null };
}

/**
 * /app/oauth/authorize (issue 18 item 3): a third-party application asks for access. The server
 * checks the request (GET oauth/authorize with the same query) and says what the application is
 * and wants; a request it refuses is shown here and never sent back to the application (its
 * redirect is not trusted then). Authorize and Cancel post the answer; the server says where the
 * browser goes next (the application's redirect with a code, or with access_denied).
 */
export function ConsentPage() {
  const { t, i18n } = useLingui();
  const [consent, setConsent] = useState<Consent>({ name: 'loading' });
  const [failure, setFailure] = useState<WorkerError | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    const { text, query } = requestQuery();
    void developerApi.authorizePreview(text).then((answer) => {
      if (!live) return;
      if ('error' in answer) setConsent({ name: 'refused', error: answer.error });
      else if (query === null) {
        setConsent({ name: 'refused', error: { kind: 'invalid', message: '' } });
      } else setConsent({ name: 'asking', query, preview: answer.data });
    });
    return () => {
      live = false;
    };
  }, []);

  // Screen readers start at the question once it is there.
  useEffect(() => {
    if (consent.name === 'asking' || consent.name === 'refused') heading.current?.focus();
  }, [consent.name]);

  const answer = async (approve: boolean) => {
    if (consent.name !== 'asking') return;
    const { query, preview } = consent;
    setFailure(null);
    setConsent({ name: 'answering', query, preview });
    const answered = await developerApi.authorizeDecision({ ...query, approve });
    if ('error' in answered) {
      setFailure(answered.error);
      setConsent({ name: 'asking', query, preview });
      return;
    }
    setConsent({ name: 'leaving' });
    window.location.assign(answered.data.redirect);
  };

  if (consent.name === 'loading') {
    return (
      <Text c="dimmed" aria-busy data-testid="consent" data-state="loading">
        <Trans>Loading…</Trans>
      </Text>
    );
  }
  if (consent.name === 'leaving') {
    return (
      <Text c="dimmed" aria-busy data-testid="consent" data-state="leaving">
        <Trans>Taking you back to the application…</Trans>
      </Text>
    );
  }
  if (consent.name === 'refused') {
    const { error } = consent;
    return (
      <Stack maw={560} gap="md" data-testid="consent" data-state="refused">
        <Title order={1} ref={heading} tabIndex={-1}>
          <Trans>This authorization request cannot be answered</Trans>
        </Title>
        <Alert color="red" role="alert" title={t`Whoops! Something went wrong!`}>
          {error.message === '' ? (
            <Trans>The request is not a valid authorization request.</Trans>
          ) : (
            translateOAuthText(i18n, callErrorText(error))
          )}
        </Alert>
        <Text size="sm" c="dimmed">
          <Trans>Nothing was shared. Go back to the application and try again.</Trans>
        </Text>
      </Stack>
    );
  }

  const { preview } = consent;
  const busy = consent.name === 'answering';
  const clientName = preview.client.name;
  const roleName = preview.role.name;
  const redirectUri = preview.redirect_uri;
  return (
    <Paper withBorder p="xl" radius="md" maw={560} data-testid="consent" data-state="asking">
      <Stack gap="md">
        <Title order={1} size="h2" ref={heading} tabIndex={-1}>
          <Trans>Authorization request</Trans>
        </Title>
        <Text>
          <Trans>
            <bdi>
              <strong>{clientName}</strong>
            </bdi>{' '}
            is requesting permission to access your account.
          </Trans>
        </Text>
        {preview.scopes.length === 0 ? (
          <Text size="sm">
            <Trans>It asks for no scopes: it can only call routes that need none.</Trans>
          </Text>
        ) : (
          <Stack gap={4}>
            <Text size="sm" fw={600} id="consent-scopes">
              <Trans>This application will be able to:</Trans>
            </Text>
            <List size="sm" aria-labelledby="consent-scopes" data-testid="consent-scopes">
              {preview.scopes.map((scope) => (
                <List.Item key={scope.id}>{scopeDescription(i18n, scope)}</List.Item>
              ))}
            </List>
          </Stack>
        )}
        <Text size="sm">
          <Trans>
            It acts with your role <bdi>{roleName}</bdi>: it sees and changes no more than this role
            lets you.
          </Trans>
        </Text>
        <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
          <Trans>
            You will be sent back to <bdi>{redirectUri}</bdi>.
          </Trans>
        </Text>
        {failure === null ? null : (
          <Alert color="red" role="alert" title={t`Whoops! Something went wrong!`}>
            {translateOAuthText(i18n, callErrorText(failure))}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" disabled={busy} onClick={() => void answer(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button loading={busy} onClick={() => void answer(true)}>
            <Trans>Authorize</Trans>
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
