import { describe, expect, it } from 'vitest';
import type { AgentDatapoint } from '@plant/shared-schema';
import { coerceForStream, createValuePipeline } from './values';

const datapoint = (over: Partial<AgentDatapoint>): AgentDatapoint => ({
  id: 'd',
  datastream_id: 's',
  stream_type: 'number',
  address: {},
  deadband: 0,
  scale: 1,
  offset: 0,
  ...over,
});

describe('value pipeline', () => {
  it('scales numbers, rounds states, and types values for their streams', () => {
    expect(coerceForStream(datapoint({ scale: 0.1, offset: -10 }), 500)).toBeCloseTo(40, 10);
    expect(coerceForStream(datapoint({ stream_type: 'state', scale: 0.5 }), 5)).toBe(3);
    expect(coerceForStream(datapoint({}), true)).toBe(1);
    expect(coerceForStream(datapoint({}), '12.5')).toBe(12.5);
    expect(coerceForStream(datapoint({}), '')).toBeUndefined();
    expect(coerceForStream(datapoint({}), Number.NaN)).toBeUndefined();
    expect(coerceForStream(datapoint({ stream_type: 'boolean' }), 0)).toBe(false);
    expect(coerceForStream(datapoint({ stream_type: 'boolean' }), 'ON')).toBe(true);
    expect(coerceForStream(datapoint({ stream_type: 'boolean' }), 'maybe')).toBeUndefined();
    expect(coerceForStream(datapoint({ stream_type: 'text' }), 42)).toBe('42');
    expect(coerceForStream(datapoint({ stream_type: 'text' }), 'x'.repeat(2_000))).toHaveLength(
      1_000,
    );
  });

  it('reports the first value, then only moves beyond the deadband, or changes', () => {
    const number = createValuePipeline(datapoint({ deadband: 1 }));
    expect([10, 10.5, 11, 11.01, 10.2, 10.2, 20].map(number)).toEqual([
      10,
      undefined,
      undefined,
      11.01,
      undefined,
      undefined,
      20,
    ]);
    const exact = createValuePipeline(datapoint({}));
    expect([1, 1, 2].map(exact)).toEqual([1, undefined, 2]);
    const flag = createValuePipeline(datapoint({ stream_type: 'boolean', deadband: 5 }));
    expect([false, false, true].map(flag)).toEqual([false, undefined, true]);
  });
});
