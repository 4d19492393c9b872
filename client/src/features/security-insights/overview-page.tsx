import './catalogues';
import { useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import {
  apiPaths,
  INSIGHT_LIMITS,
  securityInsightsSchema,
  type InsightCheck,
  type InsightCheckId,
  type InsightState,
  type SecurityInsights,
} from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { PageError } from '../../components/page-state';
import { absoluteTime } from '../../components/time-ago';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { callApi } from '../../session/api';
import { CHECK_WORDS, SEVERITY_WORDS, STATE_COLORS, STATE_WORDS } from './check-texts';
import { DayBars } from './day-bars';
import { DismissForm } from './dismiss-form';
import { CheckItems } from './check-items';
import { TakenNote } from './taken-note';
import { useKeptAnswer } from './use-kept-answer';

/** Failing checks first, then dismissed, then passing; the server's order within each. */
const STATE_ORDER: Readonly<Record<InsightState, number>> = {
  failing: 0,
  dismissed: 1,
  passing: 2,
};

/**
 * /app/security-insights/overview (issue 38 item 1): each check of the active account with its
 * state, count and failing items (only those the server lets this user see), the 90-day trend,
 * and, for the account's admins, dismissing a check with a reason until a day. The answer is kept
 * on the device: offline the page shows the last one and says when it was taken.
 */
export function OverviewPage() {
  const { t } = useLingui();
  const view = useKeptAnswer('overview', apiPaths.securityInsights(), securityInsightsSchema);
  const { data } = view;
  return (
    <Stack gap="lg" data-testid="security-overview">
      <Group justify="space-between" align="baseline">
        <Title order={1}>
          <Trans>Security overview</Trans>
        </Title>
        <Anchor component={Link} to="/app/security-insights/threat-overview">
          <Trans>Threat overview</Trans>
        </Anchor>
      </Group>
      {data === undefined ? (
        view.pending ? (
          <Skeleton height={120} aria-label={t`Loading…`} />
        ) : (
          <EmptyState title={<Trans>The security overview could not be read.</Trans>}>
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
        <Overview
          data={data}
          fromDevice={view.fromDevice}
          pending={view.pending}
          error={view.error}
          reload={view.reload}
        />
      )}
    </Stack>
  );
}

function Overview(props: {
  readonly data: SecurityInsights;
  readonly fromDevice: boolean;
  readonly pending: boolean;
  readonly error: string | null;
  readonly reload: () => void;
}) {
  const { t } = useLingui();
  const { data } = props;
  const count = (state: InsightState) => data.checks.filter((c) => c.state === state).length;
  const failing = count('failing');
  const dismissed = count('dismissed');
  const passing = count('passing');
  const checks = [...data.checks].sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state]);
  return (
    <>
      <TakenNote
        takenAt={data.taken_at}
        fromDevice={props.fromDevice}
        pending={props.pending}
        error={props.error}
        onRetry={props.reload}
      />
      {props.fromDevice ? null : <PageError error={props.error} />}
      <Group gap="xs" data-testid="insights-summary">
        <Badge color="red" variant={failing > 0 ? 'filled' : 'light'}>
          <Trans>{failing} failing</Trans>
        </Badge>
        <Badge color="gray" variant="light">
          <Trans>{dismissed} dismissed</Trans>
        </Badge>
        <Badge color="green" variant="light">
          <Trans>{passing} passing</Trans>
        </Badge>
      </Group>
      {failing === 0 ? (
        <Alert color="green" data-testid="insights-all-pass">
          <Trans>No check fails.</Trans>
        </Alert>
      ) : null}
      <Paper withBorder p="md" component="section" aria-labelledby="insights-trend">
        <Title order={2} size="h4" id="insights-trend" mb="xs">
          <Trans>Failing checks over 90 days</Trans>
        </Title>
        {data.trend.length <= 1 ? (
          <Text size="sm" c="dimmed">
            <Trans>The trend grows by a day with every day the server takes its daily look.</Trans>
          </Text>
        ) : null}
        <DayBars
          slots={INSIGHT_LIMITS.historyDays}
          days={data.trend.map((d) => ({ day: d.day, value: d.failing }))}
          label={t`Failing checks`}
          color="var(--mantine-color-red-6)"
          testId="insights-trend-bars"
        />
      </Paper>
      <Stack gap="md">
        {checks.map((check) => (
          <CheckCard
            key={check.id}
            check={check}
            mayDismiss={data.may_dismiss}
            offline={props.fromDevice}
            onChanged={props.reload}
          />
        ))}
      </Stack>
    </>
  );
}

function CheckCard(props: {
  readonly check: InsightCheck;
  readonly mayDismiss: boolean;
  /** The state shown is the kept one: nothing can be changed now. */
  readonly offline: boolean;
  readonly onChanged: () => void;
}) {
  const { t, i18n } = useLingui();
  const { check } = props;
  const words = CHECK_WORDS[check.id];
  const headingId = `insight-${check.id}`;
  const [dismissing, setDismissing] = useState(false);
  const [restoreError, setRestoreError] = useState<string | null>(null);
  const [restoring, setRestoring] = useState(false);
  const restore = async () => {
    setRestoring(true);
    const answer = await callApi('DELETE', apiPaths.insightDismissal(check.id), z.unknown(), {
      envelope: false,
      quiet: true,
    });
    setRestoring(false);
    if ('error' in answer) {
      setRestoreError(translateServerText(i18n, callErrorText(answer.error)));
      return;
    }
    setRestoreError(null);
    props.onChanged();
  };
  const dismissal = check.dismissal;
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby={headingId}
      data-testid="insight-check"
      data-check={check.id}
      data-state={check.state}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Title order={2} size="h4" id={headingId}>
              {i18n._(words.title)}
            </Title>
            <Text size="sm" c="dimmed">
              {i18n._(words.what)}
            </Text>
          </Stack>
          <Group gap="xs" wrap="nowrap">
            <Badge color={STATE_COLORS[check.state]} data-testid="insight-state">
              {i18n._(STATE_WORDS[check.state])}
            </Badge>
            <Badge variant="outline" color="gray">
              <Trans>Severity: {i18n._(SEVERITY_WORDS[check.severity])}</Trans>
            </Badge>
          </Group>
        </Group>
        <Text size="sm" data-testid="insight-count">
          <CountText id={check.id} count={check.count} />
        </Text>
        {check.state === 'failing' ? (
          <Text size="sm">
            <Trans>What helps: {i18n._(words.fix)}</Trans>
          </Text>
        ) : null}
        {dismissal === null ? null : (
          <Alert color="gray" data-testid="insight-dismissal">
            <Trans>
              Dismissed until {absoluteTime(i18n, dismissal.expires_at)} by{' '}
              {dismissal.by ?? t`a former member`}: {dismissal.reason}
            </Trans>
          </Alert>
        )}
        {check.state === 'passing' ? null : <CheckItems check={check} />}
        {restoreError === null ? null : (
          <Alert color="red" role="alert">
            {restoreError}
          </Alert>
        )}
        {props.mayDismiss && check.state !== 'passing' ? (
          <Group gap="xs">
            {check.state === 'failing' ? (
              <Button
                size="xs"
                variant="default"
                disabled={props.offline}
                onClick={() => setDismissing(true)}
                data-testid="insight-dismiss"
              >
                <Trans>Dismiss…</Trans>
              </Button>
            ) : (
              <Button
                size="xs"
                variant="default"
                disabled={props.offline}
                loading={restoring}
                onClick={() => void restore()}
                data-testid="insight-restore"
              >
                <Trans>Take the dismissal back</Trans>
              </Button>
            )}
            {props.offline ? (
              <Text size="xs" c="dimmed">
                <Trans>Needs the server.</Trans>
              </Text>
            ) : null}
          </Group>
        ) : null}
      </Stack>
      <Modal
        opened={dismissing}
        onClose={() => setDismissing(false)}
        title={t`Dismiss: ${i18n._(words.title)}`}
      >
        {dismissing ? (
          <DismissForm
            checkId={check.id}
            onCancel={() => setDismissing(false)}
            onDone={() => {
              setDismissing(false);
              props.onChanged();
            }}
          />
        ) : null}
      </Modal>
    </Paper>
  );
}

/** What a check's count says, in its own words. */
function CountText(props: { readonly id: InsightCheckId; readonly count: number }) {
  const { count } = props;
  switch (props.id) {
    case 'admins':
      return <Plural value={count} one="# admin" other="# admins" />;
    case 'signin_refusals':
      return (
        <Plural
          value={count}
          one="# failed sign-in today and yesterday"
          other="# failed sign-ins today and yesterday"
        />
      );
    case 'broker_refusals':
      return (
        <Plural
          value={count}
          one="# broker refusal today and yesterday"
          other="# broker refusals today and yesterday"
        />
      );
    case 'second_factor':
    case 'inactive_members':
      return <Plural value={count} one="# member" other="# members" />;
    case 'tokens':
      return <Plural value={count} one="# token" other="# tokens" />;
    case 'gateway_agents':
    case 'revoked_keys':
      return <Plural value={count} one="# gateway" other="# gateways" />;
    case 'opcua_security':
      return <Plural value={count} one="# connection" other="# connections" />;
    default: {
      const unknown: never = props.id;
      return <>{String(unknown)}</>;
    }
  }
}
