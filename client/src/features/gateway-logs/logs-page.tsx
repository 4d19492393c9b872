import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import {
  isolate,
  apiPaths,
  gatewayLogLinesSchema,
  type GatewayLogLine,
} from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { DataTable } from '../../components/data-table';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useLiveModel } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { textOf } from '../devices/asset-texts';

/** The page reads the agent's lines again this often while it is open. */
const REFRESH_MS = 2_000;

const LEVEL_COLORS = { info: 'blue', warn: 'yellow', error: 'red' } as const;

/**
 * /app/gateways/{id}/logs (gateway::view): the agent's recent log lines (info and above), newest
 * first, read again every 2 s while the page is open. They need the server: offline, the page
 * keeps what it showed and says so.
 */
export function LogsPage() {
  const { id = '' }: { id?: string } = useParams({ strict: false });
  const { t, i18n } = useLingui();
  const gateway = useLiveModel('gateway', id);
  const [lines, setLines] = useState<readonly GatewayLogLine[] | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [level, setLevel] = useState<'all' | 'warn' | 'error'>('all');

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      const answer = await syncWorker().http.call('GET', apiPaths.gatewayLogs(id), undefined, {
        quiet: true,
      });
      if (stopped) return;
      if ('error' in answer) {
        setError(callErrorText(answer.error));
      } else {
        const parsed = gatewayLogLinesSchema.element
          .array()
          .safeParse((answer.data as { data?: unknown } | null)?.data);
        if (parsed.success) {
          setLines(parsed.data);
          setError(null);
        }
      }
      timer = setTimeout(() => void read(), REFRESH_MS);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id]);

  // Isolated: the name is inside the heading's text.
  const name = gateway.name === 'found' ? isolate(textOf(gateway.model.attributes, 'name')) : '';
  const shown = [...(lines ?? [])]
    .filter(
      (l) => level === 'all' || l.level === 'error' || (level === 'warn' && l.level === 'warn'),
    )
    .reverse();

  return (
    <Stack gap="md" data-testid="gateway-logs">
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Logs of {name}</Trans>
        </Title>
        <SegmentedControl
          size="xs"
          aria-label={t`Levels shown`}
          value={level}
          onChange={(v) => setLevel(v === 'warn' || v === 'error' ? v : 'all')}
          data={[
            { value: 'all', label: t`All` },
            { value: 'warn', label: t`Warnings and errors` },
            { value: 'error', label: t`Errors` },
          ]}
        />
      </Group>
      {error === null ? null : (
        <Alert color="yellow" data-testid="gateway-logs-error">
          {translateServerText(i18n, error)}
        </Alert>
      )}
      <DataTable
        rows={lines === undefined ? undefined : shown}
        columns={[
          {
            id: 'time',
            header: t`Time`,
            cellProps: { style: { whiteSpace: 'nowrap' } },
            cell: (line) =>
              i18n.date(new Date(line.time), { dateStyle: 'short', timeStyle: 'medium' }),
          },
          {
            id: 'level',
            header: t`Level`,
            cell: (line) => (
              <Badge size="sm" variant="light" color={LEVEL_COLORS[line.level]}>
                {line.level}
              </Badge>
            ),
          },
          {
            id: 'message',
            header: t`Message`,
            cell: (line) => (
              <>
                <Text size="sm">{line.msg}</Text>
                {line.fields === undefined ? null : (
                  <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {JSON.stringify(line.fields)}
                  </Text>
                )}
              </>
            ),
          },
        ]}
        rowKey={(line, i) => `${line.time}-${i}`}
        rowData={(line) => ({ 'data-testid': 'gateway-log-line', 'data-level': line.level })}
        name={{ label: t`Log lines` }}
        look={{ striped: true }}
        testId="gateway-log-lines"
        empty={
          <EmptyState title={<Trans>No log lines</Trans>}>
            <Text c="dimmed" ta="center">
              <Trans>The agent's lines appear here once it is connected.</Trans>
            </Text>
          </EmptyState>
        }
      />
    </Stack>
  );
}
