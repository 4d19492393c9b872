import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Aedes, type Client } from 'aedes';
import mqtt from 'mqtt';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { topics, type UpdateMessage } from '@plant/shared-schema';
import { MemoryLogger } from '../log';
import { until } from '../testing/sync-fixture';
import { BrokerConnection, type BrokerState } from './broker';
import { ApiClient } from './http';

/*
 * The broker connection against a test broker that accepts publishes (our server's refuses every
 * browser publish; the gateway terminal will get a topic of its own): a plain aedes over
 * WebSocket, with an HTTP endpoint handing out credentials the way GET user/browser/mqtt does.
 */
const ACCOUNT = 'acc-1';
let server: http.Server;
let aedes: Aedes;
let origin = '';
let credentialsStatus = 200;
let credentialCalls = 0;
const connections: BrokerConnection[] = [];
const live = new Set<Client>();

beforeAll(async () => {
  aedes = await Aedes.createBroker();
  aedes.on('client', (client: Client) => live.add(client));
  aedes.on('clientDisconnect', (client: Client) => live.delete(client));
  const wss = new WebSocketServer({ noServer: true });
  server = http.createServer((_req, res) => {
    credentialCalls += 1;
    res.writeHead(credentialsStatus, { 'content-type': 'application/json' });
    res.end(
      credentialsStatus === 200
        ? JSON.stringify({
            data: { username: 'u', clientid: `c-${credentialCalls}`, password: 'p' },
          })
        : JSON.stringify({ message: 'Unauthenticated.' }),
    );
  });
  server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => aedes.handle(createWebSocketStream(ws), req)),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  credentialsStatus = 200;
  for (const c of connections.splice(0)) await c.stop();
});
afterAll(async () => {
  await new Promise<void>((r) => aedes.close(() => r()));
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

function connection(events: ConstructorParameters<typeof BrokerConnection>[0]['events'] = {}) {
  const log = new MemoryLogger();
  const c = new BrokerConnection({
    url: `${origin.replace('http', 'ws')}/mqtt`,
    accountId: ACCOUNT,
    browserId: 'b-1',
    api: new ApiClient({ origin, token: () => 't', appUrl: () => '', log }),
    log,
    events,
    timings: {
      reconnectMs: 100,
      resubscribeAfterConnectMs: 50,
      subscriptionCheckMs: 25,
      publishRetryMs: 50,
    },
  });
  connections.push(c);
  return c;
}

async function listener(topic: string) {
  const client = await mqtt.connectAsync(`${origin.replace('http', 'ws')}/mqtt`, {
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  const got: string[] = [];
  client.on('message', (_t, payload) => got.push(payload.toString()));
  await client.subscribeAsync(topic);
  return { client, got };
}

describe('the broker connection', () => {
  it('subscribes after connecting and hands on parsed updates and upload progress', async () => {
    const updates: UpdateMessage[] = [];
    const uploads: number[] = [];
    const states: BrokerState['name'][] = [];
    const c = connection({
      update: (u) => updates.push(u),
      upload: (p) => uploads.push(p.progress),
      state: (s) => states.push(s.name),
    });
    c.start();
    await until('subscribed', () => c.state.name === 'connected' && c.state.subscribed);
    const hidden = { action: 'hidden', muid: 'm', ts: 1, seq: 1 };
    aedes.publish(
      {
        cmd: 'publish',
        topic: topics.modelUpdates(ACCOUNT),
        payload: JSON.stringify(hidden),
        qos: 0,
        retain: false,
        dup: false,
      },
      () => undefined,
    );
    aedes.publish(
      {
        cmd: 'publish',
        topic: topics.modelUpdates(ACCOUNT),
        payload: '{"not":"an update"}',
        qos: 0,
        retain: false,
        dup: false,
      },
      () => undefined,
    );
    aedes.publish(
      {
        cmd: 'publish',
        topic: topics.uploadProgress(ACCOUNT),
        payload: JSON.stringify({ id: 'f', message: 'Uploading', progress: 0.5 }),
        qos: 0,
        retain: false,
        dup: false,
      },
      () => undefined,
    );
    await until('delivered', () => updates.length === 1 && uploads.length === 1);
    expect(updates).toEqual([hidden]);
    expect(uploads).toEqual([0.5]);
    expect(states.slice(0, 3)).toEqual(['credentials', 'connecting', 'connected']);
  });

  it('keeps a publish made while disconnected and sends it once connected', async () => {
    const { client, got } = await listener('terminal/x');
    try {
      const c = connection();
      c.publish('terminal/x', 'early');
      expect(c.unsentCount).toBe(1);
      c.start();
      await until('delivered', () => got.length === 1);
      expect(got).toEqual(['early']);
      expect(c.unsentCount).toBe(0);
    } finally {
      await client.endAsync(true);
    }
  });

  it('reconnects with fresh credentials after the broker drops it, and subscribes again', async () => {
    const c = connection();
    c.start();
    await until('subscribed', () => c.state.name === 'connected' && c.state.subscribed);
    const calls = credentialCalls;
    for (const client of live) client.close();
    await until(
      'back',
      () => c.state.name === 'connected' && c.state.subscribed && credentialCalls > calls,
    );
  });

  it('refused credentials (401) sign the user out; a server error only retries', async () => {
    credentialsStatus = 500;
    const refused: string[] = [];
    const c = connection({ refused: (e) => refused.push(e.message) });
    const calls = credentialCalls;
    c.start();
    await until('retried', () => credentialCalls >= calls + 2);
    expect(c.state.name).toBe('waiting');
    expect(refused).toEqual([]);
    credentialsStatus = 401;
    await until('signed out', () => c.state.name === 'signed-out');
    expect(refused).toEqual(['Unauthenticated.']);
  });
});
