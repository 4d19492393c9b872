import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { appPaths } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
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
      {gateways === undefined ? (
        <Stack gap={8} aria-busy>
          <Skeleton height={36} />
          <Skeleton height={36} />
        </Stack>
      ) : gateways.items.length === 0 ? (
        <EmptyState title={<Trans>No gateways yet</Trans>}>
          <Text c="dimmed" ta="center">
            <Trans>A gateway appears here once it is added to this account.</Trans>
          </Text>
        </EmptyState>
      ) : (
        <Table striped highlightOnHover aria-label={t`Gateways`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Name</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Serial number</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>State</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Last seen</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Connections</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {gateways.items.map((g) => (
              <GatewayRow
                key={g.id}
                gateway={g}
                connections={(connections?.items ?? []).filter(
                  (c) => c.attributes.gateway_id === g.id,
                )}
              />
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function GatewayRow({
  gateway,
  connections,
}: {
  readonly gateway: LocalModel<'gateway'>;
  readonly connections: readonly LocalModel<'connection'>[];
}) {
  const name = textOf(gateway.attributes, 'name');
  return (
    <Table.Tr data-testid="gateway-row" data-id={gateway.id} data-name={name}>
      <Table.Td>
        <Anchor component={Link} to={appPaths.gatewayDetails(gateway.id)}>
          <Name>{name}</Name>
        </Anchor>
      </Table.Td>
      <Table.Td>{textOf(gateway.attributes, 'serial')}</Table.Td>
      <Table.Td>
        <OnlineBadge gateway={gateway} />
      </Table.Td>
      <Table.Td>
        <LastSeen gateway={gateway} />
      </Table.Td>
      <Table.Td>
        <Group gap={6}>
          {connections.map((c) => (
            <ConnectionState key={c.id} connection={c} />
          ))}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
