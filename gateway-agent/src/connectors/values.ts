import { GATEWAY_LIMITS, type AgentDatapoint, type PointValue } from '@plant/shared-schema';

/** A device value as JavaScript has it, before the datapoint's scaling and typing. */
export type RawValue = number | boolean | string;

/** One datapoint's pipeline: the value to send for a raw one, or undefined for none. */
export type PointValueFilter = (raw: RawValue) => PointValue | undefined;

/**
 * The datapoint's pipeline for the raw values of the polling connectors (Modbus TCP, S7, the
 * simulator): scale and offset, typing for its stream, then report by exception (the first value
 * always, later ones when they moved more than the deadband, or changed for booleans and texts).
 * Returns undefined when nothing is to be sent.
 *
 * Same rules as the OPC UA connector's filter (opcua-values.ts), without its node-opcua import.
 */
export function createValuePipeline(datapoint: AgentDatapoint): PointValueFilter {
  let last: PointValue | undefined;
  return (raw) => {
    const value = coerceForStream(datapoint, raw);
    if (value === undefined) return undefined;
    if (last !== undefined && !movedBeyond(last, value, datapoint.deadband)) return undefined;
    last = value;
    return value;
  };
}

/** The raw value typed for the datapoint's stream (numbers scaled), or undefined when it has none. */
export function coerceForStream(datapoint: AgentDatapoint, raw: RawValue): PointValue | undefined {
  const type = datapoint.stream_type;
  switch (type) {
    case 'number':
    case 'state': {
      // Number('') is 0: an empty text is no value.
      const n = typeof raw === 'string' && raw.trim() === '' ? NaN : Number(raw);
      const scaled = n * datapoint.scale + datapoint.offset;
      if (!Number.isFinite(scaled)) return undefined;
      return type === 'state' ? Math.round(scaled) : scaled;
    }
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (typeof raw === 'number') return Number.isNaN(raw) ? undefined : raw !== 0;
      return /^(true|1|on)$/i.test(raw) ? true : /^(false|0|off)$/i.test(raw) ? false : undefined;
    case 'text':
      return String(raw).slice(0, GATEWAY_LIMITS.textValueChars);
    default: {
      const unknownType: never = type;
      throw new Error(`Unknown stream type ${String(unknownType)}`);
    }
  }
}

function movedBeyond(last: PointValue, value: PointValue, deadband: number): boolean {
  if (typeof value === 'number' && typeof last === 'number') {
    return Math.abs(value - last) > deadband;
  }
  return value !== last;
}
