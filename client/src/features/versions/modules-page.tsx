import './catalogues';
import { useMemo } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { compareVersions } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { useLiveQuery } from '../../sync/hooks';
import { NewReleaseButton } from './new-release';
import { versionPaths } from './paths';
import { ReleaseStateBadge, VersionsNav } from './release-parts';

interface ModuleRow {
  readonly name: string;
  readonly newest: LocalModel<'release'>;
  readonly active: LocalModel<'release'> | undefined;
  readonly count: number;
}

/** /app/versions/modules: the machine software modules, each with its versions, live. */
export function ModulesPage() {
  const { t } = useLingui();
  const result = useLiveQuery({ type: 'release', limit: 1000 });
  const rows = useMemo(() => {
    if (result === undefined) return undefined;
    const byName = new Map<string, LocalModel<'release'>[]>();
    for (const r of result.items) {
      if (r.attributes.target !== 'module') continue;
      byName.set(r.attributes.name, [...(byName.get(r.attributes.name) ?? []), r]);
    }
    return [...byName.entries()]
      .map(([name, versions]): ModuleRow => {
        const sorted = versions.sort((a, b) =>
          compareVersions(b.attributes.version, a.attributes.version),
        );
        return {
          name,
          newest: sorted[0] as LocalModel<'release'>,
          active: sorted.find((r) => r.attributes.state === 'active'),
          count: sorted.length,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }, [result]);
  return (
    <Stack gap="md" data-testid="modules-page">
      <VersionsNav />
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Modules</Trans>
        </Title>
        <NewReleaseButton targets={['module']} />
      </Group>
      <DataTable
        rows={rows}
        name={{ label: t`Modules` }}
        testId="module-list"
        rowKey={(m) => m.name}
        rowData={() => ({ 'data-testid': 'module-row' })}
        loading={<Skeleton height={36} />}
        empty={
          <EmptyState title={<Trans>No modules yet</Trans>}>
            <Text size="sm" c="dimmed">
              <Trans>
                A module is the machine software a gateway talks to: its versions say what it
                exposes.
              </Trans>
            </Text>
          </EmptyState>
        }
        columns={[
          {
            id: 'name',
            header: <Trans>Module</Trans>,
            rowHeader: true,
            cell: (m) => (
              <Anchor component={Link} to={versionPaths.module(m.name)}>
                <Name>{m.name}</Name>
              </Anchor>
            ),
          },
          {
            id: 'newest',
            header: <Trans>Newest version</Trans>,
            cell: (m) => (
              <Group gap="xs">
                {m.newest.attributes.version}
                <ReleaseStateBadge state={m.newest.attributes.state} />
              </Group>
            ),
          },
          {
            id: 'active',
            header: <Trans>Active version</Trans>,
            cell: (m) => m.active?.attributes.version ?? '–',
          },
          { id: 'count', header: <Trans>Versions</Trans>, cell: (m) => m.count },
        ]}
      />
    </Stack>
  );
}
