import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type LatestValues } from '@plant/shared-schema';
import { DEMO_USERS } from '../../server/src/seed/demo';
import { dataOf, startTestServer, type TestServer } from '../../server/src/testing/harness';
import { deviceGateway as startDeviceGateway } from './testing/device-gateway';
import { startModbusTestServer } from './testing/modbus-server';
import { startS7TestServer } from './testing/s7-server';

/*
 * Real devices to the store, as an admin sets them up: a Modbus TCP server and an S7 PLC on
 * loopback, a connection and a datapoint made through the API, the agent running what the server
 * sends; a value changed on the device arrives in the store, and after the device restarts the
 * connector reconnects by itself and values resume.
 */
let server: TestServer;
let admin: string;
let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;
const cleanups: (() => Promise<unknown>)[] = [];
const WAIT = { timeout: 50_000, interval: 50 };

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
  ids = await server.demoAccountIds();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => server.close());

/** A demo gateway with one device connection feeding its machine's first number stream. */
async function deviceGateway(
  index: number,
  connection: { protocol: string; settings: Record<string, unknown> },
  address: Record<string, unknown>,
) {
  const device = await startDeviceGateway({
    server,
    token: admin,
    accountId: ids.root,
    index,
    connection,
    address,
  });
  cleanups.push(device.stop);
  return device;
}

/** The latest stored value of the stream, through the API a browser uses. */
async function latest(assetId: string, stream: string) {
  const res = await server.call('GET', apiPaths.latestValues(assetId), { token: admin });
  expect(res.status).toBe(200);
  return dataOf<LatestValues>(res).find((l) => l.stream === stream)?.value;
}

describe('devices to the store', () => {
  it('Modbus TCP: a changed register is stored; after the device restarts, values resume', async () => {
    const device = await startModbusTestServer();
    cleanups.push(() => device.close());
    device.setRegisters('holding', 4, 1234.5, { datatype: 'float32' });
    const { stream, assetId } = await deviceGateway(
      10,
      {
        protocol: 'modbus-tcp',
        settings: { host: device.host, port: device.port, unit_id: 1 },
      },
      { area: 'holding', index: 4, datatype: 'float32' },
    );
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(1234.5);
    device.setRegisters('holding', 4, -42.25, { datatype: 'float32' });
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(-42.25);

    await device.restart();
    device.setRegisters('holding', 4, 77.75, { datatype: 'float32' });
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(77.75);
  });

  it('Siemens S7: a changed DB value is stored; after the PLC restarts, values resume', async () => {
    const plc = await startS7TestServer();
    cleanups.push(() => plc.close());
    plc.set('DB1.DBW2', 'int', 1234);
    const { stream, assetId } = await deviceGateway(
      11,
      { protocol: 's7', settings: { host: plc.host, port: plc.port, rack: 0, slot: 1 } },
      { address: 'DB1.DBW2', datatype: 'int' },
    );
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(1234);
    plc.set('DB1.DBW2', 'int', -300);
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(-300);

    await plc.restart();
    plc.set('DB1.DBW2', 'int', 4321);
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(4321);
  });
});
