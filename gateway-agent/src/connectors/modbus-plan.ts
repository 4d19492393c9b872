import {
  modbusAddressSchema,
  type AgentDatapoint,
  type ModbusAddress,
  type ModbusDatatype,
} from '@plant/shared-schema';

/**
 * Which Modbus requests read a connection's datapoints, and how their answers decode. Pure: the
 * connector (modbus-tcp-connector.ts) sends the requests.
 */

export type ModbusArea = ModbusAddress['area'];

/** The most one request may ask for (Modbus application protocol, §6.1–6.4). */
export const MODBUS_MAX = { registers: 125, bits: 2_000 } as const;

export interface PlannedPoint {
  readonly datapoint: AgentDatapoint;
  readonly address: ModbusAddress;
}

/** One read request: `count` registers (or bits) of `area` from `start`, and who is in it. */
export interface ReadGroup {
  readonly area: ModbusArea;
  readonly start: number;
  readonly count: number;
  readonly points: readonly PlannedPoint[];
}

export interface ReadPlan {
  readonly groups: ReadGroup[];
  /** Datapoints that cannot be read (their address does not fit), in plain words. */
  readonly problems: string[];
}

export const isBitArea = (area: ModbusArea): boolean => area === 'coil' || area === 'discrete';

/** Registers a datatype takes (bits: 1). */
export function widthOf(address: ModbusAddress): number {
  if (isBitArea(address.area)) return 1;
  return REGISTERS[address.datatype];
}

const REGISTERS: Record<ModbusDatatype, number> = {
  int16: 1,
  uint16: 1,
  int32: 2,
  uint32: 2,
  float32: 2,
};

/**
 * Groups contiguous (or overlapping) addresses of one area into as few requests as the limits
 * allow. Gaps are never read across: a device may refuse addresses it does not have.
 */
export function planModbusReads(datapoints: readonly AgentDatapoint[]): ReadPlan {
  const problems: string[] = [];
  const points: PlannedPoint[] = [];
  for (const datapoint of datapoints) {
    const parsed = modbusAddressSchema.safeParse(datapoint.address);
    if (!parsed.success) {
      problems.push(`Datapoint ${datapoint.id} has no valid Modbus address`);
      continue;
    }
    const address = parsed.data;
    if (address.index + widthOf(address) - 1 > 65_535) {
      problems.push(
        `${describeRange(address.area, address.index, widthOf(address))} is beyond 65535`,
      );
      continue;
    }
    points.push({ datapoint, address });
  }
  points.sort(
    (a, b) =>
      AREA_ORDER[a.address.area] - AREA_ORDER[b.address.area] ||
      a.address.index - b.address.index ||
      widthOf(b.address) - widthOf(a.address),
  );

  const groups: ReadGroup[] = [];
  let current: { area: ModbusArea; start: number; end: number; points: PlannedPoint[] } | undefined;
  for (const point of points) {
    const { area, index } = point.address;
    const end = index + widthOf(point.address) - 1;
    const limit = isBitArea(area) ? MODBUS_MAX.bits : MODBUS_MAX.registers;
    if (
      current?.area === area &&
      index <= current.end + 1 &&
      Math.max(current.end, end) - current.start + 1 <= limit
    ) {
      current.end = Math.max(current.end, end);
      current.points.push(point);
      continue;
    }
    if (current) groups.push(toGroup(current));
    current = { area, start: index, end, points: [point] };
  }
  if (current) groups.push(toGroup(current));
  return { groups, problems };
}

/** A group's datapoints each in a request of its own (to find which address a device refuses). */
export function splitGroup(group: ReadGroup): ReadGroup[] {
  return group.points.map((point) => ({
    area: group.area,
    start: point.address.index,
    count: widthOf(point.address),
    points: [point],
  }));
}

const AREA_ORDER: Record<ModbusArea, number> = { holding: 0, input: 1, coil: 2, discrete: 3 };

function toGroup(g: { area: ModbusArea; start: number; end: number; points: PlannedPoint[] }) {
  return { area: g.area, start: g.start, count: g.end - g.start + 1, points: g.points };
}

/** "holding 100" or "holding 100–103": how errors name the registers. */
export function describeRange(area: ModbusArea, start: number, count: number): string {
  return count <= 1 ? `${area} ${start}` : `${area} ${start}–${start + count - 1}`;
}

/**
 * The value of a register datapoint out of a request's answer (`registers`: 2 bytes per register,
 * big-endian on the wire, the first one at `groupStart`). Byte swap exchanges the bytes inside
 * each register; word order `little` puts the low word of a 32-bit value first.
 */
export function decodeRegisters(
  registers: Buffer,
  groupStart: number,
  address: ModbusAddress,
): number {
  const width = REGISTERS[address.datatype];
  const at = (address.index - groupStart) * 2;
  const bytes = Buffer.from(registers.subarray(at, at + width * 2));
  if (bytes.length < width * 2) throw new RangeError('The answer is shorter than asked for');
  if (address.byte_swap) bytes.swap16();
  if (width === 2 && address.word_order === 'little') {
    bytes.set([bytes[2] ?? 0, bytes[3] ?? 0, bytes[0] ?? 0, bytes[1] ?? 0]);
  }
  switch (address.datatype) {
    case 'int16':
      return bytes.readInt16BE(0);
    case 'uint16':
      return bytes.readUInt16BE(0);
    case 'int32':
      return bytes.readInt32BE(0);
    case 'uint32':
      return bytes.readUInt32BE(0);
    case 'float32':
      return bytes.readFloatBE(0);
    default: {
      const unknown: never = address.datatype;
      throw new Error(`Unknown Modbus datatype ${String(unknown)}`);
    }
  }
}

/** Bit `index` of a coils or discrete inputs answer (first bit at `groupStart`, LSB first). */
export function decodeBit(bits: Buffer, groupStart: number, index: number): boolean {
  const offset = index - groupStart;
  const byte = bits[offset >> 3];
  if (byte === undefined) throw new RangeError('The answer is shorter than asked for');
  return ((byte >> (offset & 7)) & 1) === 1;
}

/**
 * The registers that hold `value` as `address` says (the inverse of decodeRegisters): what a
 * device would hold. Used by the test device; integers out of range wrap as the device would.
 */
export function encodeRegisters(
  value: number,
  address: Pick<ModbusAddress, 'datatype' | 'word_order' | 'byte_swap'>,
): Buffer {
  const width = REGISTERS[address.datatype];
  const bytes = Buffer.alloc(width * 2);
  switch (address.datatype) {
    case 'int16':
    case 'uint16':
      bytes.writeUInt16BE(((Math.trunc(value) % 65_536) + 65_536) % 65_536, 0);
      break;
    case 'int32':
    case 'uint32':
      bytes.writeUInt32BE(((Math.trunc(value) % 2 ** 32) + 2 ** 32) % 2 ** 32, 0);
      break;
    case 'float32':
      bytes.writeFloatBE(value, 0);
      break;
    default: {
      const unknown: never = address.datatype;
      throw new Error(`Unknown Modbus datatype ${String(unknown)}`);
    }
  }
  if (width === 2 && address.word_order === 'little') {
    bytes.set([bytes[2] ?? 0, bytes[3] ?? 0, bytes[0] ?? 0, bytes[1] ?? 0]);
  }
  if (address.byte_swap) bytes.swap16();
  return bytes;
}
