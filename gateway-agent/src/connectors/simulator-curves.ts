import type { AgentDatapoint, SimulatorAddress } from '@plant/shared-schema';
import type { RawValue } from './values';

/**
 * The simulator's curves (spec 001 §9): each value is a pure function of the datapoint's seed and
 * the time, so the same seed gives the same curve, and a restarted agent carries on where the
 * curve was instead of starting over.
 *
 *   sine         smooth wave over `period_s` between min and max, a little noise on top
 *   ramp         sawtooth from min to max over `period_s`, then back to min
 *   random-walk  wanders between min and max (value noise of several scales: a slow drift
 *                over `period_s`, smaller wiggles down to `period_s` / 125)
 *   state        cycles through `states` (default 0, 1, 2, 3) once per `period_s`, each one
 *                dwelling a seeded share of the cycle
 *   boolean      on or off in stretches of `period_s` / 12, on about 70 % of the time
 *   text         one of `states` (default Idle, Running, Setup, Cleaning) per stretch of
 *                `period_s` / 8, picked by the seed
 */

export const DEFAULT_STATES = [0, 1, 2, 3] as const;
export const DEFAULT_TEXTS = ['Idle', 'Running', 'Setup', 'Cleaning'] as const;

/** A curve's value at one time: itself, where it lies in its range (0…1), its list position. */
export interface Sample {
  readonly value: number | string | boolean;
  /** 0…1: for continuous shapes the position between min and max; else 0 or 1 (or the index). */
  readonly level: number;
  /** The position in `states` for state and text shapes. */
  readonly index?: number;
}

/** A datapoint's seed, from its id (FNV-1a, 32 bits). */
export function seedOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The curve's sample at time `t` (ms since epoch). */
export function sampleAt(address: SimulatorAddress, seed: number, t: number): Sample {
  const { min, max } = address;
  const periodMs = address.period_s * 1_000;
  const phase = unit(seed, 1);
  switch (address.shape) {
    case 'sine': {
      const wave = Math.sin(2 * Math.PI * (t / periodMs + phase));
      // Noise changes once a second: values at the same second agree.
      const noise = (unit(seed, 2, Math.floor(t / 1_000)) - 0.5) * 0.1;
      return continuous(min, max, 0.5 + wave * 0.425 + noise);
    }
    case 'ramp':
      return continuous(min, max, frac(t / periodMs + phase));
    case 'random-walk': {
      const octaves = [
        { wavelength: periodMs, weight: 0.55 },
        { wavelength: periodMs / 5, weight: 0.25 },
        { wavelength: periodMs / 25, weight: 0.13 },
        { wavelength: Math.max(1_000, periodMs / 125), weight: 0.07 },
      ];
      let sum = 0;
      for (const [o, { wavelength, weight }] of octaves.entries()) {
        sum += weight * valueNoise(seed, 10 + o, t / wavelength + unit(seed, 20 + o));
      }
      // The weighted sum bunches around the middle: spread it back out over the range.
      return continuous(min, max, 0.5 + (sum - 0.5) * 1.6);
    }
    case 'state': {
      const states = address.states.length > 0 ? address.states : DEFAULT_STATES;
      const weights = states.map((_, i) => 0.5 + unit(seed, 100 + i));
      const total = weights.reduce((a, b) => a + b, 0);
      let at = frac(t / periodMs + phase) * total;
      let index = 0;
      for (; index < weights.length - 1; index++) {
        at -= weights[index] ?? 0;
        if (at < 0) break;
      }
      return listed(states, index);
    }
    case 'boolean': {
      const on = unit(seed, 3, Math.floor(t / (periodMs / 12) + phase)) < 0.7;
      return { value: on, level: on ? 1 : 0 };
    }
    case 'text': {
      const texts = address.states.length > 0 ? address.states : DEFAULT_TEXTS;
      const slot = Math.floor(t / (periodMs / 8) + phase);
      return listed(texts, Math.floor(unit(seed, 4, slot) * texts.length));
    }
    default: {
      const unknown: never = address.shape;
      throw new Error(`Unknown simulator shape ${String(unknown)}`);
    }
  }
}

/**
 * A sample as a raw value that suits the datapoint's stream: numbers for number and state
 * streams (a listed text becomes its position), booleans for boolean streams (continuous shapes
 * are on in the upper half of their range, listed ones on when not the first or not 0), texts for
 * text streams.
 */
export function forStream(sample: Sample, streamType: AgentDatapoint['stream_type']): RawValue {
  const { value, level, index } = sample;
  switch (streamType) {
    case 'number':
    case 'state':
      if (typeof value === 'number') return value;
      if (typeof value === 'boolean') return value ? 1 : 0;
      return index ?? 0;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (index !== undefined) return typeof value === 'number' ? value !== 0 : index !== 0;
      return level >= 0.5;
    case 'text':
      return typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value);
    default: {
      const unknown: never = streamType;
      throw new Error(`Unknown stream type ${String(unknown)}`);
    }
  }
}

function continuous(min: number, max: number, level: number): Sample {
  const clamped = Math.min(1, Math.max(0, level));
  const range = max - min;
  // Readable values: about 3 significant digits of the range (45…85 °C → 0.1 °C).
  const decimals =
    range === 0 ? 0 : Math.min(6, Math.max(0, 3 - Math.ceil(Math.log10(Math.abs(range)))));
  const factor = 10 ** decimals;
  return { value: Math.round((min + clamped * range) * factor) / factor, level: clamped };
}

function listed(list: readonly (number | string)[], index: number): Sample {
  const i = Math.min(list.length - 1, Math.max(0, index));
  return { value: list[i] ?? 0, level: list.length > 1 ? i / (list.length - 1) : 0, index: i };
}

function frac(x: number): number {
  return x - Math.floor(x);
}

/** Smoothly interpolated seeded values at integer points of `x`: one octave of value noise. */
function valueNoise(seed: number, channel: number, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const s = f * f * (3 - 2 * f);
  return unit(seed, channel, i) * (1 - s) + unit(seed, channel, i + 1) * s;
}

/** A seeded number in [0, 1) for (channel, n): the same inputs, the same number. */
function unit(seed: number, channel: number, n = 0): number {
  // n may exceed 32 bits (ms since epoch / a short wavelength): fold the high part in.
  const low = n >>> 0;
  const high = Math.floor(n / 2 ** 32) >>> 0;
  let x = seed ^ Math.imul(channel + 1, 0x9e3779b1);
  x = mix(x ^ low);
  x = mix(x ^ high);
  return x / 2 ** 32;
}

/** An integer finaliser: every input bit affects every output bit. */
function mix(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}
