import './catalogues';
import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { ACTIVE_SERVICE_STATES, SERVICE_PERMISSIONS } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { useWriteOutcome } from '../../sync/write-outcome';
import { servicePaths } from './paths';
import { SERVICE_STATE_COLORS, SERVICE_STATE_WORDS } from '../states/state-words';

/**
 * /app/service and /app/service/history (issue 34 item 2): the account's active service requests
 * (open, assigned, in progress) or its past ones, from the local store, live; and the form that
 * asks for service on a machine (offline too: kept in the worker, sent when the server is back).
 */
export function ActiveServicePage() {
  return <ServiceList history={false} />;
}

export function PastServicePage() {
  return <ServiceList history />;
}

function ServiceList(props: { readonly history: boolean }) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const result = useLiveQuery({
    type: 'service_request',
    limit: 1000,
    sort: { field: 'reported_at', direction: 'desc' },
  });
  const assets = useLiveQuery({ type: 'asset', limit: 1000 })?.items;
  const assetNames = useMemo(
    () => new Map((assets ?? []).map((a) => [a.id, a.attributes.name])),
    [assets],
  );
  const rows = useMemo(
    () =>
      result?.items.filter(
        (r) => ACTIVE_SERVICE_STATES.includes(r.attributes.state) !== props.history,
      ),
    [result, props.history],
  );
  const date = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack gap="md" data-testid="service-page">
      <Group justify="space-between">
        <Title order={1}>
          {props.history ? <Trans>Past service requests</Trans> : <Trans>Service requests</Trans>}
        </Title>
        {!props.history && can(SERVICE_PERMISSIONS.view) && !asking ? (
          <Button onClick={() => setAsking(true)} data-testid="service-new">
            <Trans>Request service</Trans>
          </Button>
        ) : null}
      </Group>
      <Group gap="md">
        <Anchor
          component={Link}
          to={props.history ? servicePaths.active() : servicePaths.history()}
          size="sm"
        >
          {props.history ? <Trans>Show active requests</Trans> : <Trans>Show past requests</Trans>}
        </Anchor>
      </Group>
      {asking ? (
        <RequestForm
          assets={assets}
          onDone={(id) => {
            setAsking(false);
            if (id !== null) void navigate({ to: servicePaths.request(id) });
          }}
        />
      ) : null}
      <DataTable
        rows={rows}
        name={{ label: props.history ? t`Past service requests` : t`Service requests` }}
        testId="service-list"
        rowKey={(r) => r.id}
        rowData={(r) => ({ 'data-testid': 'service-row', 'data-id': r.id })}
        loading={
          <Stack gap={8} aria-busy>
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        }
        empty={
          <EmptyState
            title={
              props.history ? (
                <Trans>No past service requests</Trans>
              ) : (
                <Trans>No active service requests</Trans>
              )
            }
          />
        }
        columns={[
          {
            id: 'title',
            header: <Trans>Title</Trans>,
            rowHeader: true,
            cell: (r) => <RequestLink request={r} />,
          },
          {
            id: 'machine',
            header: <Trans>Machine</Trans>,
            cell: (r) => assetNames.get(r.attributes.asset_id) ?? '–',
          },
          {
            id: 'state',
            header: <Trans>State</Trans>,
            cell: (r) => (
              <Badge color={SERVICE_STATE_COLORS[r.attributes.state]} variant="light">
                {i18n._(SERVICE_STATE_WORDS[r.attributes.state])}
              </Badge>
            ),
          },
          {
            id: 'agent',
            header: <Trans>Agent</Trans>,
            cell: (r) =>
              r.attributes.assigned_to === null ? '–' : (r.attributes.agent_name ?? '–'),
          },
          {
            id: 'reported',
            header: <Trans>Reported</Trans>,
            cell: (r) =>
              r.attributes.reported_at === null ? (
                <Text size="sm" c="dimmed">
                  <Trans>Not synced yet</Trans>
                </Text>
              ) : (
                date.format(r.attributes.reported_at)
              ),
          },
        ]}
      />
    </Stack>
  );
}

function RequestLink({ request }: { readonly request: LocalModel<'service_request'> }) {
  return (
    <Anchor
      component={Link}
      to={servicePaths.request(request.id)}
      data-testid="service-link"
      fw={500}
    >
      <Name>{request.attributes.title}</Name>
    </Anchor>
  );
}

/** A new request for service on one machine, written to the worker. */
function RequestForm(props: {
  readonly assets: readonly LocalModel<'asset'>[] | undefined;
  readonly onDone: (id: string | null) => void;
}) {
  const { t } = useLingui();
  const [asset, setAsset] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [consent, setConsent] = useState(true);
  const [problems, setProblems] = useState<
    Partial<Record<'asset' | 'title' | 'description', string | undefined>>
  >({});
  const [error, took] = useWriteOutcome();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const found = {
      ...(asset === null ? { asset: t`Choose the machine` } : {}),
      ...(title.trim() === '' ? { title: t`Title is required` } : {}),
      ...(description.trim() === '' ? { description: t`Description is required` } : {}),
    };
    setProblems(found);
    if (asset === null || Object.keys(found).length > 0) return;
    setBusy(true);
    const answer = await syncWorker().writes.create('service_request', {
      asset_id: asset,
      title,
      description,
      consent,
    });
    setBusy(false);
    if (took(answer) && 'data' in answer) props.onDone(answer.data.id);
  };
  return (
    <Paper withBorder p="md" radius="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        noValidate
        data-testid="service-form"
      >
        <Stack gap="sm">
          <Text fw={600}>
            <Trans>Request service</Trans>
          </Text>
          <Select
            label={t`Machine`}
            required
            searchable
            value={asset}
            onChange={setAsset}
            data={(props.assets ?? []).map((a) => ({ value: a.id, label: a.attributes.name }))}
            error={problems.asset}
            nothingFoundMessage={t`No machine found`}
            maw={420}
            data-testid="service-asset"
          />
          <TextInput
            label={t`Title`}
            required
            maxLength={200}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            error={problems.title}
            data-testid="service-title"
          />
          <Textarea
            label={t`Description`}
            required
            autosize
            minRows={3}
            maxLength={10_000}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={problems.description}
            data-testid="service-description"
          />
          <Checkbox
            label={t`Send the machine’s context with it`}
            description={t`Its active alarms, its latest values and its gateway’s version, as the server has them when the request arrives.`}
            checked={consent}
            onChange={(e) => setConsent(e.currentTarget.checked)}
            data-testid="service-consent"
          />
          {error === null ? null : (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={busy} data-testid="service-send">
              <Trans>Send</Trans>
            </Button>
            <Button variant="default" onClick={() => props.onDone(null)}>
              <Trans>Cancel</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
