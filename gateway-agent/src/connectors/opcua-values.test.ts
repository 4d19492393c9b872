import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  opcuaConnection,
  opcuaDatapoint,
  recordingContext,
  startOpcuaTestServer,
  type OpcuaTestServer,
} from '../testing/opcua-server';
import type { BrowsingConnector } from './connector';
import { createOpcuaConnector } from './opcua-connector';

/** Values from a real node-opcua server: subscription, polling, unknown nodes, a reboot. */

const WAIT = { timeout: 30_000, interval: 50 } as const;
let pkiDir: string;
const connectors: BrowsingConnector[] = [];

beforeAll(async () => {
  pkiDir = await mkdtemp(join(tmpdir(), 'opcua-client-pki-'));
});
afterAll(async () => {
  await rm(pkiDir, { recursive: true, force: true });
});
const stopAll = () => Promise.all(connectors.splice(0).map((c) => c.stop()));

function connect(...args: Parameters<typeof opcuaConnection>) {
  const recorded = recordingContext(opcuaConnection(...args));
  const connector = createOpcuaConnector(recorded.ctx, { pkiDir });
  connectors.push(connector);
  connector.start();
  return { connector, ...recorded };
}

describe('OPC UA values by subscription', () => {
  let server: OpcuaTestServer;
  beforeAll(async () => {
    server = await startOpcuaTestServer();
  });
  afterAll(async () => {
    await stopAll();
    await server.close();
  });

  it('reports the values set on the server, scaled and typed for their streams', async () => {
    const { connector, valuesOf } = connect(server.endpoint, [
      opcuaDatapoint('temp', server.nodeId('Oven.Temperature'), 'number', {
        scale: 2,
        offset: -1,
      }),
      opcuaDatapoint('mode', server.nodeId('Oven.Mode'), 'state'),
      opcuaDatapoint('running', server.nodeId('Oven.Running'), 'boolean'),
      opcuaDatapoint('recipe', server.nodeId('Oven.Recipe'), 'text'),
    ]);
    // The first values are the initial ones, reported whatever the deadband.
    await expect.poll(() => valuesOf('temp'), WAIT).toEqual([40]);
    await expect.poll(() => valuesOf('mode'), WAIT).toEqual([1]);
    await expect.poll(() => valuesOf('running'), WAIT).toEqual([false]);
    await expect.poll(() => valuesOf('recipe'), WAIT).toEqual(['bread']);
    expect(connector.status()).toMatchObject({ state: 'connected', error: null });
    expect(connector.status().last_read).toBeGreaterThan(0);

    server.set('Oven.Temperature', 80.25);
    server.set('Oven.Mode', 3);
    server.set('Oven.Running', true);
    server.set('Oven.Recipe', 'croissant');
    await expect.poll(() => valuesOf('temp'), WAIT).toEqual([40, 159.5]);
    await expect.poll(() => valuesOf('mode'), WAIT).toEqual([1, 3]);
    await expect.poll(() => valuesOf('running'), WAIT).toEqual([false, true]);
    await expect.poll(() => valuesOf('recipe'), WAIT).toEqual(['bread', 'croissant']);
  });

  it('reports a value only when it moved more than the deadband', async () => {
    server.set('Gripper.GripForceActual', 10);
    const node = server.nodeId('Gripper.GripForceActual');
    // Both read the same node, so both see every change in the same notification: what the
    // deadband-0 one got, the other one has been offered too.
    const { valuesOf } = connect(server.endpoint, [
      opcuaDatapoint('all', node, 'number'),
      opcuaDatapoint('banded', node, 'number', { deadband: 5 }),
    ]);
    await expect.poll(() => valuesOf('banded'), WAIT).toEqual([10]);
    const seen: number[] = [10];
    for (const value of [14, 15, 16, 12, 10]) {
      server.set('Gripper.GripForceActual', value);
      seen.push(value);
      await expect.poll(() => valuesOf('all'), WAIT).toEqual(seen);
    }
    // 14 and 15 moved no more than 5 from 10; 16 did; 12 not from 16; 10 did.
    expect(valuesOf('banded')).toEqual([10, 16, 10]);
  });

  it('fails only the datapoint whose node does not exist, with its status code in the log', async () => {
    const { connector, valuesOf, logs } = connect(server.endpoint, [
      opcuaDatapoint('missing', 'ns=1;s=Oven.NoSuchThing', 'number'),
      opcuaDatapoint('recipe', server.nodeId('Oven.Recipe'), 'text'),
    ]);
    await expect.poll(() => valuesOf('recipe').length, WAIT).toBe(1);
    await expect
      .poll(
        () =>
          logs.find(
            (l) => l.level === 'warn' && l.fields?.['node_id'] === 'ns=1;s=Oven.NoSuchThing',
          ),
        WAIT,
      )
      .toMatchObject({ fields: { status: 'BadNodeIdUnknown', datapoints: ['missing'] } });
    expect(valuesOf('missing')).toEqual([]);
    expect(connector.status().state).toBe('connected');
  });
});

describe('OPC UA device that reboots', () => {
  let server: OpcuaTestServer;
  beforeAll(async () => {
    server = await startOpcuaTestServer();
  });
  afterAll(async () => {
    await stopAll();
    await server.close();
  });

  it('reconnects by itself and values flow again; a connector stopped meanwhile stays silent', async () => {
    const node = server.nodeId('Oven.Mode');
    const running = connect(server.endpoint, [opcuaDatapoint('mode', node, 'state')]);
    const stopped = connect(server.endpoint, [opcuaDatapoint('mode', node, 'state')]);
    await expect.poll(() => running.valuesOf('mode'), WAIT).toEqual([1]);
    await expect.poll(() => stopped.valuesOf('mode'), WAIT).toEqual([1]);

    await server.stop();
    await expect.poll(() => running.connector.status().state, WAIT).toBe('failed');
    expect(running.connector.status().error).toMatch(/lost|reconnect|refused/i);
    // Stopping while the device is away resolves (node-opcua would wait for it forever).
    await stopped.connector.stop();
    const after = { readings: stopped.readings.length, statuses: stopped.statuses.length };

    await server.start();
    await expect.poll(() => running.connector.status().state, WAIT).toBe('connected');
    // The rebooted device starts at its initial value (1: unchanged, so not reported again).
    server.set('Oven.Mode', 7);
    await expect.poll(() => running.valuesOf('mode'), WAIT).toEqual([1, 7]);
    expect({ readings: stopped.readings.length, statuses: stopped.statuses.length }).toEqual(after);
  });

  it('keeps trying a device that is off at start, with the reason, and connects when it is on', async () => {
    await server.stop();
    const { connector, valuesOf } = connect(server.endpoint, [
      opcuaDatapoint('recipe', server.nodeId('Oven.Recipe'), 'text'),
    ]);
    await expect.poll(() => connector.status().error, WAIT).toMatch(/connection refused/);
    expect(connector.status().state).toBe('failed');
    await server.start();
    await expect.poll(() => valuesOf('recipe'), WAIT).toEqual(['bread']);
    expect(connector.status()).toMatchObject({ state: 'connected', error: null });
  });
});

describe('OPC UA device without subscriptions', () => {
  let server: OpcuaTestServer;
  beforeAll(async () => {
    server = await startOpcuaTestServer({ refuseSubscriptions: true });
  });
  afterAll(async () => {
    await stopAll();
    await server.close();
  });

  it('polls at the connection interval instead', async () => {
    const { connector, valuesOf, logs } = connect(server.endpoint, [
      opcuaDatapoint('temp', server.nodeId('Oven.Temperature'), 'number'),
    ]);
    await expect.poll(() => valuesOf('temp'), WAIT).toEqual([20.5]);
    server.set('Oven.Temperature', 22.5);
    await expect.poll(() => valuesOf('temp'), WAIT).toEqual([20.5, 22.5]);
    expect(logs.find((l) => l.msg === 'OPC UA reading')?.fields).toMatchObject({ mode: 'polling' });
    expect(connector.status().state).toBe('connected');
  });
});
