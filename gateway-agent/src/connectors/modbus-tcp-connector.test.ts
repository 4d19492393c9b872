import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  modbusConnection,
  modbusDatapoint,
  startModbusTestServer,
  type ModbusTestServer,
} from '../testing/modbus-server';
import { recordingContext } from '../testing/opcua-server';
import type { Connector } from './connector';
import { createModbusTcpConnector } from './modbus-tcp-connector';

/** Values from a real jsmodbus server on loopback: decoding, grouping, errors, a reboot. */

const WAIT = { timeout: 30_000, interval: 20 } as const;
const connectors: Connector[] = [];
afterEach(async () => {
  await Promise.all(connectors.splice(0).map((c) => c.stop()));
});

function connect(...args: Parameters<typeof modbusConnection>) {
  const recorded = recordingContext(modbusConnection(...args));
  const connector = createModbusTcpConnector(recorded.ctx, { timeoutMs: 500 });
  connectors.push(connector);
  connector.start();
  return { connector, ...recorded };
}

describe('Modbus TCP values', () => {
  let server: ModbusTestServer;
  beforeAll(async () => {
    server = await startModbusTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('decodes every datatype, word order and byte swap, scaled, and coils and inputs', async () => {
    server.setRegisters('holding', 0, -1234, { datatype: 'int16' });
    server.setRegisters('holding', 1, 54_321, { datatype: 'uint16' });
    server.setRegisters('holding', 2, -123_456_789, { datatype: 'int32' });
    server.setRegisters('holding', 4, 3_000_000_000, { datatype: 'uint32', word_order: 'little' });
    server.setRegisters('holding', 6, 21.5, { datatype: 'float32' });
    server.setRegisters('holding', 8, -3.25, { datatype: 'float32', word_order: 'little' });
    server.setRegisters('holding', 10, 1.5, { datatype: 'float32', byte_swap: true });
    server.setRegisters('holding', 12, 0x1234, { datatype: 'uint16', byte_swap: true });
    server.setRegisters('input', 0, 500, { datatype: 'uint16' });
    server.setRegisters('input', 1, 77_000, { datatype: 'int32', word_order: 'little' });
    server.setBit('coil', 3, true);
    server.setBit('discrete', 5, true);

    const { connector, valuesOf } = connect(server, [
      modbusDatapoint('i16', { area: 'holding', index: 0, datatype: 'int16' }),
      modbusDatapoint('u16', { area: 'holding', index: 1, datatype: 'uint16' }),
      modbusDatapoint('i32', { area: 'holding', index: 2, datatype: 'int32' }),
      modbusDatapoint('u32le', {
        area: 'holding',
        index: 4,
        datatype: 'uint32',
        word_order: 'little',
      }),
      modbusDatapoint('f32', { area: 'holding', index: 6, datatype: 'float32' }),
      modbusDatapoint('f32le', {
        area: 'holding',
        index: 8,
        datatype: 'float32',
        word_order: 'little',
      }),
      modbusDatapoint('f32swap', {
        area: 'holding',
        index: 10,
        datatype: 'float32',
        byte_swap: true,
      }),
      modbusDatapoint('u16swap', {
        area: 'holding',
        index: 12,
        datatype: 'uint16',
        byte_swap: true,
      }),
      // The same register read plainly: the swap is not a no-op.
      modbusDatapoint('u16plain', { area: 'holding', index: 12, datatype: 'uint16' }),
      modbusDatapoint('scaled', { area: 'input', index: 0 }, 'number', { scale: 0.1, offset: -10 }),
      modbusDatapoint('in32le', {
        area: 'input',
        index: 1,
        datatype: 'int32',
        word_order: 'little',
      }),
      modbusDatapoint('coil3', { area: 'coil', index: 3 }, 'boolean'),
      modbusDatapoint('coil4', { area: 'coil', index: 4 }, 'boolean'),
      modbusDatapoint('disc5', { area: 'discrete', index: 5 }, 'boolean'),
      modbusDatapoint('mode', { area: 'holding', index: 1, datatype: 'uint16' }, 'state', {
        scale: 0.001,
      }),
      modbusDatapoint('text', { area: 'holding', index: 0, datatype: 'int16' }, 'text'),
    ]);

    await expect.poll(() => valuesOf('disc5'), WAIT).toEqual([true]);
    await expect.poll(() => valuesOf('text'), WAIT).toEqual(['-1234']);
    expect(valuesOf('i16')).toEqual([-1234]);
    expect(valuesOf('u16')).toEqual([54_321]);
    expect(valuesOf('i32')).toEqual([-123_456_789]);
    expect(valuesOf('u32le')).toEqual([3_000_000_000]);
    expect(valuesOf('f32')).toEqual([21.5]);
    expect(valuesOf('f32le')).toEqual([-3.25]);
    expect(valuesOf('f32swap')).toEqual([1.5]);
    expect(valuesOf('u16swap')).toEqual([0x1234]);
    expect(valuesOf('u16plain')).toEqual([0x3412]);
    expect(valuesOf('scaled')[0]).toBeCloseTo(40, 10);
    expect(valuesOf('in32le')).toEqual([77_000]);
    expect(valuesOf('coil3')).toEqual([true]);
    expect(valuesOf('coil4')).toEqual([false]);
    expect(valuesOf('mode')).toEqual([54]);
    expect(connector.status()).toMatchObject({ id: 'modbus-1', state: 'connected', error: null });
    expect(connector.status().last_read).toBeGreaterThan(0);

    server.setRegisters('holding', 6, -0.5, { datatype: 'float32' });
    server.setBit('coil', 3, false);
    await expect.poll(() => valuesOf('f32'), WAIT).toEqual([21.5, -0.5]);
    await expect.poll(() => valuesOf('coil3'), WAIT).toEqual([true, false]);
  });

  it('reads contiguous addresses of an area with one request', async () => {
    const before = server.requests.length;
    const datapoints = [
      ...Array.from({ length: 20 }, (_, i) =>
        modbusDatapoint(`h${i}`, { area: 'holding', index: 200 + i }),
      ),
      // Out of order, overlapping, 32-bit ones among them.
      modbusDatapoint('h-wide', { area: 'holding', index: 219, datatype: 'uint32' }),
      ...Array.from({ length: 10 }, (_, i) =>
        modbusDatapoint(`c${i}`, { area: 'coil', index: 100 + 9 - i }, 'boolean'),
      ),
    ];
    for (let i = 0; i < 21; i++) server.setRegisters('holding', 200 + i, i * 10);
    const { valuesOf } = connect(server, datapoints);
    await expect.poll(() => valuesOf('c9'), WAIT).toEqual([false]);
    await expect.poll(() => server.requests.length - before, WAIT).toBeGreaterThanOrEqual(6);
    // Poll after poll: the same two requests.
    const seen = server.requests.slice(before, before + 6);
    expect(seen).toEqual([
      { area: 'holding', start: 200, count: 21 },
      { area: 'coil', start: 100, count: 10 },
      { area: 'holding', start: 200, count: 21 },
      { area: 'coil', start: 100, count: 10 },
      { area: 'holding', start: 200, count: 21 },
      { area: 'coil', start: 100, count: 10 },
    ]);
    expect(valuesOf('h7')).toEqual([70]);
    expect(valuesOf('h-wide')).toEqual([190 * 65_536 + 200]);
  });

  it('reports a value only when it moved more than the deadband', async () => {
    server.setRegisters('holding', 300, 10, { datatype: 'float32' });
    const { valuesOf } = connect(server, [
      modbusDatapoint('db', { area: 'holding', index: 300, datatype: 'float32' }, 'number', {
        deadband: 1,
      }),
      modbusDatapoint('all', { area: 'holding', index: 300, datatype: 'float32' }),
    ]);
    await expect.poll(() => valuesOf('db'), WAIT).toEqual([10]);
    server.setRegisters('holding', 300, 10.5, { datatype: 'float32' });
    await expect.poll(() => valuesOf('all'), WAIT).toEqual([10, 10.5]);
    server.setRegisters('holding', 300, 10.75, { datatype: 'float32' });
    await expect.poll(() => valuesOf('all'), WAIT).toEqual([10, 10.5, 10.75]);
    // Both were offered the same polls: what the deadband-0 one got, the other one saw too.
    expect(valuesOf('db')).toEqual([10]);
    server.setRegisters('holding', 300, 12, { datatype: 'float32' });
    await expect.poll(() => valuesOf('db'), WAIT).toEqual([10, 12]);
    // Unchanged values are not repeated.
    const polls = server.requests.length;
    await expect.poll(() => server.requests.length, WAIT).toBeGreaterThan(polls + 3);
    expect(valuesOf('all')).toEqual([10, 10.5, 10.75, 12]);
  });

  it('names an address the device refuses, and still reads the others', async () => {
    // The server has 1000 registers: 1000 does not exist.
    server.setRegisters('holding', 998, 7);
    server.setRegisters('holding', 999, 8);
    const { connector, valuesOf, statuses } = connect(server, [
      modbusDatapoint('a', { area: 'holding', index: 998 }),
      modbusDatapoint('b', { area: 'holding', index: 999 }),
      modbusDatapoint('missing', { area: 'holding', index: 1000 }),
    ]);
    await expect.poll(() => valuesOf('b'), WAIT).toEqual([8]);
    expect(valuesOf('a')).toEqual([7]);
    await expect
      .poll(() => connector.status(), WAIT)
      .toMatchObject({ state: 'failed', error: 'Illegal data address at holding 1000' });
    // One failed status, not one per poll.
    const polls = server.requests.length;
    await expect.poll(() => server.requests.length, WAIT).toBeGreaterThan(polls + 6);
    expect(statuses.filter((s) => s.state === 'failed')).toHaveLength(1);
    server.setRegisters('holding', 999, 9);
    await expect.poll(() => valuesOf('b'), WAIT).toEqual([8, 9]);
  });

  it('reports a device that does not answer, and recovers when it answers again', async () => {
    server.setRegisters('holding', 400, 1);
    const { connector, valuesOf } = connect(server, [
      modbusDatapoint('x', { area: 'holding', index: 400 }),
    ]);
    await expect.poll(() => valuesOf('x'), WAIT).toEqual([1]);
    server.setSilent(true);
    await expect
      .poll(() => connector.status(), WAIT)
      .toMatchObject({
        state: 'failed',
        error: 'No answer from the device within 0.5 s (reading holding 400)',
      });
    server.setSilent(false);
    server.setRegisters('holding', 400, 2);
    await expect.poll(() => valuesOf('x'), WAIT).toEqual([1, 2]);
    await expect.poll(() => connector.status().state, WAIT).toBe('connected');
  });
});

describe('Modbus TCP connection', () => {
  it('reconnects by itself after the device restarts, and values resume', async () => {
    const server = await startModbusTestServer();
    try {
      server.setRegisters('input', 10, 100);
      const { connector, valuesOf, statuses } = connect(server, [
        modbusDatapoint('v', { area: 'input', index: 10 }),
      ]);
      await expect.poll(() => valuesOf('v'), WAIT).toEqual([100]);
      expect(statuses.map((s) => s.state)).toEqual(['connecting', 'connected']);

      await server.restart();
      server.setRegisters('input', 10, 101);
      await expect.poll(() => valuesOf('v'), WAIT).toEqual([100, 101]);
      await expect.poll(() => connector.status().state, WAIT).toBe('connected');
      const states = statuses.map((s) => s.state);
      expect(states.slice(0, 2)).toEqual(['connecting', 'connected']);
      expect(states.slice(2)).toContain('failed');
      expect(states.at(-1)).toBe('connected');
      expect(statuses.find((s) => s.state === 'failed')?.error).toMatch(/lost/);
    } finally {
      await server.close();
    }
  });

  it('keeps trying while the device is off, and connects when it is back', async () => {
    const server = await startModbusTestServer();
    try {
      await server.stop();
      server.setRegisters('holding', 0, 5);
      const { connector, valuesOf } = connect(server, [
        modbusDatapoint('v', { area: 'holding', index: 0 }),
      ]);
      await expect
        .poll(() => connector.status(), WAIT)
        .toMatchObject({
          state: 'failed',
          error: `127.0.0.1:${server.port} refused the connection (is Modbus TCP on at this port?)`,
        });
      await server.start();
      await expect.poll(() => valuesOf('v'), WAIT).toEqual([5]);
      expect(connector.status()).toMatchObject({ state: 'connected', error: null });
    } finally {
      await server.close();
    }
  });

  it('closes its socket on stop() and emits nothing after', async () => {
    const server = await startModbusTestServer();
    try {
      const recorded = recordingContext(
        modbusConnection(server, [modbusDatapoint('v', { area: 'holding', index: 0 })]),
      );
      const connector = createModbusTcpConnector(recorded.ctx);
      connector.start();
      await expect.poll(() => recorded.valuesOf('v'), WAIT).toEqual([0]);
      expect(server.connections()).toBe(1);
      await connector.stop();
      await expect.poll(() => server.connections(), WAIT).toBe(0);
      const requests = server.requests.length;
      const statuses = recorded.statuses.length;
      server.setRegisters('holding', 0, 1);
      // Another client's polls tick on: ours would have had many chances meanwhile.
      const other = connect(server, [modbusDatapoint('w', { area: 'holding', index: 0 })]);
      await expect.poll(() => other.valuesOf('w'), WAIT).toEqual([1]);
      await expect.poll(() => server.requests.length, WAIT).toBeGreaterThan(requests + 5);
      expect(recorded.valuesOf('v')).toEqual([0]);
      expect(recorded.statuses).toHaveLength(statuses);
    } finally {
      await server.close();
    }
  });

  it('fails with a clear error when the settings are not Modbus TCP settings', async () => {
    const recorded = recordingContext({
      ...modbusConnection({ host: '127.0.0.1', port: 1 }, []),
      settings: { host: '' },
    });
    const connector = createModbusTcpConnector(recorded.ctx);
    connectors.push(connector);
    connector.start();
    await expect
      .poll(() => connector.status(), WAIT)
      .toMatchObject({
        state: 'failed',
        error: 'The connection settings are not valid for Modbus TCP',
      });
  });
});
