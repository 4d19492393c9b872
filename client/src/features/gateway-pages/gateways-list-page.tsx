import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { appPaths } from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { DataTable } from '../../components/data-table';
import { useLiveQuery } from '../../sync/hooks';
import { textOf } from '../devices/asset-texts';
import { ConnectionState, LastSeen, OnlineBadge } from './gateway-texts';
import { Name } from '../../components/name';

/**
 * /app/gateways/list (gateway::view): every gateway of the account from the local store, live:
 * online or offline, last seen, and the state of each of its connections.
 */
export function GatewaysListPage() {
  const { t } = useLingui();
  const gateways = useLiveQuery({ type: 'gateway', limit: 1000 });
  const connections = useLiveQuery({ type: 'connection', limit: 1000 });
  return (
    <Stack gap="md" data-testid="gateways-list">
      <Title order={1}>
        <Trans>Gateways</Trans>
      </Title>
      <DataTable
        rows={gateways?.items}
        columns={[
          {
            id: 'name',
            header: t`Name`,
            cell: (g) => (
              <Anchor component={Link} to={appPaths.gatewayDetails(g.id)}>
                <Name>{textOf(g.attributes, 'name')}</Name>
              </Anchor>
            ),
          },
          { id: 'serial', header: t`Serial number`, cell: (g) => textOf(g.attributes, 'serial') },
          { id: 'state', header: t`State`, cell: (g) => <OnlineBadge gateway={g} /> },
          { id: 'seen', header: t`Last seen`, cell: (g) => <LastSeen gateway={g} /> },
          {
            id: 'connections',
            header: t`Connections`,
            cell: (g) => (
              <Group gap={6}>
                {(connections?.items ?? [])
                  .filter((c) => c.attributes.gateway_id === g.id)
                  .map((c) => (
                    <ConnectionState key={c.id} connection={c} />
                  ))}
              </Group>
            ),
          },
        ]}
        rowKey={(g) => g.id}
        rowData={(g) => ({
          'data-testid': 'gateway-row',
          'data-id': g.id,
          'data-name': textOf(g.attributes, 'name'),
        })}
        name={{ label: t`Gateways` }}
        look={{ striped: true, highlightOnHover: true }}
        loading={
          <Stack gap={8} aria-busy>
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        }
        empty={
          <EmptyState title={<Trans>No gateways yet</Trans>}>
            <Text c="dimmed" ta="center">
              <Trans>A gateway appears here once it is added to this account.</Trans>
            </Text>
          </EmptyState>
        }
      />
    </Stack>
  );
}
