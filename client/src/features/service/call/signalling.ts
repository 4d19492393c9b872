import mqtt, { type MqttClient } from 'mqtt';
import { apiPaths, callSignalSchema, TIMINGS, topics, type CallSignal } from '@plant/shared-schema';
import { syncWorker } from '../../../sync/worker';

/*
 * A call's signalling (issue 34 item 3): a broker link of the call page's own, made for the call
 * and ended with it, so the call ends when its page closes (the broker tells the server). It
 * listens to this user's inbox of the call and publishes to the peer's; the broker lets only the
 * two parties do either. Not through the sync worker: signalling is for now, never for later
 * (an offer sent after the call ended means nothing), and the worker's link belongs to one tab
 * of many.
 */

/** How long connecting may take before the call says the signalling cannot be reached. */
const CONNECT_TIMEOUT_MS = 10_000;

/** This tab's id for its calls' broker credentials (one credential per tab, reused). */
function tabBrowserId(): string {
  const key = 'plant-call-browser';
  let id = sessionStorage.getItem(key);
  if (id === null) {
    id = `call-${crypto.randomUUID()}`;
    sessionStorage.setItem(key, id);
  }
  return id;
}

/** A signalling message as a party sends it (the broker sets `from`). */
export type OutgoingSignal = CallSignal extends infer T
  ? T extends unknown
    ? Omit<T, 'from'>
    : never
  : never;

export interface Signalling {
  send(signal: OutgoingSignal): void;
  /** Sends and waits until the broker has it (a `bye` before the link ends), at most `ms`. */
  sendNow(signal: OutgoingSignal, ms: number): Promise<void>;
  close(): void;
}

/**
 * Connects, subscribes to this user's inbox and answers the link; rejects when the broker cannot
 * be reached or refuses (the page says 'No connection with the discovery service possible').
 */
export async function openSignalling(options: {
  readonly accountId: string;
  readonly callId: string;
  readonly userId: string;
  readonly peerId: string;
  readonly onSignal: (signal: CallSignal) => void;
  readonly onLost: () => void;
}): Promise<Signalling> {
  const answer = await syncWorker().http.call(
    'GET',
    apiPaths.browserMqtt(tabBrowserId()),
    undefined,
    { quiet: true },
  );
  if ('error' in answer) throw new Error(answer.error.message);
  const creds = (answer.data as { data: { clientid: string; username: string; password: string } })
    .data;
  const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/mqtt`;
  const client: MqttClient = await mqtt.connectAsync(url, {
    protocolVersion: 4,
    clientId: creds.clientid,
    username: creds.username,
    password: creds.password,
    keepalive: TIMINGS.brokerKeepaliveS,
    reconnectPeriod: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    clean: true,
    // mqtt.js's browser timers run in a worker made from a blob: the CSP allows no such worker.
    timerVariant: 'native',
  });
  const own = topics.callInbox(options.accountId, options.callId, options.userId);
  const peer = topics.callInbox(options.accountId, options.callId, options.peerId);
  client.on('message', (topic, payload) => {
    if (topic !== own) return;
    try {
      const parsed = callSignalSchema.safeParse(JSON.parse(payload.toString()));
      if (parsed.success) options.onSignal(parsed.data);
    } catch {
      // Not JSON: nothing the broker passes on.
    }
  });
  let closing = false;
  client.on('close', () => {
    if (!closing) options.onLost();
  });
  const granted = await client.subscribeAsync(own, { qos: 1 }).catch(() => undefined);
  if (granted === undefined || granted.some((g) => g.qos === 128)) {
    closing = true;
    await client.endAsync(true);
    throw new Error('the call’s topic was refused');
  }
  return {
    send: (signal) => {
      client.publish(peer, JSON.stringify({ ...signal, from: options.userId }), { qos: 1 });
    },
    sendNow: async (signal, ms) => {
      await Promise.race([
        client
          .publishAsync(peer, JSON.stringify({ ...signal, from: options.userId }), { qos: 1 })
          .catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, ms)),
      ]);
    },
    close: () => {
      closing = true;
      void client.endAsync();
    },
  };
}

/**
 * The pre-call check's test of the signalling: credentials from the server and a broker link
 * made and ended; true when both worked.
 */
export async function checkSignalling(): Promise<boolean> {
  try {
    const answer = await syncWorker().http.call(
      'GET',
      apiPaths.browserMqtt(tabBrowserId()),
      undefined,
      { quiet: true },
    );
    if ('error' in answer) return false;
    const creds = (
      answer.data as { data: { clientid: string; username: string; password: string } }
    ).data;
    const client = await mqtt.connectAsync(
      `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/mqtt`,
      {
        protocolVersion: 4,
        clientId: creds.clientid,
        username: creds.username,
        password: creds.password,
        keepalive: TIMINGS.brokerKeepaliveS,
        reconnectPeriod: 0,
        connectTimeout: CONNECT_TIMEOUT_MS,
        timerVariant: 'native',
      },
    );
    await client.endAsync();
    return true;
  } catch {
    return false;
  }
}
