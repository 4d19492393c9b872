import { describe, expect, it } from 'vitest';
import { MODBUS_DATATYPES, type ModbusAddress } from '@plant/shared-schema';
import { modbusDatapoint } from '../testing/modbus-server';
import {
  decodeBit,
  decodeRegisters,
  encodeRegisters,
  planModbusReads,
  splitGroup,
} from './modbus-plan';

const ranges = (datapoints: Parameters<typeof planModbusReads>[0]) =>
  planModbusReads(datapoints).groups.map((g) => [g.area, g.start, g.count, g.points.length]);

describe('planModbusReads', () => {
  it('joins contiguous and overlapping addresses of one area, never across gaps or areas', () => {
    expect(
      ranges([
        modbusDatapoint('a', { area: 'holding', index: 10 }),
        modbusDatapoint('b', { area: 'holding', index: 11, datatype: 'float32' }),
        modbusDatapoint('c', { area: 'holding', index: 12 }),
        modbusDatapoint('d', { area: 'holding', index: 14 }), // gap at 13
        modbusDatapoint('e', { area: 'input', index: 15 }),
        modbusDatapoint('f', { area: 'coil', index: 0 }),
        modbusDatapoint('g', { area: 'coil', index: 1 }),
        modbusDatapoint('h', { area: 'discrete', index: 1 }),
      ]),
    ).toEqual([
      ['holding', 10, 3, 3],
      ['holding', 14, 1, 1],
      ['input', 15, 1, 1],
      ['coil', 0, 2, 2],
      ['discrete', 1, 1, 1],
    ]);
  });

  it('keeps requests within 125 registers and 2000 bits, 32-bit values whole', () => {
    const registers = Array.from({ length: 130 }, (_, i) =>
      modbusDatapoint(`r${i}`, { area: 'input', index: i }),
    );
    // 124 + a 32-bit value at 124–125 would be 126 registers: it starts the next request.
    registers.splice(
      124,
      2,
      modbusDatapoint('wide', { area: 'input', index: 124, datatype: 'int32' }),
    );
    const bits = Array.from({ length: 2_500 }, (_, i) =>
      modbusDatapoint(`b${i}`, { area: 'coil', index: i }, 'boolean'),
    );
    expect(ranges([...registers, ...bits])).toEqual([
      ['input', 0, 124, 124],
      ['input', 124, 6, 5],
      ['coil', 0, 2_000, 2_000],
      ['coil', 2_000, 500, 500],
    ]);
  });

  it('lists datapoints whose address is not a Modbus address or runs past 65535', () => {
    const plan = planModbusReads([
      modbusDatapoint('ok', { area: 'holding', index: 1 }),
      { ...modbusDatapoint('bad', { area: 'holding', index: 1 }), address: { node_id: 'x' } },
      modbusDatapoint('end', { area: 'holding', index: 65_535, datatype: 'uint32' }),
    ]);
    expect(plan.groups).toHaveLength(1);
    expect(plan.problems).toEqual([
      'Datapoint bad has no valid Modbus address',
      'holding 65535–65536 is beyond 65535',
    ]);
  });

  it('splits a group into one request per datapoint', () => {
    const [group] = planModbusReads([
      modbusDatapoint('a', { area: 'holding', index: 5, datatype: 'float32' }),
      modbusDatapoint('b', { area: 'holding', index: 7 }),
    ]).groups;
    expect(group && splitGroup(group).map((g) => [g.start, g.count])).toEqual([
      [5, 2],
      [7, 1],
    ]);
  });
});

describe('register decoding', () => {
  const address = (over: Partial<ModbusAddress>): ModbusAddress => ({
    area: 'holding',
    index: 3,
    datatype: 'uint16',
    word_order: 'big',
    byte_swap: false,
    ...over,
  });

  it('reads what was written, for every datatype, word order and byte swap', () => {
    const samples: Record<(typeof MODBUS_DATATYPES)[number], number[]> = {
      int16: [-32_768, -1, 0, 12_345, 32_767],
      uint16: [0, 1, 65_535, 0xabcd],
      int32: [-(2 ** 31), -70_000, 0, 2 ** 31 - 1],
      uint32: [0, 70_000, 2 ** 32 - 1],
      float32: [0, -1.5, 3.25, 2 ** 70, 65_536.5],
    };
    for (const datatype of MODBUS_DATATYPES) {
      for (const word_order of ['big', 'little'] as const) {
        for (const byte_swap of [false, true]) {
          for (const value of samples[datatype]) {
            const a = address({ datatype, word_order, byte_swap });
            // Two registers of something else in front: the group starts at register 1.
            const registers = Buffer.concat([Buffer.from([9, 9, 9, 9]), encodeRegisters(value, a)]);
            expect(decodeRegisters(registers, 1, a)).toBe(value);
          }
        }
      }
    }
  });

  it('puts the high word first for big word order, as on the wire', () => {
    const big = encodeRegisters(0x11223344, address({ datatype: 'uint32' }));
    expect([...big]).toEqual([0x11, 0x22, 0x33, 0x44]);
    const little = encodeRegisters(
      0x11223344,
      address({ datatype: 'uint32', word_order: 'little' }),
    );
    expect([...little]).toEqual([0x33, 0x44, 0x11, 0x22]);
    const swapped = encodeRegisters(0x11223344, address({ datatype: 'uint32', byte_swap: true }));
    expect([...swapped]).toEqual([0x22, 0x11, 0x44, 0x33]);
  });

  it('reads bits least significant first', () => {
    const bits = Buffer.from([0b0000_0100, 0b1000_0000]);
    expect(decodeBit(bits, 10, 12)).toBe(true);
    expect(decodeBit(bits, 10, 13)).toBe(false);
    expect(decodeBit(bits, 10, 25)).toBe(true);
    expect(() => decodeBit(bits, 10, 26)).toThrow(RangeError);
  });
});
