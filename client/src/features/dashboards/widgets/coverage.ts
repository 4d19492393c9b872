import type { HistoryResult } from '@plant/sync-worker/api';

/*
 * What part of its range a widget shows when the server cannot be reached (issue 31 item 3): the
 * worker says per stream which parts of the range its cache holds (`HistorySeries.held`); the
 * widget says 'Showing 10:00 to 11:20 of 09:00 to 11:20'. Pure, unit-tested.
 */

/** A held part shorter than this before the end still counts as reaching it (live lag). */
export const COVERAGE_SLACK_MS = 90_000;

export type Coverage =
  /** Everything the range asks for is here (or nothing asked yet). */
  | { readonly kind: 'full' }
  /** Part of it: from the earliest to the latest held time, of all the streams. */
  | { readonly kind: 'part'; readonly from: number; readonly to: number }
  /** Nothing of the range is stored on this device. */
  | { readonly kind: 'none' };

/**
 * How much of the range [from, to] the widget's reads hold, across their streams: from the
 * earliest held start to the latest held end. Within `COVERAGE_SLACK_MS` of either end counts as
 * the end (values arrive a little late, and a moving range's end is now).
 */
export function coverageOf(
  results: readonly (Pick<HistoryResult, 'from' | 'to' | 'series'> | undefined)[],
  slack = COVERAGE_SLACK_MS,
): Coverage {
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  let rangeFrom = Number.POSITIVE_INFINITY;
  let rangeTo = Number.NEGATIVE_INFINITY;
  let gaps = false;
  let any = false;
  for (const result of results) {
    if (result === undefined) continue;
    any = true;
    rangeFrom = Math.min(rangeFrom, result.from);
    rangeTo = Math.max(rangeTo, result.to);
    for (const series of result.series) {
      const held = series.held;
      const first = held[0];
      const last = held.at(-1);
      if (first === undefined || last === undefined) {
        gaps = true;
        continue;
      }
      from = Math.min(from, first.from);
      to = Math.max(to, last.to);
      if (first.from > result.from + slack || last.to < result.to - slack) gaps = true;
      for (let i = 1; i < held.length; i++) {
        if ((held[i]?.from ?? 0) - (held[i - 1]?.to ?? 0) > slack) gaps = true;
      }
    }
  }
  if (!any || !gaps) return { kind: 'full' };
  if (from === Number.POSITIVE_INFINITY) return { kind: 'none' };
  return { kind: 'part', from: Math.max(from, rangeFrom), to: Math.min(to, rangeTo) };
}
