import { useCallback, useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import {
  apiPaths,
  isolate,
  reportRunSchema,
  reportRunsSchema,
  type ReportRun,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { lastSpanText } from '../../components/last-span';
import { Name } from '../../components/name';
import { callErrorText } from '../../i18n/server-texts';
import { useMayEdit } from '../../permissions/may-edit';
import { useCan } from '../../permissions/permissions';
import { callApi } from '../../session/api';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { saveBlob } from '../../sync/download-file';
import { syncWorker } from '../../sync/worker';
import { userDisplayName } from '../alarms/alarm-parts';
import { devicePaths } from '../devices/paths';
import { ReportForm } from './report-form';
import { reportPaths } from './report-paths';
import { deliveryLabel, reportText, runStateLabel, timeText, whenText } from './report-texts';
import { ReportStateBadge } from './reports-table';

/**
 * One report (/app/reports/{id}, or the asset's /app/devices/{id}/report/{reportid}): what it
 * mails, to whom and when, the failure of its last run, its runs with their files, and (with
 * report::edit) Edit, Pause or Activate, Send now; Delete with report::delete.
 */
export function ReportPage() {
  const { reportid = '' }: { reportid?: string } = useParams({ strict: false });
  const state = useLiveModel('report', reportid);
  if (state.name === 'loading') return <Skeleton height={160} />;
  if (state.name === 'missing') {
    return (
      <EmptyState title={<Trans>Report not found</Trans>}>
        <Trans>This report does not exist, or you may not see it.</Trans>
      </EmptyState>
    );
  }
  return <ReportDetails report={state.model} />;
}

function ReportDetails({ report }: { readonly report: LocalModel<'report'> }) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const mayEdit = useMayEdit('report', report);
  const a = report.attributes;
  const [editing, setEditing] = useState(false);
  const [runs, setRuns] = useState<readonly ReportRun[] | null>(null);
  const [runsError, setRunsError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const dashboard = useLiveModel('dashboard', a.dashboard_id);
  const users = useLiveQuery({ type: 'user', limit: 1000 });
  const names = new Map((users?.items ?? []).map((u) => [u.id, userDisplayName(u.attributes)]));

  const loadRuns = useCallback(async () => {
    const answer = await callApi('GET', apiPaths.reportRuns(report.id), reportRunsSchema, {
      quiet: true,
    });
    if ('error' in answer) setRunsError(reportText(i18n, callErrorText(answer.error)));
    else {
      setRunsError(null);
      setRuns(answer.data);
    }
  }, [report.id, i18n]);
  // Read again whenever the server says the last run moved on (its state, a new run).
  const lastRunKey = a.last_run === null ? '' : `${a.last_run.id}:${a.last_run.state}`;
  useEffect(() => {
    void loadRuns();
  }, [loadRuns, lastRunKey]);

  const sendNow = async () => {
    setSending(true);
    setSendError(null);
    const answer = await callApi('POST', apiPaths.reportSend(report.id), reportRunSchema, {
      quiet: true,
    });
    setSending(false);
    if ('error' in answer) setSendError(reportText(i18n, callErrorText(answer.error)));
    await loadRuns();
  };
  const setActive = async (active: boolean) => {
    const answer = await syncWorker().writes.update('report', report.id, {
      state: active ? 'active' : 'paused',
    });
    if ('error' in answer) setSendError(reportText(i18n, callErrorText(answer.error)));
  };

  const dashboardPath =
    a.asset_id === null
      ? `/app/dashboards/${encodeURIComponent(a.dashboard_id)}`
      : `${devicePaths.details(a.asset_id).replace(/\/details$/, '')}/dashboard/${encodeURIComponent(a.dashboard_id)}`;
  const range =
    a.range.kind === 'relative'
      ? lastSpanText(i18n, a.range.last, a.range.unit)
      : `${timeText(i18n, a.range.from)} – ${timeText(i18n, a.range.to)}`;
  const failed = a.last_run?.state === 'failed';

  return (
    <Stack gap="lg" data-testid="report-page" data-id={report.id}>
      <Group justify="space-between" align="flex-start">
        <Group gap="sm">
          <Title order={1}>
            <Name>{a.name}</Name>
          </Title>
          <ReportStateBadge report={report} />
        </Group>
        {mayEdit ? (
          <Group gap="xs">
            <Button variant="default" onClick={() => setEditing(true)} data-testid="report-edit">
              <Trans>Edit</Trans>
            </Button>
            <Button variant="default" onClick={() => void setActive(a.state !== 'active')}>
              {a.state === 'active' ? <Trans>Pause</Trans> : <Trans>Activate</Trans>}
            </Button>
            {a.state === 'active' ? (
              <Button
                onClick={() => void sendNow()}
                loading={sending}
                data-testid="report-send-now"
              >
                <Trans>Send now</Trans>
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Group>
      {failed && typeof a.last_run?.error === 'string' ? (
        <Alert color="red" role="alert" data-testid="report-failure">
          {reportText(i18n, a.last_run.error)}
        </Alert>
      ) : null}
      {sendError === null ? null : (
        <Alert color="red" role="alert">
          {sendError}
        </Alert>
      )}
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Field label={t`Dashboard`}>
            {dashboard.name === 'found' ? (
              <Anchor component={Link} to={dashboardPath}>
                <Name>{dashboard.model.attributes.name}</Name>
              </Anchor>
            ) : (
              '–'
            )}
          </Field>
          <Field label={t`Range`}>{range}</Field>
          <Field label={t`When`}>{whenText(i18n, a)}</Field>
          <Field label={t`Next`}>{a.next_at === null ? '–' : timeText(i18n, a.next_at)}</Field>
          <Field label={t`Attachments`}>
            {a.attachments.map((x) => x.toUpperCase()).join(', ')}
          </Field>
          <Field label={t`Recipients`}>
            {a.recipients.length === 0 ? (
              <Trans>Nobody</Trans>
            ) : (
              <List size="sm">
                {a.recipients.map((r) => (
                  <List.Item key={'user_id' in r ? r.user_id : r.email}>
                    <Name>{'user_id' in r ? (names.get(r.user_id) ?? r.user_id) : r.email}</Name>
                  </List.Item>
                ))}
              </List>
            )}
          </Field>
        </SimpleGrid>
      </Paper>
      <Runs report={report} runs={runs} error={runsError} />
      {can('report::delete') && mayEdit ? <DeleteReport report={report} /> : null}
      <Modal opened={editing} onClose={() => setEditing(false)} title={t`Edit report`} size="xl">
        {editing ? (
          <ReportForm report={report} assetId={a.asset_id} onDone={() => setEditing(false)} />
        ) : null}
      </Modal>
    </Stack>
  );
}

function Field(props: { readonly label: string; readonly children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {props.label}
      </Text>
      <div>{props.children}</div>
    </div>
  );
}

/** The runs, newest first: when, how it went, for whom, and the files the reader may open. */
function Runs(props: {
  readonly report: LocalModel<'report'>;
  readonly runs: readonly ReportRun[] | null;
  readonly error: string | null;
}) {
  const { t, i18n } = useLingui();
  const [fileError, setFileError] = useState<string | null>(null);
  const download = async (run: ReportRun, index: number, name: string) => {
    const answer = await syncWorker().http.call(
      'GET',
      apiPaths.reportRunFile(props.report.id, run.id, index),
      undefined,
      { binary: true, quiet: true },
    );
    if ('error' in answer) {
      setFileError(reportText(i18n, callErrorText(answer.error)));
      return;
    }
    setFileError(null);
    saveBlob(answer.data as Blob, name);
  };
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        <Trans>Runs</Trans>
      </Title>
      {props.error === null ? null : (
        <Text c="red" size="sm" role="alert">
          {props.error}
        </Text>
      )}
      {fileError === null ? null : (
        <Text c="red" size="sm" role="alert">
          {fileError}
        </Text>
      )}
      {props.runs === null ? (
        props.error === null ? (
          <Skeleton height={60} />
        ) : null
      ) : props.runs.length === 0 ? (
        <Text c="dimmed" size="sm">
          <Trans>Not sent yet.</Trans>
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table data-testid="report-runs">
            <Table.Caption>{t`The report's runs, newest first`}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">
                  <Trans>Time</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>State</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>Recipients</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>Files</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.runs.map((run) => (
                <Table.Tr key={run.id} data-testid="report-run" data-state={run.state}>
                  <Table.Td>
                    {timeText(i18n, run.at)}
                    {run.manual ? (
                      <Text size="xs" c="dimmed">
                        <Trans>Sent now by hand</Trans>
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      color={
                        run.state === 'sent' ? 'green' : run.state === 'failed' ? 'red' : 'gray'
                      }
                      variant="light"
                    >
                      {runStateLabel(i18n, run.state)}
                    </Badge>
                    {run.error === null ? null : (
                      <Text size="xs" c="red" data-testid="report-run-error">
                        {reportText(i18n, run.error)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <List size="xs">
                      {run.recipients.map((r) => (
                        <List.Item key={r.recipient}>
                          <Name>{r.recipient}</Name>: {deliveryLabel(i18n, r.state)}
                          {r.reason === null ? null : ` (${reportText(i18n, r.reason)})`}
                        </List.Item>
                      ))}
                    </List>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      {run.files.map((f) => (
                        <Anchor
                          key={f.index}
                          component="button"
                          type="button"
                          size="sm"
                          onClick={() => void download(run, f.index, f.name)}
                          data-testid="report-run-file"
                          aria-label={t`Download ${f.type.toUpperCase()} for ${{ who: isolate(f.recipient) }}`}
                        >
                          {f.name}
                        </Anchor>
                      ))}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function DeleteReport({ report }: { readonly report: LocalModel<'report'> }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = isolate(report.attributes.name);
  const remove = async () => {
    const answer = await syncWorker().writes.remove('report', report.id);
    if ('error' in answer) {
      setError(reportText(i18n, callErrorText(answer.error)));
      return;
    }
    const assetId = report.attributes.asset_id;
    await navigate({ to: assetId === null ? reportPaths.list() : devicePaths.details(assetId) });
  };
  if (!asking) {
    return (
      <Group>
        <Button color="red" variant="outline" onClick={() => setAsking(true)}>
          <Trans>Delete report</Trans>
        </Button>
      </Group>
    );
  }
  return (
    <Alert color="red" role="alertdialog" title={t`Delete ${name}?`}>
      <Stack gap="sm">
        <Text size="sm">
          <Trans>
            The report stops being sent and its runs are no longer listed. This cannot be undone.
          </Trans>
        </Text>
        {error === null ? null : (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group>
          <Button variant="default" onClick={() => setAsking(false)} data-autofocus>
            <Trans>Keep it</Trans>
          </Button>
          <Button color="red" onClick={() => void remove()} data-testid="report-delete-confirm">
            <Trans>Delete {name}</Trans>
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
