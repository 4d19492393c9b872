import './catalogues';
import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Alert, Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import {
  apiPaths,
  WEBHOOK_KIND,
  webhookCovers,
  webhookDeliveriesSchema,
  type WebhookDelivery,
  type WebhookDeliveryState,
  type WebhookEventType,
  type WebhookSettings,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { translateServerText } from '../../i18n/server-texts';
import { callApi } from '../../session/api';
import { useLiveQuery } from '../../sync/hooks';
import { devicePaths } from '../devices/paths';

/** The delivery log is read again this often while the page is open. */
const REFRESH_MS = 5_000;

const STATE_COLORS: Record<WebhookDeliveryState, string> = {
  waiting: 'yellow',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
};

/** The words of each kind of post (a table: a new kind without words does not compile). */
const EVENT_WORDS: Record<WebhookEventType, MessageDescriptor> = {
  'alarm.raised': msg`Alarm raised`,
  'alarm.cleared': msg`Alarm cleared`,
  'alarm.acknowledged': msg`Alarm acknowledged`,
  values: msg`Values`,
};

const STATE_WORDS: Record<WebhookDeliveryState, MessageDescriptor> = {
  waiting: msg`Waiting`,
  sending: msg`Sending`,
  sent: msg`Sent`,
  failed: msg`Failed`,
};

/**
 * An integration's page (issue 37 item 6): /app/integration/{slug}, and the same page on an asset
 * at /app/devices/{id}/i/{slug}, where it speaks of that asset only. The integration comes from
 * the local store (synced, offline too); for a webhook, its address, what it sends and for which
 * assets, and its delivery log, read from the server while the page is open (it needs the network:
 * offline, the page keeps what it showed and says so).
 */
export function IntegrationPage() {
  const { integrationslug = '', id }: { integrationslug?: string; id?: string } = useParams({
    strict: false,
  });
  const integrations = useLiveQuery({ type: 'integration', limit: 1000 });
  if (integrations === undefined)
    return (
      <Text c="dimmed">
        <Trans>Loading…</Trans>
      </Text>
    );
  const integration = integrations.items.find((i) => i.attributes.slug === integrationslug);
  if (integration === undefined)
    return (
      <EmptyState title={<Trans>No integration has this address.</Trans>}>
        <Text c="dimmed" ta="center">
          <Trans>
            An administrator sets each integration's address in the account's integrations.
          </Trans>
        </Text>
      </EmptyState>
    );
  return <Integration integration={integration} assetId={id} />;
}

function Integration(props: {
  readonly integration: LocalModel<'integration'>;
  /** The asset whose page this is, if any. */
  readonly assetId: string | undefined;
}) {
  const { integration, assetId } = props;
  const a = integration.attributes;
  const webhook = a.kind === WEBHOOK_KIND ? a.webhook : null;
  return (
    <Stack gap="lg" data-testid="integration-page" data-id={integration.id}>
      <Group justify="space-between">
        <Title order={1}>
          <Name testId="integration-name">{a.name}</Name>
        </Title>
        <Group gap="xs">
          <Badge variant="light">{a.kind === '' ? '–' : a.kind}</Badge>
          <Badge color={a.enabled ? 'green' : 'gray'} data-testid="integration-enabled">
            {a.enabled ? <Trans>On</Trans> : <Trans>Off</Trans>}
          </Badge>
        </Group>
      </Group>
      {a.kind === WEBHOOK_KIND && webhook === null ? (
        <EmptyState title={<Trans>This webhook is not set up yet.</Trans>}>
          <Text c="dimmed" ta="center">
            <Trans>An administrator gives it its address in the account's integrations.</Trans>
          </Text>
        </EmptyState>
      ) : webhook === null ? (
        <EmptyState title={<Trans>This integration has no page of its own yet.</Trans>}>
          <Text c="dimmed" ta="center">
            <Trans>Its settings are in the account's integrations.</Trans>
          </Text>
        </EmptyState>
      ) : (
        <>
          <WebhookFacts webhook={webhook} assetId={assetId} />
          <DeliveryLog integrationId={integration.id} assetId={assetId} />
        </>
      )}
    </Stack>
  );
}

function WebhookFacts(props: {
  readonly webhook: WebhookSettings;
  readonly assetId: string | undefined;
}) {
  const { webhook, assetId } = props;
  const assets = useLiveQuery({ type: 'asset', limit: 1000 });
  const names = new Map((assets?.items ?? []).map((m) => [m.id, m.attributes.name]));
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          <Trans>Posts to</Trans>
        </Text>
        <Text
          ff="monospace"
          dir="ltr"
          style={{ overflowWrap: 'anywhere' }}
          data-testid="webhook-url"
        >
          {webhook.url}
        </Text>
        <Text data-testid="webhook-sends">
          {webhook.send_values ? (
            <Trans>Alarm events and stored values, signed with the integration's secret.</Trans>
          ) : (
            <Trans>Alarm events, signed with the integration's secret.</Trans>
          )}
        </Text>
        {assetId !== undefined ? (
          <Text data-testid="webhook-this-asset">
            {webhookCovers(webhook, assetId) ? (
              <Trans>This asset's events are sent.</Trans>
            ) : (
              <Trans>This asset's events are not sent.</Trans>
            )}
          </Text>
        ) : webhook.all_assets ? (
          <Text data-testid="webhook-assets">
            <Trans>For every asset of the account.</Trans>
          </Text>
        ) : (
          <Stack gap={4} data-testid="webhook-assets">
            <Text>
              <Trans>For these assets:</Trans>
            </Text>
            {webhook.asset_ids.length === 0 ? (
              <Text c="dimmed">
                <Trans>None yet.</Trans>
              </Text>
            ) : (
              webhook.asset_ids.map((id) => (
                <Anchor key={id} component={Link} to={devicePaths.details(id)}>
                  <Name>{names.get(id) ?? id}</Name>
                </Anchor>
              ))
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** The deliveries, newest first, read again every REFRESH_MS while the page is open. */
function DeliveryLog(props: {
  readonly integrationId: string;
  readonly assetId: string | undefined;
}) {
  const { integrationId, assetId } = props;
  const { t, i18n } = useLingui();
  const [rows, setRows] = useState<readonly WebhookDelivery[] | undefined>();
  /** Why the log could not be read: no network, or the server's words. */
  const [problem, setProblem] = useState<
    { readonly kind: 'offline' } | { readonly kind: 'refused'; readonly text: string } | null
  >(null);
  const assets = useLiveQuery(assetId === undefined ? { type: 'asset', limit: 1000 } : null);
  const names = new Map((assets?.items ?? []).map((m) => [m.id, m.attributes.name]));

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      const answer = await callApi(
        'GET',
        apiPaths.integrationDeliveries(integrationId, assetId),
        webhookDeliveriesSchema,
        { quiet: true },
      );
      if (stopped) return;
      if ('error' in answer)
        setProblem(
          answer.error.kind === 'network'
            ? { kind: 'offline' }
            : { kind: 'refused', text: answer.error.message },
        );
      else {
        setRows(answer.data);
        setProblem(null);
      }
      timer = setTimeout(() => void read(), REFRESH_MS);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [integrationId, assetId]);

  const time = (ms: number) => i18n.date(new Date(ms), { dateStyle: 'short', timeStyle: 'medium' });
  const lastTry = (d: WebhookDelivery) => {
    const last = d.attempts.at(-1);
    if (last === undefined) return '–';
    return last.status === null
      ? translateServerText(i18n, last.error ?? '')
      : `HTTP ${last.status}`;
  };

  return (
    <Stack gap="xs">
      <Title order={2}>
        <Trans>Deliveries</Trans>
      </Title>
      {problem === null ? null : (
        <Alert color="yellow" data-testid="delivery-log-problem">
          {problem.kind === 'offline' ? (
            <Trans>
              The delivery log needs the network: it is read from the server. What was read last is
              shown.
            </Trans>
          ) : (
            translateServerText(i18n, problem.text)
          )}
        </Alert>
      )}
      <DataTable
        rows={rows}
        columns={[
          {
            id: 'time',
            header: t`Made`,
            cellProps: { style: { whiteSpace: 'nowrap' } },
            cell: (d) => time(d.created_at),
          },
          {
            id: 'event',
            header: t`Event`,
            rowHeader: true,
            cell: (d) => i18n._(EVENT_WORDS[d.event_type]),
          },
          assetId === undefined && {
            id: 'asset',
            header: t`Asset`,
            cell: (d) =>
              d.asset_id === null ? '–' : <Name>{names.get(d.asset_id) ?? d.asset_id}</Name>,
          },
          {
            id: 'state',
            header: t`State`,
            cell: (d) => (
              <Badge size="sm" variant="light" color={STATE_COLORS[d.state]}>
                {i18n._(STATE_WORDS[d.state])}
              </Badge>
            ),
          },
          { id: 'tries', header: t`Tries`, cell: (d) => String(d.attempts.length) },
          { id: 'last', header: t`Last try`, cell: lastTry },
          {
            id: 'next',
            header: t`Next try`,
            cellProps: { style: { whiteSpace: 'nowrap' } },
            cell: (d) => (d.next_at === null || d.state !== 'waiting' ? '–' : time(d.next_at)),
          },
        ]}
        rowKey={(d) => d.id}
        rowData={(d) => ({
          'data-testid': 'webhook-delivery',
          'data-state': d.state,
          'data-event': d.event_type,
        })}
        name={{ label: t`Deliveries` }}
        testId="webhook-deliveries"
        // Offline before the first answer: the note above says why there is nothing.
        loading={
          problem === null ? (
            <Text c="dimmed">
              <Trans>Loading…</Trans>
            </Text>
          ) : null
        }
        empty={
          <EmptyState title={<Trans>Nothing sent yet</Trans>}>
            <Text c="dimmed" ta="center">
              {assetId === undefined ? (
                <Trans>Each alarm event of the assets it sends appears here with its tries.</Trans>
              ) : (
                <Trans>Each alarm event of this asset appears here with its tries.</Trans>
              )}
            </Text>
          </EmptyState>
        }
      />
    </Stack>
  );
}
