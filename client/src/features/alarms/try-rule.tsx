import { useEffect, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, List, Loader, Paper, Stack, Text } from '@mantine/core';
import { replay, type AlarmRule } from '@plant/shared-schema';
import type { HistoryQuery } from '@plant/sync-worker/api';
import { useHistory } from '../../sync/values';
import { absoluteTime } from './alarm-parts';

/** The history a trial reads: the last 24 hours. */
const TRIAL_MS = 24 * 3_600_000;
/** Points asked for: enough that a day of a value a minute arrives whole. */
const TRIAL_POINTS = 10_000;
/** How long an empty first answer (the cache's) waits for a server read to start. */
const SETTLE_MS = 1_500;
/** Raise times listed (the newest). */
const SHOWN_TIMES = 10;

/**
 * "Try this rule on the last 24 hours" (issue 17 item 3): the stream's last day from the worker's
 * values cache (and the server for what the cache lacks, when it can be reached), replayed through
 * the form's current rule with the evaluator's own code: how often it would have fired, and when;
 * and how often without its delay and hysteresis, so the user sees what they save. It follows
 * the form as the user edits it.
 */
export function TryRule(props: { readonly streamId: string; readonly rule: AlarmRule | null }) {
  const { t } = useLingui();
  const [range, setRange] = useState<{ from: number; to: number } | null>(null);
  const query: HistoryQuery | null = useMemo(
    () =>
      range === null || props.streamId === ''
        ? null
        : { streams: [props.streamId], range, points: TRIAL_POINTS },
    [range, props.streamId],
  );
  const history = useHistory(query);
  // The first answer is the cache's alone, before the worker asks the server for what it lacks:
  // an empty one is final only once a read ran, or after a moment with none started.
  const [settled, setSettled] = useState(false);
  const [sawLoading, setSawLoading] = useState(false);
  if (history?.loading === true && !sawLoading) setSawLoading(true);
  useEffect(() => {
    if (range === null) return;
    const timer = setTimeout(() => setSettled(true), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [range]);
  const start = () => {
    const to = Date.now();
    setSettled(false);
    setSawLoading(false);
    setRange({ from: to - TRIAL_MS, to });
  };
  const empty = (history?.series[0]?.ts.length ?? 0) === 0;
  const ready =
    history !== undefined &&
    !history.loading &&
    (!empty || history.offline || sawLoading || settled);
  return (
    <Paper withBorder p="sm" radius="sm" data-testid="try-rule">
      <Stack gap="xs">
        <Group justify="space-between">
          <Button
            variant="light"
            onClick={start}
            disabled={props.rule === null || props.streamId === ''}
            data-testid="try-rule-start"
          >
            <Trans>Try this rule on the last 24 hours</Trans>
          </Button>
          {query !== null && !ready ? (
            <Group gap={6} role="status">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                <Trans>Reading the values…</Trans>
              </Text>
            </Group>
          ) : null}
        </Group>
        {props.rule === null ? (
          <Text size="sm" c="dimmed">
            <Trans>Give the rule valid limits to try it.</Trans>
          </Text>
        ) : null}
        {query !== null && history !== undefined && ready && props.rule !== null ? (
          <TrialOutcome
            rule={props.rule}
            ts={history.series[0]?.ts ?? []}
            values={history.series[0]?.values ?? []}
            until={history.to}
            offline={history.offline}
            downsampled={history.series[0]?.downsampled ?? false}
            label={t`Times it would have fired`}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

function TrialOutcome(props: {
  readonly rule: AlarmRule;
  readonly ts: readonly number[];
  readonly values: readonly (number | string)[];
  readonly until: number;
  readonly offline: boolean;
  readonly downsampled: boolean;
  readonly label: string;
}) {
  const { i18n } = useLingui();
  const outcome = useMemo(() => {
    const points: [number, number][] = [];
    props.ts.forEach((ts, i) => {
      const v = props.values[i];
      if (typeof v === 'number') points.push([ts, v]);
    });
    if (points.length === 0) return null;
    const withRule = replay(props.rule, points, { until: props.until });
    const plain = replay({ ...props.rule, delay_s: 0, hysteresis: 0 }, points, {
      until: props.until,
    });
    return { points: points.length, withRule, plain };
  }, [props.rule, props.ts, props.values, props.until]);

  if (outcome === null) {
    return (
      <Alert color="gray" data-testid="try-rule-empty">
        {props.offline ? (
          <Trans>
            This device has no values of this data stream for the last 24 hours, and the server
            cannot be reached.
          </Trans>
        ) : (
          <Trans>This data stream has no values in the last 24 hours.</Trans>
        )}
      </Alert>
    );
  }
  const fired = outcome.withRule.fired;
  const plain = outcome.plain.fired;
  const count = outcome.points;
  const times = outcome.withRule.times.slice(-SHOWN_TIMES).reverse();
  return (
    <Stack gap={6} aria-live="polite">
      <Text data-testid="try-rule-fired" data-count={fired}>
        {fired === 0 ? (
          <Trans>Over the last 24 hours ({count} values) this rule would not have fired.</Trans>
        ) : fired === 1 ? (
          <Trans>Over the last 24 hours ({count} values) this rule would have fired once.</Trans>
        ) : (
          <Trans>
            Over the last 24 hours ({count} values) this rule would have fired {fired} times.
          </Trans>
        )}
      </Text>
      {props.rule.delay_s > 0 || props.rule.hysteresis > 0 ? (
        <Text size="sm" data-testid="try-rule-plain" data-count={plain}>
          <Trans>Without the delay and hysteresis it would have fired {plain} times.</Trans>
        </Text>
      ) : null}
      {times.length > 0 ? (
        <List size="sm" aria-label={props.label} data-testid="try-rule-times">
          {times.map((time) => (
            <List.Item key={time}>{absoluteTime(i18n, time)}</List.Item>
          ))}
        </List>
      ) : null}
      {props.offline ? (
        <Text size="xs" c="dimmed" data-testid="try-rule-offline">
          <Trans>From the values stored on this device: the server cannot be reached.</Trans>
        </Text>
      ) : null}
      {props.downsampled ? (
        <Text size="xs" c="dimmed">
          <Trans>The day has more values than were read: the counts are close, not exact.</Trans>
        </Text>
      ) : null}
    </Stack>
  );
}
