import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Button, Modal, Table, Text } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import type { LocalModel } from '@plant/sync-worker/api';
import { Name } from '../../components/name';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { ReportForm } from './report-form';
import { reportPaths } from './report-paths';
import { reportText, runStateLabel, timeText, whenText } from './report-texts';

/** A report's state as a badge: active, or paused. */
export function ReportStateBadge(props: { readonly report: LocalModel<'report'> }) {
  return props.report.attributes.state === 'active' ? (
    <Badge color="green" variant="light">
      <Trans>Active</Trans>
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      <Trans>Paused</Trans>
    </Badge>
  );
}

/** The reports given, from the local store: name, dashboard, when, state, next and last run. */
export function ReportsTable(props: {
  readonly reports: readonly LocalModel<'report'>[] | undefined;
  readonly caption: string;
  readonly empty: ReactNode;
}) {
  const { i18n } = useLingui();
  const dashboards = useLiveQuery({ type: 'dashboard', limit: 1000 });
  const names = new Map((dashboards?.items ?? []).map((d) => [d.id, d.attributes.name]));
  if (props.reports === undefined) return null;
  if (props.reports.length === 0) {
    return (
      <Text c="dimmed" data-testid="reports-empty">
        {props.empty}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table data-testid="reports-table">
        <Table.Caption>{props.caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">
              <Trans>Name</Trans>
            </Table.Th>
            <Table.Th scope="col">
              <Trans>Dashboard</Trans>
            </Table.Th>
            <Table.Th scope="col">
              <Trans>When</Trans>
            </Table.Th>
            <Table.Th scope="col">
              <Trans>State</Trans>
            </Table.Th>
            <Table.Th scope="col">
              <Trans>Next</Trans>
            </Table.Th>
            <Table.Th scope="col">
              <Trans>Last run</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.reports.map((r) => {
            const a = r.attributes;
            return (
              <Table.Tr key={r.id} data-testid="report-row" data-id={r.id}>
                <Table.Td>
                  <Anchor component={Link} to={reportPaths.report(r.id, a.asset_id)}>
                    <Name>{a.name}</Name>
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Name>{names.get(a.dashboard_id) ?? ''}</Name>
                </Table.Td>
                <Table.Td>{whenText(i18n, a)}</Table.Td>
                <Table.Td>
                  <ReportStateBadge report={r} />
                </Table.Td>
                <Table.Td>{a.next_at === null ? '–' : timeText(i18n, a.next_at)}</Table.Td>
                <Table.Td>
                  {a.last_run === null ? (
                    '–'
                  ) : (
                    <>
                      {runStateLabel(i18n, a.last_run.state)}
                      {a.last_run.error === null ? null : (
                        <Text size="xs" c="red">
                          {reportText(i18n, a.last_run.error)}
                        </Text>
                      )}
                    </>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** "New report" (report::create): the form in a dialog; the new report's page after it. */
export function NewReportButton(props: { readonly assetId: string | null }) {
  const { t } = useLingui();
  const can = useCan();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  if (!can('report::create')) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="new-report">
        <Trans>New report</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New report`} size="xl">
        {open ? (
          <ReportForm
            assetId={props.assetId}
            onDone={(id) => {
              setOpen(false);
              if (id !== null) void navigate({ to: reportPaths.report(id, props.assetId) });
            }}
          />
        ) : null}
      </Modal>
    </>
  );
}
