import { afterEach, describe, expect, it } from 'vitest';
import {
  SIMULATOR_SHAPES,
  simulatorAddressSchema,
  type AgentConnection,
  type AgentDatapoint,
  type SimulatorAddress,
} from '@plant/shared-schema';
import { recordingContext } from '../testing/opcua-server';
import type { Connector, ConnectorContext } from './connector';
import { createSimulatorConnector } from './simulator-connector';
import { forStream, sampleAt, seedOf } from './simulator-curves';

const WAIT = { timeout: 30_000, interval: 20 } as const;
const STREAM_TYPES = ['number', 'state', 'boolean', 'text'] as const;
const connectors: Connector[] = [];
afterEach(async () => {
  await Promise.all(connectors.splice(0).map((c) => c.stop()));
});

function datapoint(
  id: string,
  address: Record<string, unknown>,
  streamType: AgentDatapoint['stream_type'] = 'number',
  extra: Partial<AgentDatapoint> = {},
): AgentDatapoint {
  return {
    id,
    datastream_id: `stream-${id}`,
    stream_type: streamType,
    address,
    deadband: 0,
    scale: 1,
    offset: 0,
    ...extra,
  };
}

function simulator(datapoints: AgentDatapoint[], intervalMs = 100): AgentConnection {
  return {
    id: 'sim-1',
    name: 'Simulator',
    protocol: 'simulator',
    settings: {},
    interval_ms: intervalMs,
    enabled: true,
    datapoints,
  };
}

function run(connection: AgentConnection, now?: () => number) {
  const recorded = recordingContext(connection);
  const ctx: ConnectorContext = now ? { ...recorded.ctx, now } : recorded.ctx;
  const connector = createSimulatorConnector(ctx);
  connectors.push(connector);
  connector.start();
  return { connector, ...recorded };
}

const address = (over: Partial<SimulatorAddress>): SimulatorAddress =>
  simulatorAddressSchema.parse(over);

describe('simulator connector', () => {
  it('gives every shape values of each stream type, at once and then every interval', async () => {
    const datapoints = SIMULATOR_SHAPES.flatMap((shape) =>
      STREAM_TYPES.map((type) => datapoint(`${shape}-${type}`, { shape }, type)),
    );
    // A 10 s interval (the spec's): the first values may not wait for it.
    const slow = run(simulator(datapoints, 10_000));
    await expect
      .poll(() => new Set(slow.readings.map((r) => r.datapoint.id)).size, { timeout: 5_000 })
      .toBe(datapoints.length);
    expect(slow.connector.status()).toMatchObject({ state: 'connected', error: null });
    expect(slow.statuses.map((s) => s.state)).toEqual(['connected']);
    for (const reading of slow.readings) {
      const type = reading.datapoint.stream_type;
      const { value } = reading;
      if (type === 'number') expect(Number.isFinite(value)).toBe(true);
      if (type === 'state') expect(Number.isInteger(value)).toBe(true);
      if (type === 'boolean') expect(typeof value).toBe('boolean');
      if (type === 'text') expect(typeof value).toBe('string');
      expect(reading.ts).toBeGreaterThan(0);
    }

    const fast = run(
      simulator([datapoint('temp', { shape: 'sine', min: 45, max: 85, period_s: 10 })]),
    );
    await expect.poll(() => fast.valuesOf('temp').length, WAIT).toBeGreaterThanOrEqual(5);
    for (const value of fast.valuesOf('temp')) {
      expect(value).toBeGreaterThanOrEqual(45);
      expect(value).toBeLessThanOrEqual(85);
    }
    expect(fast.connector.status().last_read).toBeGreaterThan(0);
  });

  it('is deterministic: the same datapoint id and time give the same values', async () => {
    const t = Date.UTC(2025, 0, 1, 12);
    const points = () => [
      datapoint('a', { shape: 'random-walk', min: 0, max: 1_000 }),
      datapoint('b', { shape: 'text' }, 'text'),
      datapoint('c', { shape: 'sine', min: 0, max: 1_000 }, 'number', { scale: 2, offset: 5 }),
    ];
    const one = run(simulator(points()), () => t);
    const two = run(simulator(points()), () => t);
    await expect.poll(() => one.readings.length, WAIT).toBeGreaterThanOrEqual(3);
    await expect.poll(() => two.readings.length, WAIT).toBeGreaterThanOrEqual(3);
    expect(two.readings.slice(0, 3)).toEqual(one.readings.slice(0, 3));
    // A constant clock: the values do not move, so nothing more is reported.
    expect(one.valuesOf('a')).toHaveLength(1);
    // Scaled like a device's value.
    const raw = sampleAt(address({ shape: 'sine', min: 0, max: 1_000 }), seedOf('c'), t).value;
    expect(one.valuesOf('c')).toEqual([Number(raw) * 2 + 5]);
    // Another id, another curve.
    const other = sampleAt(address({ shape: 'random-walk', min: 0, max: 1_000 }), seedOf('z'), t);
    expect(other.value).not.toBe(one.valuesOf('a')[0]);
  });

  it('reports by exception: a deadband holds back small moves', async () => {
    let t = Date.UTC(2025, 0, 1);
    const { valuesOf } = run(
      simulator([
        datapoint('all', { shape: 'ramp', min: 0, max: 100, period_s: 100 }),
        datapoint('db', { shape: 'ramp', min: 0, max: 100, period_s: 100 }, 'number', {
          deadband: 5,
        }),
      ]),
      () => (t += 1_000), // 1 % of the ramp per tick
    );
    await expect.poll(() => valuesOf('all').length, WAIT).toBeGreaterThanOrEqual(30);
    const all = valuesOf('all');
    const reported = valuesOf('db');
    expect(reported.length).toBeLessThan(all.length / 4);
    expect(reported.length).toBeGreaterThanOrEqual(4);
  });

  it('stops ticking on stop()', async () => {
    const ramp = { shape: 'ramp', period_s: 10 }; // a new value every tick
    const { connector, readings } = run(simulator([datapoint('v', ramp)]));
    await expect.poll(() => readings.length, WAIT).toBeGreaterThanOrEqual(2);
    await connector.stop();
    const count = readings.length;
    const other = run(simulator([datapoint('w', ramp)]));
    await expect.poll(() => other.readings.length, WAIT).toBeGreaterThanOrEqual(5);
    expect(readings).toHaveLength(count);
  });

  it('fails with a clear error for a datapoint it cannot simulate, and runs the others', async () => {
    const { connector, valuesOf } = run(
      simulator([
        datapoint('bad', { shape: 'square' }),
        datapoint('upside', { shape: 'sine', min: 10, max: 0 }),
        datapoint('good', { shape: 'sine' }),
      ]),
    );
    await expect.poll(() => valuesOf('good').length, WAIT).toBeGreaterThan(0);
    expect(connector.status()).toMatchObject({
      state: 'failed',
      error:
        "Datapoint bad has no valid simulator address; Datapoint upside: the simulator's max is below its min",
    });
  });
});

describe('simulator curves', () => {
  const seed = seedOf('datapoint-1');
  const start = Date.UTC(2025, 5, 1);
  const over = (periodMs: number, steps: number) =>
    Array.from({ length: steps }, (_, i) => start + (i * periodMs) / steps);

  it('sine: stays within its range, spans most of it over a period, moves smoothly', () => {
    const a = address({ shape: 'sine', min: 45, max: 85, period_s: 1_800 });
    const values = over(1_800_000, 360).map((t) => Number(sampleAt(a, seed, t).value));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(45);
    expect(Math.max(...values)).toBeLessThanOrEqual(85);
    expect(Math.max(...values) - Math.min(...values)).toBeGreaterThan(30);
    for (let i = 1; i < values.length; i++) {
      expect(Math.abs((values[i] ?? 0) - (values[i - 1] ?? 0))).toBeLessThan(6);
    }
  });

  it('ramp: climbs from min to max over a period, then starts again', () => {
    const a = address({ shape: 'ramp', min: 0, max: 100, period_s: 60 });
    const values = over(60_000, 60).map((t) => Number(sampleAt(a, seed, t).value));
    const drops = values.filter((v, i) => i > 0 && v < (values[i - 1] ?? 0));
    expect(drops).toHaveLength(1);
    expect(Math.min(...values)).toBeLessThan(5);
    expect(Math.max(...values)).toBeGreaterThan(95);
  });

  it('random walk: wanders within its range without jumps', () => {
    const a = address({ shape: 'random-walk', min: 800, max: 5_200, period_s: 3_600 });
    const values = over(4 * 3_600_000, 2_000).map((t) => Number(sampleAt(a, seed, t).value));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(800);
    expect(Math.max(...values)).toBeLessThanOrEqual(5_200);
    expect(Math.max(...values) - Math.min(...values)).toBeGreaterThan(1_500);
    for (let i = 1; i < values.length; i++) {
      expect(Math.abs((values[i] ?? 0) - (values[i - 1] ?? 0))).toBeLessThan(440);
    }
  });

  it('state: cycles through its states in order, each for a while', () => {
    const a = address({ shape: 'state', states: [1, 2, 0, 3], period_s: 600 });
    const values = over(600_000, 600).map((t) => sampleAt(a, seed, t).value);
    const runs = values.filter((v, i) => i === 0 || v !== values[i - 1]);
    // One cycle seen from somewhere in it: the order wraps around.
    const joined = runs.join(',');
    expect('1,2,0,3,1,2,0,3,1').toContain(joined);
    expect(new Set(values)).toEqual(new Set([0, 1, 2, 3]));
    const dwell = values.length / runs.length;
    expect(dwell).toBeGreaterThan(50);
  });

  it('boolean: toggles in stretches, on most of the time', () => {
    const a = address({ shape: 'boolean', period_s: 3_600 });
    // Every 30 s for 3 days: stretches of 5 minutes.
    const values = over(3 * 86_400_000, 8_640).map((t) => sampleAt(a, seed, t).value);
    const on = values.filter((v) => v === true).length / values.length;
    expect(on).toBeGreaterThan(0.55);
    expect(on).toBeLessThan(0.85);
    const toggles = values.filter((v, i) => i > 0 && v !== values[i - 1]).length;
    expect(toggles).toBeGreaterThan(100);
    expect(toggles).toBeLessThan(values.length / 5);
  });

  it('text: picks from its list (or a default one)', () => {
    const a = address({ shape: 'text', states: ['bread', 'croissant'] });
    const values = new Set(over(86_400_000, 500).map((t) => sampleAt(a, seed, t).value));
    expect(values).toEqual(new Set(['bread', 'croissant']));
    const fallback = new Set(
      over(86_400_000, 500).map((t) => sampleAt(address({ shape: 'text' }), seed, t).value),
    );
    expect(fallback).toEqual(new Set(['Idle', 'Running', 'Setup', 'Cleaning']));
  });

  it('fits samples to stream types', () => {
    const listedText = { value: 'Setup', level: 2 / 3, index: 2 };
    expect(forStream(listedText, 'state')).toBe(2);
    expect(forStream(listedText, 'boolean')).toBe(true);
    expect(forStream(listedText, 'text')).toBe('Setup');
    const zero = { value: 0, level: 0.5, index: 3 };
    expect(forStream(zero, 'boolean')).toBe(false);
    const continuous = { value: 70, level: 0.62 };
    expect(forStream(continuous, 'boolean')).toBe(true);
    expect(forStream({ value: false, level: 0 }, 'number')).toBe(0);
    expect(forStream({ value: true, level: 1 }, 'text')).toBe('on');
  });
});
