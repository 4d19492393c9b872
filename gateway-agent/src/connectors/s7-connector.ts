import NodeS7 from 'nodes7';
import {
  s7AddressSchema,
  s7SettingsSchema,
  type AgentDatapoint,
  type S7Settings,
} from '@plant/shared-schema';
import type { Connector, ConnectorContext, Reading } from './connector';
import {
  backoffDelay,
  createStatusKeeper,
  describeConnectFailure,
  errorCode,
  everyInterval,
  loopConnector,
  seconds,
  sleep,
  summarize,
} from './polling';
import { toNodes7Address } from './s7-address';
import { createValuePipeline } from './values';

export interface S7ConnectorOptions {
  /** nodes7's timeout: TCP connect, and the answer to every packet (ms). */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/** One nodes7 item: the address as the datapoints wrote it, and the datapoints that read it. */
interface Item {
  readonly address: string;
  readonly datapoints: AgentDatapoint[];
}

/**
 * The S7 connector (DESIGN.md §8): nodes7 (which groups the items into few PDUs itself), polled
 * every interval.
 *
 *   start() ─► connecting ──S7 session up──► poll ─► connected (every item has its value)
 *                  │                          │ └─► failed(error) for items the PLC refuses
 *            connect fails                    │     (no such DB, too short): the others still read
 *                  ▼                          │ connection lost, or a read unanswered in time
 *   ┌───────► failed(error) ◄─────────────────┘
 *   │              │ backoff 1 s doubling to 30 s (back to 1 s after a connect)
 *   └── fails ─────┴──► a fresh nodes7 instance connects
 *
 * nodes7 reconnects by itself, but calls its connect callback only once and retries every read
 * without backoff; so an instance whose connection is lost is dropped (its timers and socket with
 * it) and a new one made, as for Modbus.
 */
export function createS7Connector(
  ctx: ConnectorContext,
  options: S7ConnectorOptions = {},
): Connector {
  const { connection, log } = ctx;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const status = createStatusKeeper(ctx, 'S7');
  const stopping = new AbortController();
  const stopped = () => stopping.signal.aborted;

  const problems: string[] = [];
  const items = new Map<string, Item>();
  for (const datapoint of connection.datapoints) {
    const parsed = s7AddressSchema.safeParse(datapoint.address);
    if (!parsed.success) {
      problems.push(`Datapoint ${datapoint.id} has no valid S7 address`);
      continue;
    }
    const mapped = toNodes7Address(parsed.data.address, parsed.data.datatype);
    if (!mapped.ok) {
      problems.push(mapped.error);
      continue;
    }
    const item = items.get(mapped.address);
    if (item) item.datapoints.push(datapoint);
    else items.set(mapped.address, { address: parsed.data.address, datapoints: [datapoint] });
  }
  const pipelines = new Map(connection.datapoints.map((d) => [d.id, createValuePipeline(d)]));

  const run = async () => {
    const parsed = s7SettingsSchema.safeParse(connection.settings);
    if (!parsed.success)
      return status.set('failed', 'The connection settings are not valid for S7');
    const settings = parsed.data;
    status.announce();
    for (let attempt = 0; !stopped(); attempt++) {
      let failure: string;
      try {
        const plc = await openPlc(settings, timeoutMs, stopping.signal);
        attempt = -1; // connected: the next failure starts at the first delay again
        log.info('S7 connected', { host: settings.host, port: settings.port });
        failure = await runSession(plc);
      } catch (err) {
        failure = describeS7ConnectError(err, settings, timeoutMs);
      }
      if (stopped()) return;
      status.set('failed', failure);
      await sleep(backoffDelay(attempt), stopping.signal);
    }
  };

  /** Polls over one S7 session until it is lost (the reason returned) or stop() is called. */
  const runSession = async (plc: NodeS7): Promise<string> => {
    const session = new AbortController();
    const onStop = () => session.abort();
    stopping.signal.addEventListener('abort', onStop, { once: true });
    // What the socket said before nodes7 took it down: a device that hung up, or went silent?
    let peerGone: string | undefined;
    plc.isoclient?.once('end', () => (peerGone ??= 'the device closed it'));
    plc.isoclient?.on('error', (err) => (peerGone ??= errorCode(err) ?? err.message));
    let lost: string | undefined;
    plc.addItems([...items.keys()]);
    try {
      await everyInterval(connection.interval_ms, session.signal, async () => {
        if (items.size === 0)
          return status.set(problems.length ? 'failed' : 'connected', summarize(problems));
        // nodes7 answers every read in time or times it out itself; the guard is for its bugs.
        const values = await readAll(plc, timeoutMs * 2 + 1_000, session.signal);
        if (session.signal.aborted) return;
        if (values === undefined || plc.findItem('_COMMERR')?.value === true) {
          lost = peerGone
            ? `Connection to the device lost (${peerGone}): reconnecting`
            : `No answer from the device within ${seconds(timeoutMs)}: reconnecting`;
          return session.abort();
        }
        const error = summarize([...problems, ...take(values)]);
        status.set(error === null ? 'connected' : 'failed', error);
      });
      return lost ?? 'stopped';
    } finally {
      stopping.signal.removeEventListener('abort', onStop);
      await discard(plc);
    }
  };

  /** Emits the good values of one read; returns the items that had none. */
  const take = (values: Record<string, unknown>): string[] => {
    const bad: string[] = [];
    const readings: Reading[] = [];
    const ts = ctx.now();
    let any = false;
    for (const [key, item] of items) {
      const value = values[key];
      if (typeof value !== 'number' && typeof value !== 'boolean') {
        bad.push(`No value for ${item.address} (is it on the device, and long enough?)`);
        continue;
      }
      any = true;
      for (const datapoint of item.datapoints) {
        const out = pipelines.get(datapoint.id)?.(value);
        if (out !== undefined) readings.push({ datapoint, ts, value: out });
      }
    }
    if (any) status.read(ts);
    if (readings.length > 0 && !stopped()) ctx.events.values(readings);
    return bad;
  };

  return loopConnector('S7 connector', log, status, stopping, run);
}

class HandshakeTimeout extends Error {
  constructor() {
    super('S7 handshake timeout');
  }
}

/** A connected nodes7 instance, or the reason why not (the instance then dropped). */
function openPlc(settings: S7Settings, timeoutMs: number, signal: AbortSignal): Promise<NodeS7> {
  return new Promise((resolve, reject) => {
    const plc = new NodeS7({ silent: true });
    let done = false;
    // TCP connect, connection request and PDU negotiation each get timeoutMs from nodes7; a
    // handshake timeout makes nodes7 retry quietly without calling back, hence this guard.
    const guard = setTimeout(() => finish(new HandshakeTimeout()), timeoutMs * 3 + 500);
    const onAbort = () => finish(new Error('stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (err: unknown) => {
      if (done) return;
      done = true;
      clearTimeout(guard);
      signal.removeEventListener('abort', onAbort);
      if (err === undefined) return resolve(plc);
      discard(plc).then(
        () => reject(err instanceof Error ? err : new S7ConnectError(err)),
        () => reject(err instanceof Error ? err : new S7ConnectError(err)),
      );
    };
    if (signal.aborted) return finish(new Error('stopped'));
    plc.initiateConnection(
      {
        host: settings.host,
        port: settings.port,
        rack: settings.rack,
        slot: settings.slot,
        timeout: timeoutMs,
      },
      (err) => finish(err),
    );
  });
}

/** nodes7 calls back with plain objects (`{ code: 'EUSERTIMEOUT' }`) or texts as errors. */
class S7ConnectError extends Error {
  readonly code: string | undefined;
  constructor(readonly original: unknown) {
    super(typeof original === 'string' ? original : 'S7 connect error');
    this.code = errorCode(original);
  }
}

/** One readAllItems, or undefined when it did not call back within `guardMs` (or on abort). */
function readAll(
  plc: NodeS7,
  guardMs: number,
  signal: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(undefined), guardMs);
    const onAbort = () => done(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    let finished = false;
    function done(values: Record<string, unknown> | undefined) {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(values);
    }
    plc.readAllItems((_anythingBad, values) => done(values));
  });
}

/**
 * Drops a nodes7 instance for good: its reconnect and reread timers cancelled, its socket
 * destroyed; resolves once the socket is closed.
 */
async function discard(plc: NodeS7): Promise<void> {
  const socket = plc.isoclient;
  for (const timer of [
    plc.reconnectTimer,
    plc.rereadTimer,
    plc.resetTimeout,
    plc.connectTimeout,
    plc.PDUTimeout,
    plc.dropConnectionTimer ?? undefined,
  ]) {
    clearTimeout(timer);
  }
  plc.reconnectTimer = undefined;
  plc.rereadTimer = undefined;
  plc.resetTimeout = undefined;
  plc.resetPending = false;
  plc.connectCallback = undefined;
  plc.readDoneCallback = undefined;
  plc.connectionCleanup();
  if (socket === undefined || socket.closed) return;
  await new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.destroy();
  });
}

function describeS7ConnectError(err: unknown, settings: S7Settings, timeoutMs: number): string {
  const where = `${settings.host}:${settings.port}`;
  if (err instanceof HandshakeTimeout) {
    return `${where} did not complete the S7 handshake (check rack ${settings.rack} and slot ${settings.slot})`;
  }
  if (err instanceof S7ConnectError && typeof err.original === 'string') {
    return `${where} accepted the connection but refused the S7 session (check rack ${settings.rack} and slot ${settings.slot})`;
  }
  if (errorCode(err) === 'EUSERTIMEOUT')
    return `No answer from ${where} within ${seconds(timeoutMs)}`;
  return describeConnectFailure(
    err,
    settings.host,
    settings.port,
    'is it an S7 device, at this port?',
  );
}
