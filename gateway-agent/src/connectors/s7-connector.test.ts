import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordingContext } from '../testing/opcua-server';
import {
  s7Connection,
  s7Datapoint,
  startS7TestServer,
  type S7TestServer,
} from '../testing/s7-server';
import type { Connector } from './connector';
import { createS7Connector } from './s7-connector';

/** Values from a real snap7 server on loopback (not port 102): types, changes, a reboot. */

const WAIT = { timeout: 30_000, interval: 20 } as const;
const connectors: Connector[] = [];
afterEach(async () => {
  await Promise.all(connectors.splice(0).map((c) => c.stop()));
});

function connect(...args: Parameters<typeof s7Connection>) {
  const recorded = recordingContext(s7Connection(...args));
  const connector = createS7Connector(recorded.ctx, { timeoutMs: 1_000 });
  connectors.push(connector);
  connector.start();
  return { connector, ...recorded };
}

describe('S7 values', () => {
  let server: S7TestServer;
  beforeAll(async () => {
    server = await startS7TestServer({ dataBlocks: { 1: 64, 2: 16 } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads every datatype in data blocks, merkers, inputs and outputs', async () => {
    server.set('DB1.DBX0.3', 'bool', true);
    server.set('DB1.DBB1', 'byte', 200);
    server.set('DB1.DBW2', 'int', -1234);
    server.set('DB1.DBW4', 'word', 54_321);
    server.set('DB1.DBD6', 'dint', -123_456_789);
    server.set('DB1.DBD10', 'dword', 3_000_000_000);
    server.set('DB1.DBD14', 'real', 21.5);
    server.set('DB2.DBD0', 'real', -3.25);
    server.set('M10.1', 'bool', true);
    server.set('MW12', 'int', -7);
    server.set('MD14', 'real', 0.5);
    server.set('EB3', 'byte', 17);
    server.set('IW4', 'word', 4_000);
    server.set('Q1.2', 'bool', true);
    server.set('AD8', 'dint', 99_999);

    const { connector, valuesOf } = connect(server, [
      s7Datapoint('x', 'DB1.DBX0.3', 'bool', 'boolean'),
      s7Datapoint('x-off', 'DB1.DBX0.4', 'bool', 'boolean'),
      s7Datapoint('b', 'DB1.DBB1', 'byte'),
      s7Datapoint('i', 'DB1.DBW2', 'int'),
      s7Datapoint('w', 'DB1.DBW4', 'word'),
      s7Datapoint('di', 'DB1.DBD6', 'dint'),
      s7Datapoint('dw', 'DB1.DBD10', 'dword'),
      s7Datapoint('r', 'DB1.DBD14', 'real', 'number', { scale: 2, offset: 1 }),
      s7Datapoint('r2', 'DB2.DBD0', 'real'),
      s7Datapoint('m', 'M10.1', 'bool', 'boolean'),
      s7Datapoint('mi', 'MW12', 'int'),
      s7Datapoint('mr', 'MD14', 'real'),
      s7Datapoint('eb', 'EB3', 'byte', 'state'),
      s7Datapoint('iw', 'IW4', 'word'),
      s7Datapoint('q', 'Q1.2', 'bool', 'boolean'),
      s7Datapoint('qd', 'AD8', 'dint', 'text'),
    ]);
    await expect.poll(() => valuesOf('qd'), WAIT).toEqual(['99999']);
    expect(valuesOf('x')).toEqual([true]);
    expect(valuesOf('x-off')).toEqual([false]);
    expect(valuesOf('b')).toEqual([200]);
    expect(valuesOf('i')).toEqual([-1234]);
    expect(valuesOf('w')).toEqual([54_321]);
    expect(valuesOf('di')).toEqual([-123_456_789]);
    expect(valuesOf('dw')).toEqual([3_000_000_000]);
    expect(valuesOf('r')).toEqual([44]);
    expect(valuesOf('r2')).toEqual([-3.25]);
    expect(valuesOf('m')).toEqual([true]);
    expect(valuesOf('mi')).toEqual([-7]);
    expect(valuesOf('mr')).toEqual([0.5]);
    expect(valuesOf('eb')).toEqual([17]);
    expect(valuesOf('iw')).toEqual([4_000]);
    expect(valuesOf('q')).toEqual([true]);
    expect(connector.status()).toMatchObject({ id: 's7-1', state: 'connected', error: null });
    expect(connector.status().last_read).toBeGreaterThan(0);
  });

  it('reports changes, beyond the deadband only', async () => {
    server.set('DB1.DBD20', 'real', 10);
    server.set('DB1.DBX24.0', 'bool', false);
    const { valuesOf } = connect(server, [
      s7Datapoint('all', 'DB1.DBD20', 'real'),
      s7Datapoint('db', 'DB1.DBD20', 'real', 'number', { deadband: 1 }),
      s7Datapoint('bit', 'DB1.DBX24.0', 'bool', 'boolean'),
    ]);
    await expect.poll(() => valuesOf('bit'), WAIT).toEqual([false]);
    server.set('DB1.DBD20', 'real', 10.5);
    server.set('DB1.DBX24.0', 'bool', true);
    await expect.poll(() => valuesOf('all'), WAIT).toEqual([10, 10.5]);
    await expect.poll(() => valuesOf('bit'), WAIT).toEqual([false, true]);
    expect(valuesOf('db')).toEqual([10]);
    server.set('DB1.DBD20', 'real', 12);
    await expect.poll(() => valuesOf('db'), WAIT).toEqual([10, 12]);
  });

  it('names addresses the PLC does not have, and reads the others', async () => {
    server.set('DB2.DBW2', 'int', 5);
    const { connector, valuesOf } = connect(server, [
      s7Datapoint('ok', 'DB2.DBW2', 'int'),
      s7Datapoint('no-db', 'DB9.DBW0', 'int'),
      s7Datapoint('too-far', 'DB2.DBD40', 'real'),
      s7Datapoint('misfit', 'DB2.DBW0', 'real'),
    ]);
    await expect.poll(() => valuesOf('ok'), WAIT).toEqual([5]);
    await expect
      .poll(() => connector.status(), WAIT)
      .toMatchObject({
        state: 'failed',
        error:
          'DB2.DBW0 holds 16 bits: use int or word, not real; ' +
          'No value for DB9.DBW0 (is it on the device, and long enough?) (and 1 more)',
      });
    server.set('DB2.DBW2', 'int', 6);
    await expect.poll(() => valuesOf('ok'), WAIT).toEqual([5, 6]);
  });

  it('reports a PLC that stops answering, and recovers', async () => {
    server.set('MW30', 'word', 1);
    const { connector, valuesOf } = connect(server, [s7Datapoint('v', 'MW30', 'word')]);
    await expect.poll(() => valuesOf('v'), WAIT).toEqual([1]);
    server.hang(true);
    try {
      await expect
        .poll(() => connector.status(), WAIT)
        .toMatchObject({
          state: 'failed',
          error: 'No answer from the device within 1 s: reconnecting',
        });
    } finally {
      server.hang(false);
    }
    server.set('MW30', 'word', 2);
    await expect.poll(() => valuesOf('v'), WAIT).toEqual([1, 2]);
    await expect.poll(() => connector.status().state, WAIT).toBe('connected');
  });
});

describe('S7 connection', () => {
  it('reconnects by itself after the PLC restarts, and values resume', async () => {
    const server = await startS7TestServer();
    try {
      server.set('DB1.DBW0', 'int', 100);
      const { connector, valuesOf, statuses } = connect(server, [
        s7Datapoint('v', 'DB1.DBW0', 'int'),
      ]);
      await expect.poll(() => valuesOf('v'), WAIT).toEqual([100]);
      expect(statuses.map((s) => s.state)).toEqual(['connecting', 'connected']);

      await server.restart();
      server.set('DB1.DBW0', 'int', 101);
      await expect.poll(() => valuesOf('v'), WAIT).toEqual([100, 101]);
      await expect.poll(() => connector.status().state, WAIT).toBe('connected');
      const states = statuses.map((s) => s.state);
      expect(states.slice(2)).toContain('failed');
      expect(states.at(-1)).toBe('connected');
      expect(statuses.find((s) => s.state === 'failed')?.error).toMatch(
        /^(Connection to the device lost|No answer from the device)/,
      );
    } finally {
      await server.close();
    }
  });

  it('keeps trying while the PLC is off, connects when it is back, disconnects on stop()', async () => {
    const server = await startS7TestServer();
    try {
      await server.stop();
      server.set('MB0', 'byte', 42);
      const recorded = recordingContext(s7Connection(server, [s7Datapoint('v', 'MB0', 'byte')]));
      const connector = createS7Connector(recorded.ctx, { timeoutMs: 1_000 });
      connector.start();
      try {
        await expect
          .poll(() => connector.status(), WAIT)
          .toMatchObject({
            state: 'failed',
            error: `127.0.0.1:${server.port} refused the connection (is it an S7 device, at this port?)`,
          });
        await server.start();
        await expect.poll(() => recorded.valuesOf('v'), WAIT).toEqual([42]);
        expect(server.clients()).toBe(1);
      } finally {
        await connector.stop();
      }
      await expect.poll(() => server.clients(), WAIT).toBe(0);
      const statuses = recorded.statuses.length;
      server.set('MB0', 'byte', 43);
      // Another client reads the change: ours would have had its chances meanwhile.
      const other = connect(server, [s7Datapoint('w', 'MB0', 'byte')]);
      await expect.poll(() => other.valuesOf('w'), WAIT).toEqual([43]);
      expect(recorded.valuesOf('v')).toEqual([42]);
      expect(recorded.statuses).toHaveLength(statuses);
    } finally {
      await Promise.all(connectors.splice(0).map((c) => c.stop()));
      await server.close();
    }
  });
});
