import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Stack, Table, Text, Title } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { z } from 'zod';
import { alarmEventSchema, apiPaths, type AlarmEvent } from '@plant/shared-schema';
import { callApi } from '../../session/api';
import { syncStatusAtom } from '../../sync/status';
import { AlarmValue, TimeAgo, UserName } from './alarm-parts';
import type { LocalModel } from '@plant/sync-worker/api';

const pageSchema = z.object({
  events: z.array(alarmEventSchema),
  before: z.number().nullable(),
});

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
      {loaded.name === 'loading' ? (
        <Text size="sm" c="dimmed" aria-busy>
          <Trans>Loading…</Trans>
        </Text>
      ) : loaded.name === 'unreachable' ? (
        <Text size="sm" c="dimmed">
          <Trans>The history is kept on the server: it shows once the server can be reached.</Trans>
        </Text>
      ) : loaded.events.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>Nothing has happened yet.</Trans>
        </Text>
      ) : (
        <>
          <Table aria-label={t`Raises and clears`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">
                  <Trans>What</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>When</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>Value</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>By</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>Note</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {loaded.events.map((e) => (
                <Table.Tr key={e.id} data-testid="alarm-event" data-kind={e.kind}>
                  <Table.Td>
                    {kindText(e.kind)}
                    {e.kind === 'raised' && e.count > 1 ? ` (×${e.count})` : ''}
                  </Table.Td>
                  <Table.Td>
                    <TimeAgo at={e.ts} now={now} />
                  </Table.Td>
                  <Table.Td>
                    <AlarmValue
                      value={e.value}
                      streamId={alarm.attributes.datastream_id}
                      unit={alarm.attributes.unit}
                    />
                  </Table.Td>
                  <Table.Td>{e.by_user === null ? '–' : <UserName id={e.by_user} />}</Table.Td>
                  <Table.Td>{e.note ?? '–'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {loaded.before === null ? null : (
            <Button
              variant="subtle"
              size="xs"
              loading={more}
              onClick={() => void older(loaded.before ?? 0)}
            >
              <Trans>Older events</Trans>
            </Button>
          )}
        </>
      )}
    </Stack>
  );
}
