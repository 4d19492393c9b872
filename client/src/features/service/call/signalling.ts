import mqtt, { type MqttClient } from 'mqtt';
import {
  apiPaths,
  callConfigSchema,
  callSignalSchema,
  TIMINGS,
  topics,
  type CallSignal,
  type IceServer,
} from '@plant/shared-schema';
import { syncWorker } from '../../../sync/worker';

/*
 * Calls' signalling (issue 34 item 3): a broker link of the page's own, not the sync worker's:
 * signalling is for now, never for later (an offer sent after the call ended means nothing), the
 * worker's link belongs to one tab of many, and a call must end when its page closes (the broker
 * tells the server when the link a call was heard on ends). The link is made while a request's
 * call panel is open (`warmUp`), so a call only subscribes to its inbox: made at the click, the
 * link's credentials and CONNECT were a third of the set-up time (bench/call.bench.ts).
 */

/** How long connecting may take before the call says the signalling cannot be reached. */
const CONNECT_TIMEOUT_MS = 10_000;
/** A link no panel holds any more ends after this (a panel reopened at once keeps it). */
const IDLE_END_MS = 5_000;

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

/** A new broker link with fresh credentials (rejects when the broker cannot be reached). */
async function connect(): Promise<MqttClient> {
  const answer = await syncWorker().http.call(
    'GET',
    apiPaths.browserMqtt(tabBrowserId()),
    undefined,
    { quiet: true },
  );
  if ('error' in answer) throw new Error(answer.error.message);
  const creds = (answer.data as { data: { clientid: string; username: string; password: string } })
    .data;
  return mqtt.connectAsync(
    `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/mqtt`,
    {
      protocolVersion: 4,
      clientId: creds.clientid,
      username: creds.username,
      password: creds.password,
      keepalive: TIMINGS.brokerKeepaliveS,
      reconnectPeriod: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
      clean: true,
      // mqtt.js's browser timers run in a worker made from a blob: the CSP allows none.
      timerVariant: 'native',
    },
  );
}

/** The tab's link and the ICE servers, shared by its call panels and calls. */
let link: Promise<MqttClient> | undefined;
let config: Promise<readonly IceServer[]> | undefined;
let holders = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function theLink(): Promise<MqttClient> {
  const current = link;
  if (current !== undefined) return current;
  const made = connect();
  link = made;
  made.then(
    (client) => {
      client.once('close', () => {
        if (link === made) link = undefined;
      });
    },
    () => {
      if (link === made) link = undefined;
    },
  );
  return made;
}

/** The ICE servers of calls (GET calls/config), read once per tab. */
export function iceServers(): Promise<readonly IceServer[]> {
  config ??= syncWorker()
    .http.call('GET', apiPaths.callConfig(), undefined, { quiet: true })
    .then((answer) => {
      if ('error' in answer) throw new Error(answer.error.message);
      return callConfigSchema.parse((answer.data as { data?: unknown }).data).ice_servers;
    })
    .catch(() => {
      config = undefined;
      return [];
    });
  return config;
}

/**
 * A call panel is open: the link is made now (and kept while any panel is). Answers the release,
 * after which the link ends once no panel or call holds it for a few seconds.
 */
export function warmUp(): () => void {
  holders += 1;
  clearTimeout(idleTimer);
  void theLink().catch(() => undefined);
  void iceServers();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders > 0) return;
    idleTimer = setTimeout(() => {
      if (holders > 0) return;
      const ending = link;
      link = undefined;
      void ending?.then((client) => client.endAsync()).catch(() => undefined);
    }, IDLE_END_MS);
  };
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
 * Listens to this user's inbox of the call on the tab's link and answers how to talk to the
 * peer; rejects when the broker cannot be reached or refuses (the page says 'No connection with
 * the discovery service possible').
 */
export async function openSignalling(options: {
  readonly accountId: string;
  readonly callId: string;
  readonly userId: string;
  readonly peerId: string;
  readonly onSignal: (signal: CallSignal) => void;
  readonly onLost: () => void;
}): Promise<Signalling> {
  const release = warmUp();
  let client: MqttClient;
  try {
    client = await theLink();
  } catch (err) {
    release();
    throw err;
  }
  const own = topics.callInbox(options.accountId, options.callId, options.userId);
  const peer = topics.callInbox(options.accountId, options.callId, options.peerId);
  let closed = false;
  const onMessage = (topic: string, payload: Buffer) => {
    if (topic !== own) return;
    try {
      const parsed = callSignalSchema.safeParse(JSON.parse(payload.toString()));
      if (parsed.success) options.onSignal(parsed.data);
    } catch {
      // Not JSON: nothing the broker passes on.
    }
  };
  const onClose = () => {
    if (!closed) options.onLost();
  };
  client.on('message', onMessage);
  client.once('close', onClose);
  const close = () => {
    if (closed) return;
    closed = true;
    client.off('message', onMessage);
    client.off('close', onClose);
    if (client.connected) void client.unsubscribeAsync(own).catch(() => undefined);
    release();
  };
  const granted = await client.subscribeAsync(own, { qos: 1 }).catch(() => undefined);
  if (granted === undefined || granted.some((g) => g.qos === 128)) {
    close();
    throw new Error('the call’s topic was refused');
  }
  const payloadOf = (signal: OutgoingSignal) => JSON.stringify({ ...signal, from: options.userId });
  return {
    send: (signal) => {
      if (!closed) client.publish(peer, payloadOf(signal), { qos: 1 });
    },
    sendNow: async (signal, ms) => {
      if (closed) return;
      await Promise.race([
        client.publishAsync(peer, payloadOf(signal), { qos: 1 }).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, ms)),
      ]);
    },
    close,
  };
}

/**
 * The pre-call check's test of the signalling: credentials from the server and a broker link
 * made (the tab's, kept for the call); true when both worked.
 */
export async function checkSignalling(): Promise<boolean> {
  const release = warmUp();
  try {
    await theLink();
    return true;
  } catch {
    return false;
  } finally {
    release();
  }
}
