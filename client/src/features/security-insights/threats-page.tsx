import './catalogues';
import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import {
  apiPaths,
  OTHERS_KEY,
  securityThreatsSchema,
  THREAT_PERIODS,
  type SecurityThreats,
  type ThreatDay,
  type ThreatTop,
} from '@plant/shared-schema';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { PageError } from '../../components/page-state';
import { DayBars } from './day-bars';
import { TakenNote } from './taken-note';
import { useKeptAnswer } from './use-kept-answer';

type Period = (typeof THREAT_PERIODS)[number];

/**
 * /app/security-insights/threat-overview (issue 38 item 1): the active account's failed sign-ins
 * over time by address and by user, rate-limit hits, broker refusals and CSP reports, over 7, 30
 * or 90 days. Kept on the device per period: offline the page shows the last answer with its time.
 */
export function ThreatOverviewPage() {
  const { t } = useLingui();
  const [days, setDays] = useState<Period>(30);
  const view = useKeptAnswer(
    `threats-${days}`,
    apiPaths.securityThreats(days),
    securityThreatsSchema,
  );
  const { data } = view;
  return (
    <Stack gap="lg" data-testid="threat-overview">
      <Group justify="space-between" align="baseline">
        <Title order={1}>
          <Trans>Threat overview</Trans>
        </Title>
        <Anchor component={Link} to="/app/security-insights/overview">
          <Trans>Security overview</Trans>
        </Anchor>
      </Group>
      <SegmentedControl
        aria-label={t`Period`}
        value={String(days)}
        onChange={(value) => setDays(Number(value) as Period)}
        data={THREAT_PERIODS.map((d) => ({ value: String(d), label: t`${d} days` }))}
        style={{ alignSelf: 'flex-start' }}
      />
      {data === undefined ? (
        view.pending ? (
          <Skeleton height={160} aria-label={t`Loading…`} />
        ) : (
          <EmptyState title={<Trans>The threat overview could not be read.</Trans>}>
            <Text c="dimmed" ta="center">
              {view.error}{' '}
              <Trans>It opens on this device without the network once it was read here.</Trans>
            </Text>
            <Button variant="default" onClick={view.reload}>
              <Trans>Try again</Trans>
            </Button>
          </EmptyState>
        )
      ) : (
        <>
          <TakenNote
            takenAt={data.taken_at}
            fromDevice={view.fromDevice}
            pending={view.pending}
            error={view.error}
            onRetry={view.reload}
          />
          {view.fromDevice ? null : <PageError error={view.error} />}
          <Threats data={data} />
        </>
      )}
    </Stack>
  );
}

function Threats(props: { readonly data: SecurityThreats }) {
  const { t } = useLingui();
  const { data } = props;
  const series = (name: keyof Omit<ThreatDay, 'day'>) =>
    data.series.map((d) => ({ day: d.day, value: d[name] }));
  const total = (name: keyof Omit<ThreatDay, 'day'>) =>
    data.series.reduce((n, d) => n + d[name], 0);
  const others = t`Others`;
  return (
    <>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SeriesCard
          id="signin_failed"
          title={<Trans>Failed sign-ins</Trans>}
          total={total('signin_failed')}
        >
          <DayBars
            days={series('signin_failed')}
            label={t`Failed sign-ins`}
            color="var(--mantine-color-red-6)"
          />
        </SeriesCard>
        <SeriesCard
          id="rate_limited"
          title={<Trans>Rate-limit hits</Trans>}
          total={total('rate_limited')}
        >
          <DayBars
            days={series('rate_limited')}
            label={t`Rate-limit hits`}
            color="var(--mantine-color-orange-6)"
          />
        </SeriesCard>
        <SeriesCard
          id="broker_refused"
          title={<Trans>Broker refusals</Trans>}
          total={total('broker_refused')}
        >
          <DayBars
            days={series('broker_refused')}
            label={t`Broker refusals`}
            color="var(--mantine-color-grape-6)"
          />
        </SeriesCard>
        <SeriesCard
          id="csp_reports"
          title={<Trans>CSP reports</Trans>}
          total={total('csp_reports')}
        >
          <DayBars
            days={series('csp_reports')}
            label={t`CSP reports`}
            color="var(--mantine-color-blue-6)"
          />
        </SeriesCard>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <TopList
          id="signin-by-address"
          title={t`Failed sign-ins by address`}
          keyHeader={<Trans>Address</Trans>}
          rows={data.signin_by_address}
          others={others}
        />
        <TopList
          id="signin-by-user"
          title={t`Failed sign-ins by user`}
          keyHeader={<Trans>User</Trans>}
          rows={data.signin_by_user}
          others={others}
        />
        <TopList
          id="rate-limited-by-address"
          title={t`Rate-limit hits by address`}
          keyHeader={<Trans>Address</Trans>}
          rows={data.rate_limited_by_address}
          others={others}
        />
        <TopList
          id="broker-by-client"
          title={t`Broker refusals by gateway or user`}
          keyHeader={<Trans>Gateway or user</Trans>}
          rows={data.broker_by_client}
          others={others}
        />
        <TopList
          id="csp-by-directive"
          title={t`CSP reports by directive`}
          keyHeader={<Trans>Directive</Trans>}
          rows={data.csp_by_directive}
          others={others}
        />
      </SimpleGrid>
    </>
  );
}

function SeriesCard(props: {
  readonly id: string;
  readonly title: ReactNode;
  readonly total: number;
  readonly children: ReactNode;
}) {
  const headingId = `threat-${props.id}`;
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby={headingId}
      data-testid="threat-series"
      data-series={props.id}
    >
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id={headingId}>
          {props.title}
        </Title>
        <Text fw={600} data-testid="threat-total">
          {props.total}
        </Text>
      </Group>
      {props.children}
    </Paper>
  );
}

/** What a top entry is called: a user's address, a gateway's name, else its key. */
function entryName(entry: ThreatTop, others: string): string {
  if (entry.key === OTHERS_KEY) return others;
  return entry.name ?? entry.key;
}

function TopList(props: {
  readonly id: string;
  readonly title: string;
  readonly keyHeader: ReactNode;
  readonly rows: readonly ThreatTop[];
  readonly others: string;
}) {
  const headingId = `threat-top-${props.id}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="xs">
        {props.title}
      </Title>
      <DataTable
        rows={props.rows}
        name={{ labelledBy: headingId }}
        testId={`threat-top-${props.id}`}
        rowKey={(row) => row.key}
        rowData={(row) => ({ 'data-testid': 'threat-entry', 'data-key': row.key })}
        empty={
          <Text size="sm" c="dimmed">
            <Trans>None in this period.</Trans>
          </Text>
        }
        columns={[
          {
            id: 'key',
            header: props.keyHeader,
            rowHeader: true,
            cell: (row) =>
              row.key === OTHERS_KEY ? (
                <Text span size="sm" c="dimmed">
                  {props.others}
                </Text>
              ) : (
                <Name>{entryName(row, props.others)}</Name>
              ),
          },
          { id: 'count', header: <Trans>Count</Trans>, cell: (row) => row.count },
        ]}
      />
    </Paper>
  );
}
