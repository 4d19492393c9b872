import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { LocalModel } from '@plant/sync-worker/api';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { dashboardPaths } from './paths';
import type { DashboardScope } from './stream-choices';

/** Search starts at this many characters (spec 000/001: search from 3). */
const SEARCH_FROM = 3;

/**
 * Dashboards from the local store, live: the account's list (`scope` null: the account's and the
 * assets' the user sees, templates' left out: they show on their template), or one asset's or
 * template's. With `searchable`, a search by name from 3 characters.
 */
export function DashboardList(props: {
  readonly scope: DashboardScope | null;
  readonly searchable?: boolean;
  readonly label: string;
}) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const search = text.trim().length >= SEARCH_FROM ? text.trim() : null;
  const result = useLiveQuery({
    type: 'dashboard',
    limit: 1000,
    ...(search === null ? {} : { search: { text: search, fields: ['name'] } }),
  });
  const { scope } = props;
  const rows = useMemo(
    () =>
      result?.items.filter((d) =>
        scope === null
          ? d.attributes.template_id === null
          : scope.templateId !== null
            ? d.attributes.template_id === scope.templateId
            : d.attributes.asset_id === scope.assetId && d.attributes.template_id === null,
      ),
    [result, scope],
  );
  return (
    <Stack gap="sm">
      {props.searchable === true ? (
        <TextInput
          type="search"
          label={t`Search dashboards`}
          description={t`From 3 characters`}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          maw={360}
          data-testid="dashboard-search"
        />
      ) : null}
      <DataTable
        rows={rows}
        name={{ label: props.label }}
        testId="dashboard-list"
        rowKey={(d) => d.id}
        rowData={(d) => ({ 'data-testid': 'dashboard-row', 'data-id': d.id })}
        loading={
          <Stack gap={8} aria-busy>
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        }
        empty={<EmptyState title={<Trans>No dashboards found</Trans>} />}
        columns={[
          {
            id: 'name',
            header: <Trans>Name</Trans>,
            rowHeader: true,
            cell: (d) => <DashboardLink dashboard={d} />,
          },
          scope === null && {
            id: 'owner',
            header: <Trans>Belongs to</Trans>,
            cell: (d) => <Owner assetId={d.attributes.asset_id} />,
          },
          {
            id: 'widgets',
            header: <Trans>Widgets</Trans>,
            cell: (d) => d.attributes.widgets.length,
          },
        ]}
      />
    </Stack>
  );
}

function DashboardLink({ dashboard }: { readonly dashboard: LocalModel<'dashboard'> }) {
  return (
    <Group gap="xs">
      <Anchor component={Link} to={dashboardPaths.of(dashboard.id, dashboard.attributes)}>
        <Name>{dashboard.attributes.name}</Name>
      </Anchor>
      {dashboard.pending ? (
        <Badge size="sm" color="orange" variant="light">
          <Trans>Not synced yet</Trans>
        </Badge>
      ) : null}
    </Group>
  );
}

function Owner({ assetId }: { readonly assetId: string | null }) {
  if (assetId === null) {
    return (
      <Text size="sm" c="dimmed">
        <Trans>The account</Trans>
      </Text>
    );
  }
  return <AssetName id={assetId} />;
}

function AssetName({ id }: { readonly id: string }) {
  const state = useLiveModel('asset', id);
  if (state.name !== 'found') return <Text size="sm">…</Text>;
  return (
    <Text size="sm">
      <Name>{state.model.attributes.name}</Name>
    </Text>
  );
}
