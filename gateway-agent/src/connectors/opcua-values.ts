import { DataType, VariantArrayType, type Variant } from 'node-opcua-client';
import { GATEWAY_LIMITS, type AgentDatapoint, type PointValue } from '@plant/shared-schema';

/** A device value as JavaScript has it, before the datapoint's scaling and typing. */
export type RawValue = number | boolean | string;

/**
 * A Variant's scalar value as a RawValue, or a reason why not (arrays, structures and empty
 * values are not stream values).
 */
export function rawFromVariant(variant: Variant): { value: RawValue } | { problem: string } {
  if (variant.arrayType !== VariantArrayType.Scalar) {
    return { problem: `arrays are not supported (${DataType[variant.dataType]})` };
  }
  const value: unknown = variant.value;
  const type = variant.dataType;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') {
    return { value };
  }
  // node-opcua keeps 64-bit integers as [high, low] words; beyond 2^53 precision is lost.
  if ((type === DataType.Int64 || type === DataType.UInt64) && Array.isArray(value)) {
    const words: unknown[] = value;
    const [high, low] = words;
    if (typeof high === 'number' && typeof low === 'number') return { value: high * 2 ** 32 + low };
  }
  if (value instanceof Date) return { value: value.getTime() };
  if (type === DataType.LocalizedText && typeof value === 'object' && value && 'text' in value) {
    if (typeof value.text === 'string') return { value: value.text };
  }
  if (type === DataType.QualifiedName && typeof value === 'object' && value && 'name' in value) {
    if (typeof value.name === 'string') return { value: value.name };
  }
  return { problem: `no value of type ${DataType[variant.dataType] ?? variant.dataType}` };
}

/**
 * The datapoint's pipeline for one raw value: scale and offset, typing for its stream, then
 * report by exception (the first value always, later ones when they moved more than the
 * deadband, or changed for booleans and texts). Returns undefined when nothing is to be sent.
 *
 * Written here while connectors/shared/ did not exist yet: to be replaced by the shared helpers.
 */
export function createValueFilter(
  datapoint: AgentDatapoint,
): (raw: RawValue) => PointValue | undefined {
  let last: PointValue | undefined;
  return (raw) => {
    const value = coerce(datapoint, raw);
    if (value === undefined) return undefined;
    if (last !== undefined) {
      const moved =
        typeof value === 'number' && typeof last === 'number'
          ? Math.abs(value - last) > datapoint.deadband
          : value !== last;
      if (!moved) return undefined;
    }
    last = value;
    return value;
  };
}

function coerce(datapoint: AgentDatapoint, raw: RawValue): PointValue | undefined {
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
      if (typeof raw === 'number') return raw !== 0;
      return /^(true|1|on)$/i.test(raw) ? true : /^(false|0|off)$/i.test(raw) ? false : undefined;
    case 'text':
      return String(raw).slice(0, GATEWAY_LIMITS.textValueChars);
    default: {
      const unknownType: never = type;
      throw new Error(`Unknown stream type ${String(unknownType)}`);
    }
  }
}
