import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Title } from '@mantine/core';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { NewReportButton, ReportsTable } from './reports-table';

/** The "Reports" section of an asset's page: its reports, and a new one. Nothing without report::view. */
export function AssetReportsSection(props: { readonly assetId: string }) {
  const { t } = useLingui();
  const can = useCan();
  const allowed = can('report::view');
  const reports = useLiveQuery(
    allowed
      ? { type: 'report', search: { text: props.assetId, fields: ['asset_id'] }, limit: 1000 }
      : null,
  );
  if (!allowed) return null;
  // The search is a substring match: keep exactly this asset's.
  const items = reports?.items.filter((r) => r.attributes.asset_id === props.assetId);
  return (
    <Stack gap="sm" data-testid="asset-reports">
      <Group justify="space-between">
        <Title order={2} size="h3">
          <Trans>Reports</Trans>
        </Title>
        <NewReportButton assetId={props.assetId} />
      </Group>
      <ReportsTable
        reports={items}
        caption={t`The asset's reports`}
        empty={<Trans>This asset has no reports.</Trans>}
      />
    </Stack>
  );
}
