import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import type { HistoryResult } from '@plant/sync-worker/api';
import { serverReachableAtom } from '../../../sync/status';
import { coverageOf } from './coverage';
import type { StreamState } from './shared-reads';

/*
 * What every widget of streams shares: 'not available' for a stream the store does not hold (the
 * user may not see it, or it is gone: never its data), and, while the server cannot be reached,
 * which part of the range the cached values cover.
 */

/** A stream the store does not hold: its name and values are not shown. */
export function NotAvailable() {
  return (
    <Text c="dimmed" size="sm" data-testid="widget-not-available">
      <Trans>Not available</Trans>
    </Text>
  );
}

/** The body of a widget while its streams load, or with none chosen. */
export function WidgetMessage(props: { readonly children: ReactNode; readonly testId?: string }) {
  return (
    <Text c="dimmed" size="sm" data-testid={props.testId}>
      {props.children}
    </Text>
  );
}

/** The time of a range's end as the note says it: with the day when not today. */
function when(i18n: ReturnType<typeof useLingui>['i18n'], ts: number, withDay: boolean): string {
  return withDay
    ? i18n.date(new Date(ts), {
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      })
    : i18n.date(new Date(ts), { hour: '2-digit', minute: '2-digit' });
}

/**
 * Offline (the worker could not read the range, or this page does not hear the server): which
 * part of the range the widget's values come from. Nothing while online and complete.
 */
export function CoverageNote(props: { readonly results: readonly (HistoryResult | undefined)[] }) {
  const { i18n } = useLingui();
  const reachable = useAtomValue(serverReachableAtom);
  const offline = !reachable || props.results.some((r) => r?.offline === true);
  if (!offline) return null;
  const first = props.results.find((r) => r !== undefined);
  if (first === undefined) return null;
  const coverage = coverageOf(props.results);
  const long = first.to - first.from > 20 * 3_600_000;
  const rangeFrom = when(i18n, first.from, long);
  const rangeTo = when(i18n, first.to, long);
  let text: ReactNode;
  if (coverage.kind === 'full') {
    text = (
      <Trans>
        Showing the stored values of {rangeFrom} to {rangeTo} (offline)
      </Trans>
    );
  } else if (coverage.kind === 'none') {
    text = (
      <Trans>
        No values of {rangeFrom} to {rangeTo} are stored on this device (offline)
      </Trans>
    );
  } else {
    const heldFrom = when(i18n, coverage.from, long);
    const heldTo = when(i18n, coverage.to, long);
    text = (
      <Trans>
        Showing {heldFrom} to {heldTo} of {rangeFrom} to {rangeTo} (offline)
      </Trans>
    );
  }
  return (
    <Text
      size="xs"
      c="dimmed"
      role="status"
      data-testid="widget-coverage"
      data-coverage={coverage.kind}
    >
      {text}
    </Text>
  );
}

/** The streams of a widget, or what stands in their place. */
export function StreamsGate(props: {
  readonly states: readonly StreamState[];
  readonly children: ReactNode;
}) {
  const { states } = props;
  if (states.length === 0) {
    return (
      <WidgetMessage testId="widget-no-streams">
        <Trans>No data streams chosen.</Trans>
      </WidgetMessage>
    );
  }
  if (states.some((s) => s.name === 'loading')) {
    return <Stack aria-busy data-testid="widget-loading" />;
  }
  if (states.every((s) => s.name === 'missing')) return <NotAvailable />;
  return <>{props.children}</>;
}
