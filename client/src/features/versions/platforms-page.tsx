import './catalogues';
import { useMemo } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Text, Title } from '@mantine/core';
import { useLiveQuery } from '../../sync/hooks';
import { NewReleaseButton } from './new-release';
import { VersionsNav } from './release-parts';
import { byVersion, ReleaseTable } from './release-table';

/** /app/versions/platforms: the gateway agent's and the firmware's versions, live. */
export function PlatformsPage() {
  const { t } = useLingui();
  const result = useLiveQuery({ type: 'release', limit: 1000 });
  const rows = useMemo(
    () => result?.items.filter((r) => r.attributes.target !== 'module').sort(byVersion),
    [result],
  );
  return (
    <Stack gap="md" data-testid="platforms-page">
      <VersionsNav />
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Platforms</Trans>
        </Title>
        <NewReleaseButton targets={['agent', 'firmware']} />
      </Group>
      <Text size="sm" c="dimmed">
        <Trans>
          The gateway agent and the firmware: a released version is rolled out to gateways from its
          page.
        </Trans>
      </Text>
      <ReleaseTable rows={rows} label={t`Platform versions`} showTarget />
    </Stack>
  );
}
