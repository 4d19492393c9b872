import mqtt, { type MqttClient } from 'mqtt';
import {
  apiPaths,
  callConfigSchema,
  callRingSchema,
  callSignalSchema,
  TIMINGS,
  topics,
  type CallRing,
  type CallSignal,
  type IceServer,
} from '@plant/shared-schema';
import { syncWorker } from '../../../sync/worker';

/*
 * Calls' signalling (issue 34 item 3): a broker link of the page's own, not the sync worker's:
 * signalling is for now, never for later (an offer sent after the call ended means nothing), the
 * worker's link belongs to one tab of many, and a call must end when its page closes (the broker
 * tells the server when the link a call was heard or spoken on ends). The link is made while a
 * request's call panel is open (`warmUp`), subscribed to the user's inboxes of every call and to
 * its rings, so a call waits for no link and no subscription: made at the click, the link's
 * credentials and CONNECT were a third of the set-up time, a call's own subscription a fifth
 * (bench/call.bench.ts).
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

/** Whose calls a tab's link carries: the signed-in user in its active account. */
export interface CallIdentity {
  readonly accountId: string;
  readonly userId: string;
}

/** How long, and how many, messages of a call this tab has no session for yet are kept. */
const PENDING_MS = 30_000;
const PENDING_MAX = 100;

/**
 * The tab's link, subscribed to its user's inboxes of every call and to the calls that ring for
 * it before any call is made: a call's first message (the caller's offer, in the ring or over
 * the broker, comes before the agent answered) is kept until its session takes it.
 */
interface TabLink {
  readonly key: string;
  readonly client: Promise<MqttClient>;
  readonly calls: Map<string, (signal: CallSignal) => void>;
  readonly pending: Map<string, { readonly at: number; readonly signals: CallSignal[] }>;
  readonly rings: Set<(ring: CallRing) => void>;
}

let link: TabLink | undefined;
let config: Promise<readonly IceServer[]> | undefined;
let holders = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

const keyOf = (who: CallIdentity) => `${who.accountId}/${who.userId}`;

function theLink(who: CallIdentity): TabLink {
  if (link !== undefined && link.key === keyOf(who)) return link;
  // Another user or account in this tab: the old link's calls are not this one's.
  void link?.client.then((old) => old.endAsync()).catch(() => undefined);
  const inboxes = topics.callInboxes(who.accountId, who.userId);
  const ringTopic = topics.callRing(who.accountId);
  const inboxPrefix = `account/${who.accountId}/calls/`;
  const inboxSuffix = `/to/${who.userId}`;
  const made: TabLink = {
    key: keyOf(who),
    calls: new Map(),
    pending: new Map(),
    rings: new Set(),
    client: connect().then(async (client) => {
      client.on('message', (topic, payload) => {
        let json: unknown;
        try {
          json = JSON.parse(payload.toString());
        } catch {
          return; // Not JSON: nothing the broker passes on.
        }
        if (topic === ringTopic) {
          const ring = callRingSchema.safeParse(json);
          if (!ring.success) return;
          // The caller's offer, sent with its call: the call's first message, kept for its session.
          const { call_id: callId, caller, offer } = ring.data;
          if (offer !== undefined && !made.calls.has(callId))
            keep(made, callId, {
              type: 'description',
              from: caller.user_id,
              description: { type: 'offer', sdp: offer },
            });
          for (const listener of made.rings) listener(ring.data);
          return;
        }
        if (!topic.startsWith(inboxPrefix) || !topic.endsWith(inboxSuffix)) return;
        const callId = topic.slice(inboxPrefix.length, -inboxSuffix.length);
        const signal = callSignalSchema.safeParse(json);
        if (!signal.success) return;
        const session = made.calls.get(callId);
        if (session !== undefined) session(signal.data);
        else keep(made, callId, signal.data);
      });
      const granted = await client.subscribeAsync({
        [inboxes]: { qos: 1 },
        [ringTopic]: { qos: 0 },
      });
      if (granted.some((g) => g.qos === 128)) {
        void client.endAsync();
        throw new Error('the calls’ topics were refused');
      }
      return client;
    }),
  };
  link = made;
  made.client.then(
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

/** A message of a call this tab has no session for (yet): kept a while, a bounded number. */
function keep(made: TabLink, callId: string, signal: CallSignal): void {
  const now = Date.now();
  for (const [id, kept] of made.pending) if (now - kept.at > PENDING_MS) made.pending.delete(id);
  let kept = made.pending.get(callId);
  if (kept === undefined) {
    if (made.pending.size >= PENDING_MAX) return;
    kept = { at: now, signals: [] };
    made.pending.set(callId, kept);
  }
  if (kept.signals.length < PENDING_MAX) kept.signals.push(signal);
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
export function warmUp(who: CallIdentity): () => void {
  holders += 1;
  clearTimeout(idleTimer);
  void theLink(who).client.catch(() => undefined);
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
      void ending?.client.then((client) => client.endAsync()).catch(() => undefined);
    }, IDLE_END_MS);
  };
}

/**
 * Tells `onRing` each call that rings for this user while the returned stop is not called (an
 * agent's call panel, its ringer elsewhere in the app: the broker passes a ring to the agent's
 * links only, before the request's model says it). Holds the tab's link like `warmUp`, and a
 * new one when it closes (an expired token, a network change: the link does not reconnect by
 * itself), tried again after 1 s, then longer, up to 30 s. `onListening` says whether the link
 * is subscribed to the rings now (a ring sent while it is not is not heard).
 */
export function hearRings(
  who: CallIdentity,
  onRing: (ring: CallRing) => void,
  onListening?: (listening: boolean) => void,
): () => void {
  let stopped = false;
  let current: TabLink | undefined;
  let release: (() => void) | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = RING_RETRY_MS;
  const lost = (made: TabLink) => {
    if (stopped || current !== made) return;
    made.rings.delete(onRing);
    current = undefined;
    onListening?.(false);
    release?.();
    release = undefined;
    retry = setTimeout(follow, delay);
    delay = Math.min(delay * 2, RING_RETRY_MAX_MS);
  };
  const follow = () => {
    if (stopped) return;
    release = warmUp(who);
    const made = theLink(who);
    current = made;
    made.rings.add(onRing);
    made.client.then(
      (client) => {
        if (stopped || current !== made) return;
        delay = RING_RETRY_MS;
        onListening?.(true);
        if (client.connected) client.once('close', () => lost(made));
        else lost(made);
      },
      () => lost(made),
    );
  };
  follow();
  return () => {
    stopped = true;
    clearTimeout(retry);
    current?.rings.delete(onRing);
    release?.();
  };
}

/** A lost rings' link is made again after this, doubled each time it fails, up to the max. */
const RING_RETRY_MS = 1_000;
const RING_RETRY_MAX_MS = 30_000;

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
 * Takes this user's messages of the call from the tab's link (those that came before, first) and
 * answers how to talk to the peer; rejects when the broker cannot be reached or refuses (the
 * page says 'No connection with the discovery service possible').
 */
export async function openSignalling(options: {
  readonly accountId: string;
  readonly callId: string;
  readonly userId: string;
  readonly peerId: string;
  readonly onSignal: (signal: CallSignal) => void;
  readonly onLost: () => void;
}): Promise<Signalling> {
  const release = warmUp(options);
  const made = theLink(options);
  let client: MqttClient;
  try {
    client = await made.client;
  } catch (err) {
    release();
    throw err;
  }
  const peer = topics.callInbox(options.accountId, options.callId, options.peerId);
  let closed = false;
  const onClose = () => {
    if (!closed) options.onLost();
  };
  client.once('close', onClose);
  made.calls.set(options.callId, options.onSignal);
  const early = made.pending.get(options.callId);
  made.pending.delete(options.callId);
  for (const signal of early?.signals ?? []) options.onSignal(signal);
  const close = () => {
    if (closed) return;
    closed = true;
    made.calls.delete(options.callId);
    client.off('close', onClose);
    release();
  };
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
 * made with its calls' topics (the tab's, kept for the call); true when all worked.
 */
export async function checkSignalling(who: CallIdentity): Promise<boolean> {
  const release = warmUp(who);
  try {
    await theLink(who).client;
    return true;
  } catch {
    return false;
  } finally {
    release();
  }
}
