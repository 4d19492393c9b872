import './catalogues';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Accordion,
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { PasswordInput } from '../../components/password-input';
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { API_BASE, apiPaths, appPaths, type OpenApiDocument } from '@plant/shared-schema';
import type { WorkerError } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { sessionAtom } from '../../state/session';
import { tagLabel } from './api-texts';
import { OperationControl, OperationDetails } from './operation-item';
import { referenceApi, type TryToken } from './reference-api';

type DocState =
  | { readonly name: 'loading' }
  | { readonly name: 'failed'; readonly error: WorkerError }
  | { readonly name: 'loaded'; readonly doc: OpenApiDocument };

interface Entry {
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly operation: OpenApiDocument['paths'][string][string];
}

/** The document's operations by tag, in the document's order, filtered by the words given. */
function groups(doc: OpenApiDocument, filter: string): { tag: string; entries: Entry[] }[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const byTag = new Map<string, Entry[]>(doc.tags.map((t) => [t.name, []]));
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const access = operation['x-access'];
      const text = [
        method,
        path,
        operation.summary,
        ...operation.tags,
        access.kind,
        ...(access.kind === 'scopes' ? access.scopes : []),
      ]
        .join(' ')
        .toLowerCase();
      if (!words.every((w) => text.includes(w))) continue;
      for (const tag of operation.tags) {
        const list = byTag.get(tag) ?? [];
        list.push({ key: `${method} ${path}`, method, path, operation });
        byTag.set(tag, list);
      }
    }
  }
  return [...byTag]
    .filter(([, entries]) => entries.length > 0)
    .map(([tag, entries]) => ({ tag, entries }));
}

/**
 * /app/api (issue 18 item 5): the API reference, read from GET /api/v1/openapi.json (made from
 * the route catalog and the shared schemas), grouped by area: each route with its method, path,
 * summary and the access it needs; opened, its parameters, body and answers; a GET can be tried
 * with the user's own session or a pasted token.
 */
export function ApiReferencePage() {
  const { t, i18n } = useLingui();
  const userId = useAtomValue(sessionAtom)?.user.id;
  const [state, setState] = useState<DocState>({ name: 'loading' });
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string[]>([]);
  const [tokenKind, setTokenKind] = useState<'session' | 'pasted'>('session');
  const [pasted, setPasted] = useState('');

  const load = useCallback(async () => {
    setState({ name: 'loading' });
    const answer = await referenceApi.document();
    setState(
      'error' in answer
        ? { name: 'failed', error: answer.error }
        : { name: 'loaded', doc: answer.data },
    );
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const token: TryToken | undefined =
    tokenKind === 'session'
      ? { kind: 'session' }
      : pasted.trim() === ''
        ? undefined
        : { kind: 'pasted', token: pasted.trim() };
  const shown = useMemo(
    () => (state.name === 'loaded' ? groups(state.doc, filter) : []),
    [state, filter],
  );

  return (
    <Stack gap="lg" maw={1100} data-testid="api-reference" data-state={state.name}>
      <Title order={1}>
        <Trans>API reference</Trans>
      </Title>
      <Text>
        <Trans>
          Every call of the API under <Code>{API_BASE}</Code>, with what a token needs to make it.
          Personal access tokens and applications call the routes their scopes open (a write scope
          includes its read); what they read or change is what their role and their user may.
        </Trans>
      </Text>
      <Group gap="lg">
        <Anchor component={Link} to={appPaths.apiMap()}>
          <Trans>Map of models and their relations</Trans>
        </Anchor>
        {userId !== undefined && (
          <Anchor component={Link} to={appPaths.accessTokens(userId)}>
            <Trans>Your access tokens</Trans>
          </Anchor>
        )}
        <Anchor href={`${API_BASE}/${apiPaths.openapi()}`} target="_blank" rel="noopener">
          <Trans>OpenAPI 3.1 document</Trans>
        </Anchor>
      </Group>

      <Stack component="section" gap="xs" aria-labelledby="try-token-title">
        <Title order={2} id="try-token-title" size="h4">
          <Trans>Token for Try it</Trans>
        </Title>
        <Radio.Group
          value={tokenKind}
          onChange={(v) => setTokenKind(v === 'pasted' ? 'pasted' : 'session')}
          label={t`Send the calls with`}
        >
          <Group gap="lg" mt={4}>
            <Radio value="session" label={t`Your own sign-in`} />
            <Radio value="pasted" label={t`A personal access token`} />
          </Group>
        </Radio.Group>
        {tokenKind === 'pasted' && (
          <PasswordInput
            label={t`Personal access token`}
            description={t`Kept on this page only: it is never stored.`}
            value={pasted}
            onChange={(e) => setPasted(e.currentTarget.value)}
            autoComplete="off"
            maw={560}
          />
        )}
      </Stack>

      {state.name === 'loading' ? (
        <Text c="dimmed" aria-busy>
          <Trans>Loading…</Trans>
        </Text>
      ) : state.name === 'failed' ? (
        <Alert
          color={state.error.kind === 'network' ? 'gray' : 'red'}
          role="alert"
          title={
            state.error.kind === 'network' ? t`You are offline` : t`Whoops! Something went wrong!`
          }
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {state.error.kind === 'network'
                ? t`The reference comes from the server: it shows once the server can be reached.`
                : translateServerText(i18n, callErrorText(state.error))}
            </Text>
            <Button size="xs" variant="light" onClick={() => void load()}>
              <Trans>Try again</Trans>
            </Button>
          </Stack>
        </Alert>
      ) : (
        <>
          <TextInput
            label={t`Filter routes`}
            description={t`By path, method, summary, area or scope`}
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            maw={420}
            type="search"
          />
          {shown.length === 0 && (
            <Text c="dimmed">
              <Trans>No route matches.</Trans>
            </Text>
          )}
          {shown.map(({ tag, entries }) => (
            <Stack key={tag} component="section" gap="xs" aria-label={tagLabel(i18n, tag)}>
              <Title order={2} size="h3">
                {tagLabel(i18n, tag)}
              </Title>
              {/* Opened at once, not animated: a control pressed while its item still grew moved under
                  the pointer between press and release, and Send GET was pressed but never sent. */}
              <Accordion
                multiple
                value={open}
                onChange={setOpen}
                variant="separated"
                transitionDuration={0}
              >
                {entries.map((entry) => (
                  <Accordion.Item
                    key={entry.key}
                    value={entry.key}
                    data-testid="operation"
                    data-key={entry.key}
                  >
                    <Accordion.Control>
                      <OperationControl
                        method={entry.method}
                        path={entry.path}
                        operation={entry.operation}
                      />
                    </Accordion.Control>
                    <Accordion.Panel>
                      {open.includes(entry.key) && (
                        <OperationDetails
                          method={entry.method}
                          path={entry.path}
                          operation={entry.operation}
                          token={token}
                        />
                      )}
                    </Accordion.Panel>
                  </Accordion.Item>
                ))}
              </Accordion>
            </Stack>
          ))}
        </>
      )}
    </Stack>
  );
}
