import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Title } from '@mantine/core';
import { useLiveQuery } from '../../sync/hooks';
import { NewReportButton, ReportsTable } from './reports-table';

/**
 * /app/reports/list: the account's reports (its own and its assets'), from the local store, live
 * and offline too, and a new report of the account (report::create).
 */
export function ReportsListPage() {
  const { t } = useLingui();
  const reports = useLiveQuery({ type: 'report', limit: 1000 });
  return (
    <Stack gap="md" data-testid="reports-page">
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Reports</Trans>
        </Title>
        <NewReportButton assetId={null} />
      </Group>
      <ReportsTable
        reports={reports?.items}
        caption={t`The account's reports`}
        empty={<Trans>No reports yet. A report mails a dashboard as a PDF on a schedule.</Trans>}
      />
    </Stack>
  );
}
