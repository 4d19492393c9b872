import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Title } from '@mantine/core';
import { DashboardList } from './dashboard-list';
import { NewDashboardButton } from './new-dashboard';

const ACCOUNT_SCOPE = { assetId: null, templateId: null } as const;

/** /app/dashboards/list: the account's dashboards and its assets', searchable, live. */
export function DashboardsListPage() {
  const { t } = useLingui();
  return (
    <Stack gap="md" data-testid="dashboards-page">
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Dashboards</Trans>
        </Title>
        <NewDashboardButton scope={ACCOUNT_SCOPE} />
      </Group>
      <DashboardList scope={null} searchable label={t`Dashboards`} />
    </Stack>
  );
}

/** An asset's or a template's dashboards, on its page: a heading, "New dashboard", the list. */
export function OwnDashboards(props: {
  readonly assetId: string | null;
  readonly templateId: string | null;
}) {
  const { t } = useLingui();
  const scope = { assetId: props.assetId, templateId: props.templateId };
  return (
    <Stack gap="sm" data-testid="own-dashboards">
      <Group justify="space-between">
        <Title order={2} size="h3">
          <Trans>Dashboards</Trans>
        </Title>
        <NewDashboardButton scope={scope} />
      </Group>
      <DashboardList scope={scope} label={t`Dashboards`} />
    </Stack>
  );
}
