import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Text, Title } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { z } from 'zod';
import { deferred, alarmEventSchema, apiPaths, type AlarmEvent } from '@plant/shared-schema';
import { callApi } from '../../session/api';
import { DataTable } from '../../components/data-table';
import { syncStatusAtom } from '../../sync/status';
import { AlarmValue, UserName } from './alarm-parts';
import { inspectColumn } from '../inspection/inspect-button';
import { TimeAgo } from '../../components/time-ago';
import type { LocalModel } from '@plant/sync-worker/api';

const pageSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    events: z.array(alarmEventSchema),
    before: z.number().nullable(),
  }),
);

/** How many events a page asks for. */
const PAGE = 50;

type Loaded =
  | { readonly name: 'loading' }
  | { readonly name: 'unreachable' }
  | {
      readonly name: 'loaded';
      readonly events: readonly AlarmEvent[];
      readonly before: number | null;
    };

/**
 * An alarm's history as the server keeps it (issue 17 item 2): every raise, clear and
 * acknowledgement, newest first, a page at a time. Read from the server (not synced: a storm of
 * raises would fill every browser's store); offline it says so and reads again once the
 * connection is back. `refresh` changes when the alarm's status does, so a new event shows.
 */
export function AlarmEvents(props: { readonly alarm: LocalModel<'alarm'>; readonly now: number }) {
  const { t } = useLingui();
  const { alarm, now } = props;
  const connected = useAtomValue(syncStatusAtom).connection.name === 'connected';
  const status = alarm.attributes.status;
  const refresh = `${status?.state}:${status?.raised_at}:${status?.cleared_at}:${status?.acknowledged_at}`;
  const [loaded, setLoaded] = useState<Loaded>({ name: 'loading' });
  const [more, setMore] = useState(false);

  useEffect(() => {
    let live = true;
    void callApi('GET', `${apiPaths.alarmHistory(alarm.id)}?limit=${PAGE}`, pageSchema, {
      quiet: true,
    }).then((answer) => {
      if (!live) return;
      setLoaded(
        'error' in answer
          ? { name: 'unreachable' }
          : { name: 'loaded', events: answer.data.events, before: answer.data.before },
      );
    });
    return () => {
      live = false;
    };
  }, [alarm.id, refresh, connected]);

  const older = async (before: number) => {
    setMore(true);
    const answer = await callApi(
      'GET',
      `${apiPaths.alarmHistory(alarm.id)}?limit=${PAGE}&before=${before}`,
      pageSchema,
      { quiet: true },
    );
    setMore(false);
    if ('error' in answer) return;
    setLoaded((was) =>
      was.name === 'loaded'
        ? {
            name: 'loaded',
            events: [...was.events, ...answer.data.events],
            before: answer.data.before,
          }
        : was,
    );
  };

  const kindText = (kind: AlarmEvent['kind']) =>
    kind === 'raised' ? t`Raised` : kind === 'cleared' ? t`Cleared` : t`Acknowledged`;

  return (
    <Stack gap="xs" data-testid="alarm-events" data-state={loaded.name}>
      <Title order={2} size="h4">
        <Trans>Raises and clears</Trans>
      </Title>
      <DataTable
        rows={loaded.name === 'loaded' ? loaded.events : undefined}
        columns={[
          {
            id: 'what',
            header: t`What`,
            cell: (e) =>
              `${kindText(e.kind)}${e.kind === 'raised' && e.count > 1 ? ` (×${e.count})` : ''}`,
          },
          { id: 'when', header: t`When`, cell: (e) => <TimeAgo at={e.ts} now={now} /> },
          {
            id: 'value',
            header: t`Value`,
            cell: (e) => (
              <AlarmValue
                value={e.value}
                streamId={alarm.attributes.datastream_id}
                unit={alarm.attributes.unit}
              />
            ),
          },
          {
            id: 'by',
            header: t`By`,
            cell: (e) => (e.by_user === null ? '–' : <UserName id={e.by_user} />),
          },
          { id: 'note', header: t`Note`, cell: (e) => e.note ?? '–' },
          inspectColumn<AlarmEvent>((e) => ({
            assetId: alarm.attributes.asset_id,
            at: e.ts,
            alarmId: alarm.id,
          })),
        ]}
        rowKey={(e) => e.id}
        rowData={(e) => ({ 'data-testid': 'alarm-event', 'data-kind': e.kind })}
        name={{ label: t`Raises and clears` }}
        loading={
          <Text size="sm" c="dimmed" aria-busy>
            <Trans>Loading…</Trans>
          </Text>
        }
        error={
          loaded.name === 'unreachable' ? (
            <Text size="sm" c="dimmed">
              <Trans>
                The history is kept on the server: it shows once the server can be reached.
              </Trans>
            </Text>
          ) : null
        }
        empty={
          <Text size="sm" c="dimmed">
            <Trans>Nothing has happened yet.</Trans>
          </Text>
        }
        more={
          loaded.name !== 'loaded' || loaded.before === null
            ? null
            : {
                label: <Trans>Older events</Trans>,
                loading: more,
                onMore: () => void older(loaded.before ?? 0),
              }
        }
      />
    </Stack>
  );
}
