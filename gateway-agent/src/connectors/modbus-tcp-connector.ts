import { Socket } from 'node:net';
import { ModbusTCPClient, UserRequestError } from 'jsmodbus';
import { modbusTcpSettingsSchema, type ModbusTcpSettings } from '@plant/shared-schema';
import type { Connector, ConnectorContext, Reading } from './connector';
import {
  decodeBit,
  decodeRegisters,
  describeRange,
  isBitArea,
  planModbusReads,
  splitGroup,
  type ReadGroup,
} from './modbus-plan';
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
import { createValuePipeline, type RawValue } from './values';

export interface ModbusTcpConnectorOptions {
  /** How long one request waits for its answer. */
  readonly timeoutMs?: number;
  /** How long a TCP connect may take before it is given up. */
  readonly connectTimeoutMs?: number;
}

const DEFAULTS = { timeoutMs: 3_000, connectTimeoutMs: 5_000 } as const;
/** Polls in a row without any answer after which the link is taken for dead and reopened. */
const SILENT_POLLS_BEFORE_RECONNECT = 3;

/**
 * The Modbus TCP connector (DESIGN.md §8): jsmodbus over our own socket, polled every interval.
 *
 *   start() ─► connecting ──socket open──► poll ─► connected (every answer fine)
 *                  │                         │ └─► failed(error) on a timeout or exception, but
 *            connect fails                   │     the socket stays; the next poll tries again
 *                  ▼                         │ socket closed, or 3 polls in a row unanswered
 *   ┌───────► failed(error) ◄────────────────┘
 *   │              │ backoff 1 s doubling to 30 s (back to 1 s after a connect)
 *   └── fails ─────┴──► connect again
 *
 * Each poll reads every datapoint with as few requests as possible (contiguous addresses of one
 * area together, at most 125 registers or 2000 bits each); a request the device refuses for its
 * addresses is split into one request per datapoint from then on, so that the good ones still
 * read and the error names the bad address. Polls never overlap: a slow one skips ticks.
 */
export function createModbusTcpConnector(
  ctx: ConnectorContext,
  options: ModbusTcpConnectorOptions = {},
): Connector {
  const { connection, log } = ctx;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
  const status = createStatusKeeper(ctx, 'Modbus TCP');
  const stopping = new AbortController();
  const stopped = () => stopping.signal.aborted;

  const plan = planModbusReads(connection.datapoints);
  const groups: ReadGroup[] = [...plan.groups];
  const pipelines = new Map(connection.datapoints.map((d) => [d.id, createValuePipeline(d)]));

  const run = async () => {
    const parsed = modbusTcpSettingsSchema.safeParse(connection.settings);
    if (!parsed.success) {
      return status.set('failed', 'The connection settings are not valid for Modbus TCP');
    }
    const settings = parsed.data;
    status.announce();
    for (let attempt = 0; !stopped(); attempt++) {
      let failure: string;
      try {
        const link = await openLink(settings, { timeoutMs, connectTimeoutMs }, stopping.signal);
        attempt = -1; // connected: the next failure starts at the first delay again
        log.info('Modbus TCP connected', { host: settings.host, port: settings.port });
        failure = await runSession(link, settings);
      } catch (err) {
        failure = describeConnectError(err, settings);
      }
      if (stopped()) return;
      status.set('failed', failure);
      await sleep(backoffDelay(attempt), stopping.signal);
    }
  };

  /** Polls over one open socket until it is lost (the reason returned) or stop() is called. */
  const runSession = async (link: Link, settings: ModbusTcpSettings): Promise<string> => {
    const { socket, client } = link;
    const session = new AbortController();
    let lost: string | undefined;
    const end = (reason: string) => {
      lost ??= reason;
      session.abort();
      // Pending requests are rejected at once (jsmodbus answers them "offline" on close).
      socket.destroy();
    };
    const onStop = () => end('stopped');
    stopping.signal.addEventListener('abort', onStop, { once: true });
    socket.on('error', (err) => {
      lost ??= `Connection to the device lost (${errorCode(err) ?? err.message}): reconnecting`;
    });
    socket.once('close', () => end('Connection to the device lost: reconnecting'));
    let silentPolls = 0;
    try {
      await everyInterval(connection.interval_ms, session.signal, async () => {
        const result = await poll(client, settings);
        if (session.signal.aborted) return; // the socket went meanwhile: that is the news
        const error = summarize(result.problems);
        status.set(error === null ? 'connected' : 'failed', error);
        silentPolls = result.answered ? 0 : silentPolls + 1;
        if (silentPolls >= SILENT_POLLS_BEFORE_RECONNECT) {
          end(`No answer from the device (${SILENT_POLLS_BEFORE_RECONNECT} polls): reconnecting`);
        }
      });
      return lost ?? 'stopped';
    } finally {
      stopping.signal.removeEventListener('abort', onStop);
      await closeSocket(socket);
    }
  };

  /** Reads every group once; emits what was read; returns what went wrong. */
  const poll = async (
    client: ModbusTCPClient,
    settings: ModbusTcpSettings,
  ): Promise<{ problems: string[]; answered: boolean }> => {
    const problems = [...plan.problems];
    const readings: Reading[] = [];
    let answered = groups.length === 0;
    for (let i = 0; i < groups.length; i++) {
      const group = groups[i];
      if (!group) continue;
      try {
        const data = await readGroup(client, group);
        answered = true;
        const ts = ctx.now();
        status.read(ts);
        for (const point of group.points) {
          const raw: RawValue = isBitArea(group.area)
            ? decodeBit(data, group.start, point.address.index)
            : decodeRegisters(data, group.start, point.address);
          const value = pipelines.get(point.datapoint.id)?.(raw);
          if (value !== undefined) readings.push({ datapoint: point.datapoint, ts, value });
        }
      } catch (err) {
        const failure = describeRequestError(err, group, settings, timeoutMs);
        if (failure.kind === 'exception') answered = true;
        if (failure.splittable && group.points.length > 1) {
          // Which of them does the device refuse? Each on its own, now and from now on.
          log.info('Modbus TCP request split', { range: failure.message });
          groups.splice(i, 1, ...splitGroup(group));
          i--;
          continue;
        }
        problems.push(failure.message);
        if (failure.kind === 'timeout' || failure.kind === 'offline') break;
      }
    }
    if (readings.length > 0 && !stopped()) ctx.events.values(readings);
    return { problems, answered };
  };

  return loopConnector('Modbus TCP connector', log, status, stopping, run);
}

// ---------------------------------------------------------------------------------------------
// The socket and the requests

interface Link {
  readonly socket: Socket;
  readonly client: ModbusTCPClient;
}

/** Opens a socket with a jsmodbus client on it (made before the connect, which it listens to). */
function openLink(
  settings: ModbusTcpSettings,
  times: { timeoutMs: number; connectTimeoutMs: number },
  signal: AbortSignal,
): Promise<Link> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    const client = new ModbusTCPClient(socket, settings.unit_id, times.timeoutMs);
    const timer = setTimeout(
      () => fail(new ConnectTimeout(times.connectTimeoutMs)),
      times.connectTimeoutMs,
    );
    const onAbort = () => fail(new Error('stopped'));
    const cleanup = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.off('connect', connected);
      socket.off('error', fail);
    };
    function connected() {
      cleanup();
      socket.setNoDelay(true);
      // A device that vanishes without a word is noticed by TCP keepalive.
      socket.setKeepAlive(true, 10_000);
      resolve({ socket, client });
    }
    function fail(err: Error) {
      cleanup();
      socket.on('error', () => undefined); // late errors of a socket given up are no news
      closeSocket(socket).then(
        () => reject(err),
        () => reject(err),
      );
    }
    if (signal.aborted) return fail(new Error('stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', connected);
    socket.once('error', fail);
    socket.connect({ host: settings.host, port: settings.port });
  });
}

/** Destroys the socket and resolves once it is closed. */
function closeSocket(socket: Socket): Promise<void> {
  if (socket.closed) return Promise.resolve();
  return new Promise((resolve) => {
    socket.once('close', () => resolve());
    socket.destroy();
  });
}

class ConnectTimeout extends Error {
  constructor(readonly ms: number) {
    super(`connect timeout after ${ms} ms`);
  }
}

class ShortAnswer extends Error {
  constructor(
    readonly got: number,
    readonly wanted: number,
  ) {
    super(`short answer: ${got} of ${wanted}`);
  }
}

async function readGroup(client: ModbusTCPClient, group: ReadGroup): Promise<Buffer> {
  const { start, count } = group;
  switch (group.area) {
    case 'holding': {
      const { response } = await client.readHoldingRegisters(start, count);
      return enough(response.body.valuesAsBuffer, count * 2, 2);
    }
    case 'input': {
      const { response } = await client.readInputRegisters(start, count);
      return enough(response.body.valuesAsBuffer, count * 2, 2);
    }
    case 'coil': {
      const { response } = await client.readCoils(start, count);
      return enough(response.body.valuesAsBuffer, Math.ceil(count / 8), 1 / 8);
    }
    case 'discrete': {
      const { response } = await client.readDiscreteInputs(start, count);
      return enough(response.body.valuesAsBuffer, Math.ceil(count / 8), 1 / 8);
    }
    default: {
      const unknown: never = group.area;
      throw new Error(`Unknown Modbus area ${String(unknown)}`);
    }
  }
}

/** The answer's bytes when there are as many as asked for (units: bytes per register or bit). */
function enough(bytes: Buffer, wanted: number, bytesPerUnit: number): Buffer {
  if (bytes.length < wanted) {
    throw new ShortAnswer(
      Math.floor(bytes.length / bytesPerUnit),
      Math.round(wanted / bytesPerUnit),
    );
  }
  return bytes;
}

interface RequestFailure {
  readonly kind: 'timeout' | 'exception' | 'offline' | 'other';
  readonly message: string;
  /** The device refused the addresses or the count: one request per datapoint may do better. */
  readonly splittable: boolean;
}

const EXCEPTIONS: Record<number, string> = {
  1: 'Illegal function',
  2: 'Illegal data address',
  3: 'Illegal data value',
  4: 'Device failure',
  5: 'Device busy (acknowledge)',
  6: 'Device busy',
  8: 'Memory parity error',
};

function describeRequestError(
  err: unknown,
  group: ReadGroup,
  settings: ModbusTcpSettings,
  timeoutMs: number,
): RequestFailure {
  const range = describeRange(group.area, group.start, group.count);
  const other = (message: string): RequestFailure => ({
    kind: 'other',
    message,
    splittable: false,
  });
  if (err instanceof ShortAnswer) {
    const unit = isBitArea(group.area) ? 'bits' : 'registers';
    return other(`The device answered ${err.got} of ${err.wanted} ${unit} at ${range}`);
  }
  if (!(err instanceof UserRequestError)) {
    return other(`Reading ${range} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  switch (err.err) {
    case 'Timeout':
      return {
        kind: 'timeout',
        message: `No answer from the device within ${seconds(timeoutMs)} (reading ${range})`,
        splittable: false,
      };
    case 'Offline':
      return { kind: 'offline', message: 'Connection to the device lost', splittable: false };
    case 'ModbusException': {
      const code = exceptionCode(err);
      const message =
        code === 10
          ? `Gateway path unavailable for unit ${settings.unit_id} (reading ${range})`
          : code === 11
            ? `The device behind the gateway (unit ${settings.unit_id}) did not answer (reading ${range})`
            : `${(code !== undefined && EXCEPTIONS[code]) || `Modbus exception ${code ?? '?'}`} at ${range}`;
      return { kind: 'exception', message, splittable: code === 2 || code === 3 };
    }
    case 'OutOfSync':
    case 'Protocol':
    case 'crcMismatch':
    case 'ManuallyCleared':
      return other(`The device's answer did not fit the request (reading ${range})`);
    default: {
      const unknown: never = err.err;
      return other(`Reading ${range} failed (${String(unknown)})`);
    }
  }
}

function exceptionCode(err: { readonly response?: unknown }): number | undefined {
  const response = err.response;
  if (typeof response !== 'object' || response === null || !('body' in response)) return undefined;
  const body: unknown = response.body;
  if (typeof body !== 'object' || body === null || !('code' in body)) return undefined;
  return typeof body.code === 'number' ? body.code : undefined;
}

function describeConnectError(err: unknown, settings: ModbusTcpSettings): string {
  if (err instanceof ConnectTimeout) {
    return `No answer from ${settings.host}:${settings.port} within ${seconds(err.ms)}`;
  }
  return describeConnectFailure(
    err,
    settings.host,
    settings.port,
    'is Modbus TCP on at this port?',
  );
}
