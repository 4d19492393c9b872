import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Group, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { compareVersions } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { absoluteTime } from '../../components/time-ago';
import { versionPaths } from './paths';
import { ReleaseStateBadge, targetLabel } from './release-parts';

/** Newest version first (semantic order), then by name. */
export function byVersion(a: LocalModel<'release'>, b: LocalModel<'release'>): number {
  const named = a.attributes.name.localeCompare(b.attributes.name);
  return named !== 0 ? named : compareVersions(b.attributes.version, a.attributes.version);
}

/** Versions as a table: each links to its page, with its state and when it was released. */
export function ReleaseTable(props: {
  readonly rows: readonly LocalModel<'release'>[] | undefined;
  readonly label: string;
  readonly showTarget?: boolean;
}) {
  const { i18n } = useLingui();
  return (
    <DataTable
      rows={props.rows}
      name={{ label: props.label }}
      testId="release-list"
      rowKey={(r) => r.id}
      rowData={(r) => ({
        'data-testid': 'release-row',
        'data-id': r.id,
        'data-version': r.attributes.version,
      })}
      loading={
        <Stack gap={8} aria-busy>
          <Skeleton height={36} />
          <Skeleton height={36} />
        </Stack>
      }
      empty={
        <EmptyState title={<Trans>No versions yet</Trans>}>
          <Text size="sm" c="dimmed">
            <Trans>A new version starts as a draft: add its file, then release it.</Trans>
          </Text>
        </EmptyState>
      }
      columns={[
        {
          id: 'name',
          header: <Trans>Name</Trans>,
          rowHeader: true,
          cell: (r) => (
            <Group gap="xs">
              <Anchor component={Link} to={versionPaths.of(r)}>
                <Name>{r.attributes.name}</Name> {r.attributes.version}
              </Anchor>
              {r.pending ? (
                <Badge size="sm" color="orange" variant="light">
                  <Trans>Not synced yet</Trans>
                </Badge>
              ) : null}
            </Group>
          ),
        },
        props.showTarget === true && {
          id: 'target',
          header: <Trans>Type</Trans>,
          cell: (r) => targetLabel(r.attributes.target),
        },
        {
          id: 'state',
          header: <Trans>State</Trans>,
          cell: (r) => <ReleaseStateBadge state={r.attributes.state} />,
        },
        {
          id: 'released',
          header: <Trans>Released</Trans>,
          cell: (r) =>
            r.attributes.released_at === null ? '–' : absoluteTime(i18n, r.attributes.released_at),
        },
      ]}
    />
  );
}
