import { describe, expect, it } from 'vitest';
import { assetStatusOf } from './asset-status-rule';
import { isStepped, stepFigures, stepLevels } from './stream-figures';

describe('an asset shown status (issue 30 item 8)', () => {
  const critical = { severity: 'critical', name: 'Spindle overspeed' } as const;
  it('never shows OK while a critical alarm is raised: it shows the alarm', () => {
    expect(assetStatusOf({ status: 'ok' }, critical)).toEqual({ status: 'alarm', alarm: critical });
    expect(assetStatusOf({ status: 'offline' }, critical).status).toBe('alarm');
    expect(assetStatusOf({ status: 'alarm' }, critical).alarm).toBe(critical);
  });
  it('a warning raises OK to Warning; info and no alarm leave the stored status', () => {
    const warning = { severity: 'warning', name: 'Warm' } as const;
    expect(assetStatusOf({ status: 'ok' }, warning).status).toBe('warning');
    expect(assetStatusOf({ status: 'offline' }, warning)).toEqual({
      status: 'offline',
      alarm: undefined,
    });
    expect(assetStatusOf({ status: 'ok' }, { severity: 'info', name: 'Note' }).status).toBe('ok');
    expect(assetStatusOf({ status: 'unknown' }, undefined).status).toBe('unknown');
  });
});

describe('stepped streams (issue 30 item 8)', () => {
  it('steps booleans and states, not numbers or texts', () => {
    expect(
      ['boolean', 'state', 'number', 'text'].map((type) => isStepped({ type } as never)),
    ).toEqual([true, true, false, false]);
  });
  it('labels a state stream at its coded states and every code seen', () => {
    const shape = { type: 'state', stateTexts: { '2': 'Manual', '0': 'Off', x: 'bad' } } as const;
    expect(stepLevels(shape, [1, 0, 'text'])).toEqual([0, 1, 2]);
    expect(stepLevels({ type: 'boolean', stateTexts: {} }, [0.5])).toEqual([0, 1]);
  });
  it('sums time On and changes with each value held until the next', () => {
    const figures = stepFigures([0, 10, 30, 40], [1, 0, 0, 1], 100);
    // On 0..10 and 40..100: 70 of 100.
    expect(figures).toEqual({ changes: 2, onShare: 0.7, last: 1 });
    expect(stepFigures([], [], 100)).toEqual({ changes: 0, onShare: null, last: undefined });
  });
});
