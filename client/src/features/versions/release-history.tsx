import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { z } from 'zod';
import {
  deferred,
  apiPaths,
  releaseHistoryEntrySchema,
  type ReleaseHistoryEntry,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { DataTable } from '../../components/data-table';
import { absoluteTime } from '../../components/time-ago';
import { translateServerText } from '../../i18n/server-texts';
import { callApi } from '../../session/api';
import { syncStatusAtom } from '../../sync/status';
import { GatewayName, UserName } from './release-parts';

const historySchema = /* @__PURE__ */ deferred(() => z.array(releaseHistoryEntrySchema));

type Loaded =
  | { readonly name: 'loading' }
  | { readonly name: 'unreachable' }
  | { readonly name: 'loaded'; readonly entries: readonly ReleaseHistoryEntry[] };

/**
 * A version's history as the server keeps it (issue 35 item 5): the version made, changed and
 * moved, its rollouts started and moved, each gateway's step, with who did it and when, newest
 * first. Read from the server (a rollout of hundreds of gateways is thousands of steps, kept off
 * the devices); offline it says so, and it reads again when the version or the connection changes.
 */
export function ReleaseHistory(props: {
  readonly release: LocalModel<'release'>;
  /** Changes when something of the version changed (a rollout's counts, its state). */
  readonly refresh: string;
}) {
  const { t, i18n } = useLingui();
  const connected = useAtomValue(syncStatusAtom).connection.name === 'connected';
  const [loaded, setLoaded] = useState<Loaded>({ name: 'loading' });
  const [asked, setAsked] = useState(0);
  const { id } = props.release;
  useEffect(() => {
    let live = true;
    void callApi('GET', apiPaths.releaseHistory(id), historySchema, { quiet: true }).then(
      (answer) => {
        if (!live) return;
        setLoaded(
          'error' in answer ? { name: 'unreachable' } : { name: 'loaded', entries: answer.data },
        );
      },
    );
    return () => {
      live = false;
    };
  }, [id, props.refresh, connected, asked]);

  const what = (e: ReleaseHistoryEntry) => {
    const message = e.detail === null ? '' : translateServerText(i18n, e.detail);
    if (e.subject === 'release') {
      if (e.event === 'created') return t`Version made`;
      if (e.event === 'changed') return t`Changed: ${fieldsOf(e.detail)}`;
      return t`Version ${stateWord(e.from_state)} → ${stateWord(e.to_state)}`;
    }
    if (e.subject === 'deployment') {
      if (e.event === 'created') return t`Rollout started to ${e.detail ?? '?'} gateways`;
      if (e.event === 'changed') return t`Rollout changed`;
      return e.detail === null
        ? t`Rollout ${stateWord(e.from_state)} → ${stateWord(e.to_state)}`
        : t`Rollout ${stateWord(e.from_state)} → ${stateWord(e.to_state)}: ${message}`;
    }
    return e.detail === null
      ? t`${stateWord(e.from_state)} → ${stateWord(e.to_state)}`
      : t`${stateWord(e.from_state)} → ${stateWord(e.to_state)}: ${message}`;
  };
  const stateWord = (state: string | null): string => {
    const words: Record<string, string> = {
      draft: t`draft`,
      released: t`released`,
      active: t`active`,
      running: t`running`,
      paused: t`paused`,
      halted: t`halted`,
      cancelled: t`cancelled`,
      done: t`done`,
      pending: t`pending`,
      downloading: t`downloading`,
      installing: t`installing`,
      succeeded: t`succeeded`,
      failed: t`failed`,
      rolled_back: t`rolled back`,
    };
    return state === null ? '–' : (words[state] ?? state);
  };

  return (
    <Paper withBorder p="md" radius="sm" data-testid="release-history">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            <Trans>History</Trans>
          </Title>
          <Button size="xs" variant="subtle" onClick={() => setAsked((n) => n + 1)}>
            <Trans>Refresh</Trans>
          </Button>
        </Group>
        {loaded.name === 'loading' ? (
          <Skeleton height={60} />
        ) : loaded.name === 'unreachable' ? (
          <Text size="sm" c="dimmed">
            <Trans>The history is read from the server: it shows once online.</Trans>
          </Text>
        ) : (
          <DataTable
            rows={loaded.entries}
            name={{ label: t`History` }}
            testId="release-history-table"
            rowKey={(e) => e.id}
            rowData={(e) => ({ 'data-testid': 'release-history-entry', 'data-subject': e.subject })}
            loading={<Skeleton height={36} />}
            empty={
              <Text size="sm" c="dimmed">
                <Trans>Nothing kept yet.</Trans>
              </Text>
            }
            columns={[
              { id: 'at', header: <Trans>When</Trans>, cell: (e) => absoluteTime(i18n, e.at) },
              {
                id: 'who',
                header: <Trans>Who</Trans>,
                cell: (e) => (e.by === null ? <Trans>The server</Trans> : <UserName id={e.by} />),
              },
              {
                id: 'subject',
                header: <Trans>Of</Trans>,
                cell: (e) =>
                  e.subject === 'gateway' ? (
                    <GatewayName id={e.subject_id} />
                  ) : e.subject === 'deployment' ? (
                    <Trans>Rollout</Trans>
                  ) : (
                    <Trans>Version</Trans>
                  ),
              },
              { id: 'what', header: <Trans>What</Trans>, cell: what },
            ]}
          />
        )}
      </Stack>
    </Paper>
  );
}

/** The fields a change named (JSON from the server), as one line. */
function fieldsOf(detail: string | null): string {
  try {
    const fields = JSON.parse(detail ?? '[]') as unknown;
    return Array.isArray(fields) ? fields.map(String).join(', ') : '';
  } catch {
    return '';
  }
}
