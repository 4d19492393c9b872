import mqtt, { type MqttClient } from 'mqtt';
import { WebSocket } from 'ws';
import { apiPaths, TIMINGS, uuidv7 } from '@plant/shared-schema';
import { dataOf, type TestServer } from './harness';

/** What GET user/browser/mqtt answers. */
export interface Creds {
  username: string;
  clientid: string;
  password: string;
}

export interface ConnectOptions {
  clientId: string;
  username: string;
  password: string;
  keepalive?: number;
  will?: { topic: string; payload: Buffer; qos: 0 | 1; retain: boolean };
}

/**
 * Real mqtt.js clients (MQTT 3.1.1 over WebSocket) against a test server's broker. `closeAll()`
 * ends every client made since the last call (for afterEach).
 */
export function brokerClients(server: () => TestServer) {
  const clients: MqttClient[] = [];
  const wsUrl = () => `${server().url.replace('http', 'ws')}/mqtt`;

  /** A sign-in with broker credentials for a new browser id. */
  async function session(email: string) {
    const s = server();
    const token = await s.signIn(email);
    const user = dataOf<{ id: string; account: string }>(
      await s.call('GET', apiPaths.user(), { token }),
    );
    const creds = dataOf<Creds>(
      await s.call('GET', apiPaths.browserMqtt(`browser-${uuidv7()}`), { token }),
    );
    return { token, user, creds };
  }

  /** Connects with the spec's keepalive (55 s) unless told otherwise. */
  async function connect(
    creds: Creds,
    keepalive: number = TIMINGS.brokerKeepaliveS,
  ): Promise<MqttClient> {
    const client = await mqtt.connectAsync(wsUrl(), {
      protocolVersion: 4,
      clientId: creds.clientid,
      username: creds.username,
      password: creds.password,
      keepalive,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    clients.push(client);
    return client;
  }

  /** Connecting must fail: answers the error. */
  async function refused(options: ConnectOptions): Promise<Error> {
    try {
      const client = await mqtt.connectAsync(wsUrl(), {
        protocolVersion: 4,
        reconnectPeriod: 0,
        connectTimeout: 3000,
        ...options,
      });
      clients.push(client);
    } catch (err) {
      return err as Error;
    }
    throw new Error('the broker accepted the connection');
  }

  async function closeAll(): Promise<void> {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  }

  return { session, connect, refused, closeAll };
}

/** The options to connect with these credentials. */
export const asOptions = (creds: Creds): ConnectOptions => ({
  clientId: creds.clientid,
  username: creds.username,
  password: creds.password,
});

/** Every message the client receives, payload parsed. */
export function collect(client: MqttClient) {
  const got: { topic: string; payload: unknown }[] = [];
  client.on('message', (topic, payload) =>
    got.push({ topic, payload: JSON.parse(payload.toString()) as unknown }),
  );
  return got;
}

/** Resolves when the client's connection closes. */
export const closing = (client: MqttClient) =>
  new Promise<void>((resolve) => client.once('close', () => resolve()));

/** Resolves as `promise` does, or rejects if it has not within `ms`. */
export const within = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    promise,
    settle(ms).then(() => {
      throw new Error(`not within ${ms} ms`);
    }),
  ]);

export const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

/** Waits for `check` to hold: 10 s by default, a broker hop or two on a busy machine. */
export async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await settle(20);
  }
}

/**
 * The fixed header of an MQTT packet (type byte, remaining length as MQTT 2.2.3 writes it), for
 * tests that announce a packet and never send its body.
 */
export function fixedHeader(typeByte: number, remainingLength: number): Buffer {
  const bytes = [typeByte];
  let left = remainingLength;
  do {
    let digit = left % 128;
    left = Math.floor(left / 128);
    if (left > 0) digit |= 0x80;
    bytes.push(digit);
  } while (left > 0);
  return Buffer.from(bytes);
}

/** A raw WebSocket to the broker (subprotocol mqtt), open. */
export async function rawBrokerSocket(server: TestServer): Promise<WebSocket> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/mqtt`, 'mqtt');
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}
