import type { StreamShape } from './stream-values';

/*
 * What a boolean or state stream's diagram and figures read (issue 30 item 8): such a stream
 * holds one value until the next, so it is drawn as steps over its levels (On/Off, the state
 * texts) and summed up by time and changes, never by an average of its codes.
 */

/** Booleans and states: drawn as steps, labelled by their texts. */
export function isStepped(shape: Pick<StreamShape, 'type'>): boolean {
  return shape.type === 'boolean' || shape.type === 'state';
}

/**
 * The y positions a stepped stream's axis labels: 0 and 1 for booleans; for states every code
 * with a text and every number seen, in order.
 */
export function stepLevels(
  shape: Pick<StreamShape, 'type' | 'stateTexts'>,
  values: readonly (number | string)[],
): number[] {
  if (shape.type === 'boolean') return [0, 1];
  const levels = new Set<number>();
  for (const key of Object.keys(shape.stateTexts)) {
    const n = Number(key);
    if (key.trim() !== '' && Number.isFinite(n)) levels.add(n);
  }
  for (const v of values) if (typeof v === 'number' && Number.isFinite(v)) levels.add(v);
  return [...levels].sort((a, b) => a - b);
}

export interface StepFigures {
  /** How often the value changed between consecutive points. */
  readonly changes: number;
  /** Booleans: the share (0 to 1) of the time with values that was On; null without time. */
  readonly onShare: number | null;
  /** The last value. */
  readonly last: number | string | undefined;
}

/**
 * A stepped stream's figures over its points: each value holds until the next point, the last
 * one until `end` (the range's end, or now when that is earlier).
 */
export function stepFigures(
  ts: readonly number[],
  values: readonly (number | string)[],
  end: number,
): StepFigures {
  let changes = 0;
  let on = 0;
  let total = 0;
  for (let i = 0; i < ts.length; i++) {
    const start = ts[i] ?? 0;
    const stop = Math.max(start, i + 1 < ts.length ? (ts[i + 1] ?? start) : end);
    total += stop - start;
    const value = values[i];
    if (value === 1 || value === '1' || value === 'true') on += stop - start;
    if (i > 0 && String(values[i - 1]) !== String(value)) changes += 1;
  }
  return { changes, onShare: total > 0 ? on / total : null, last: values.at(-1) };
}
