import { useEffect, useMemo, useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, List, Loader, Paper, Stack, Text } from '@mantine/core';
import type { AlarmRule } from '@plant/shared-schema';
import type { HistoryQuery, HistoryResult } from '@plant/sync-worker/api';
import { useHistory } from '../../sync/values';
import { absoluteTime } from '../../components/time-ago';
import { numericPoints, trialOutcome } from './alarm-trial';

/** The history a trial reads: the last 24 hours. */
const TRIAL_MS = 24 * 3_600_000;
/** Points asked for: enough that a day of a value a minute arrives whole. */
const TRIAL_POINTS = 10_000;
/** How long an empty first answer (the cache's) waits for a server read to start. */
const SETTLE_MS = 1_500;
/** Raise times listed (the newest). */
const SHOWN_TIMES = 10;

/** The stream's last day as a trial reads it (the form's defaults read it too). */
export interface TrialHistory {
  /** Reads the last 24 hours again (from now). */
  readonly start: () => void;
  /** Whether a read was asked for. */
  readonly started: boolean;
  /** The answer, once it is final (not the cache's first word while the server is asked). */
  readonly history: HistoryResult | undefined;
  readonly ready: boolean;
  /** Its numeric points, in time order (empty until ready). */
  readonly points: readonly [number, number][];
}

/**
 * The stream's last day from the worker's values cache (and the server for what the cache lacks,
 * when it can be reached). With `auto`, read as soon as the stream is known (a new alarm: its
 * defaults and its trial need it); else on `start`.
 */
export function useTrialHistory(streamId: string, auto: boolean): TrialHistory {
  const [range, setRange] = useState<{ from: number; to: number } | null>(null);
  const query: HistoryQuery | null = useMemo(
    () =>
      range === null || streamId === ''
        ? null
        : { streams: [streamId], range, points: TRIAL_POINTS },
    [range, streamId],
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
  }, [range, streamId]);
  const start = () => {
    const to = Date.now();
    setSettled(false);
    setSawLoading(false);
    setRange({ from: to - TRIAL_MS, to });
  };
  useEffect(() => {
    if (auto && streamId !== '') start();
  }, [auto, streamId]);
  const empty = (history?.series[0]?.ts.length ?? 0) === 0;
  const ready =
    query !== null &&
    history !== undefined &&
    !history.loading &&
    (!empty || history.offline || sawLoading || settled);
  const series = ready ? history.series[0] : undefined;
  const points = useMemo(
    () => (series === undefined ? [] : numericPoints(series.ts, series.values)),
    [series],
  );
  return { start, started: query !== null, history: ready ? history : undefined, ready, points };
}

/**
 * "Try this rule on the last 24 hours" (issue 17 item 3): the stream's last day replayed through
 * the form's current rule with the evaluator's own code: how often it would have fired, and when;
 * and how often without its delay and hysteresis, so the user sees what they save. It follows
 * the form as the user edits it.
 */
export function TryRule(props: {
  readonly streamId: string;
  readonly rule: AlarmRule | null;
  readonly trial: TrialHistory;
}) {
  const { t } = useLingui();
  const { trial } = props;
  return (
    <Paper withBorder p="sm" radius="sm" data-testid="try-rule">
      <Stack gap="xs">
        <Group justify="space-between">
          <Button
            variant="light"
            onClick={trial.start}
            disabled={props.rule === null || props.streamId === ''}
            data-testid="try-rule-start"
          >
            <Trans>Try this rule on the last 24 hours</Trans>
          </Button>
          {trial.started && !trial.ready ? (
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
        {trial.history !== undefined && props.rule !== null ? (
          <TrialOutcomeText
            rule={props.rule}
            points={trial.points}
            until={trial.history.to}
            offline={trial.history.offline}
            downsampled={trial.history.series[0]?.downsampled ?? false}
            label={t`Times it would have fired`}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

function TrialOutcomeText(props: {
  readonly rule: AlarmRule;
  readonly points: readonly (readonly [number, number])[];
  readonly until: number;
  readonly offline: boolean;
  readonly downsampled: boolean;
  readonly label: string;
}) {
  const { i18n } = useLingui();
  const outcome = useMemo(
    () => trialOutcome(props.rule, props.points, props.until),
    [props.rule, props.points, props.until],
  );

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
  const fired = outcome.fired;
  const plain = outcome.plain;
  const count = outcome.points;
  const times = outcome.times.slice(-SHOWN_TIMES).reverse();
  return (
    <Stack gap={6} aria-live="polite">
      <Text data-testid="try-rule-fired" data-count={fired}>
        {fired === 0 ? (
          <Trans>
            Over the last 24 hours (<Plural value={count} one="# value" other="# values" />) this
            rule would not have fired.
          </Trans>
        ) : fired === 1 ? (
          <Trans>
            Over the last 24 hours (<Plural value={count} one="# value" other="# values" />) this
            rule would have fired once.
          </Trans>
        ) : (
          <Trans>
            Over the last 24 hours (<Plural value={count} one="# value" other="# values" />) this
            rule would have fired {fired} times.
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
