import type { ConnectionStatus } from '@plant/shared-schema';
import type { Logger } from '../logger';
import type { Connector, ConnectorContext } from './connector';

/**
 * What the polling connectors (Modbus TCP, S7, the simulator) share: the reconnect backoff, an
 * abortable sleep, a fixed-rate tick loop that never overlaps itself, and the status they report.
 */

/** Reconnect delays: 1 s, doubling up to 30 s; back to 1 s after a successful connect. */
export const BACKOFF = { firstMs: 1_000, maxMs: 30_000 } as const;

/** The delay before reconnect attempt `attempt` (0 for the first one after a failure). */
export function backoffDelay(attempt: number): number {
  return Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** Math.max(0, Math.min(attempt, 30)));
}

/** Resolves after `ms`, or at once when `signal` is aborted (never rejects). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Runs `tick` now and then every `intervalMs` (fixed rate, measured on the monotonic clock) until
 * `signal` is aborted. A tick that takes longer than the interval is never overlapped: the ticks
 * it overran are skipped, and the next one starts on the following beat.
 */
export async function everyInterval(
  intervalMs: number,
  signal: AbortSignal,
  tick: () => Promise<void>,
): Promise<void> {
  const interval = Math.max(1, intervalMs);
  let next = performance.now();
  while (!signal.aborted) {
    await tick();
    if (signal.aborted) return;
    next += interval;
    const now = performance.now();
    if (next <= now) next += Math.ceil((now - next) / interval) * interval || interval;
    await sleep(next - now, signal);
  }
}

/** A connector's ConnectionStatus: events only on a change of state or error. */
export interface StatusKeeper {
  current(): ConnectionStatus;
  /** Changes state and error; emits `status` when either changed (not after stop()). */
  set(state: ConnectionStatus['state'], error: string | null): void;
  /** Notes a successful read (last_read), without an event, as the OPC UA connector does. */
  read(ts: number): void;
  /** Emits the current status as it is (the first report at start). */
  announce(): void;
  /** No event after this. */
  close(): void;
}

const MAX_ERROR_CHARS = 1_000;

export function createStatusKeeper(ctx: ConnectorContext, label: string): StatusKeeper {
  let status: ConnectionStatus = {
    id: ctx.connection.id,
    state: 'connecting',
    error: null,
    last_read: null,
  };
  let closed = false;
  return {
    current: () => status,
    set(state, error) {
      const text = error === null ? null : clip(error);
      if (closed || (status.state === state && status.error === text)) return;
      status = { ...status, state, error: text };
      if (state === 'failed') ctx.log.warn(`${label} connection failed`, { error: text });
      else ctx.log.info(`${label} connection ${state}`);
      ctx.events.status(status);
    },
    read(ts) {
      status = { ...status, last_read: Math.round(ts) };
    },
    announce() {
      if (!closed) ctx.events.status(status);
    },
    close() {
      closed = true;
    },
  };
}

/** One line out of several problems: the first ones in full, then how many more. */
export function summarize(problems: readonly string[]): string | null {
  if (problems.length === 0) return null;
  const [first, second] = problems;
  if (problems.length === 1) return first ?? null;
  if (problems.length === 2) return `${first}; ${second}`;
  return `${first}; ${second} (and ${problems.length - 2} more)`;
}

function clip(text: string): string {
  return text.length <= MAX_ERROR_CHARS ? text : `${text.slice(0, MAX_ERROR_CHARS - 1)}…`;
}

/** The `code` of a Node.js system error (ECONNREFUSED…), if it has one. */
export function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}

/** Why a TCP connect to a device failed, in plain words; `hint` ends a refusal's text. */
export function describeConnectFailure(
  err: unknown,
  host: string,
  port: number,
  hint: string,
): string {
  const where = `${host}:${port}`;
  const code = errorCode(err);
  switch (code ?? '') {
    case 'ECONNREFUSED':
      return `${where} refused the connection (${hint})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} cannot be reached from the gateway`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The address ${host} is unknown`;
    case 'ETIMEDOUT':
      return `No answer from ${where}`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `${where} closed the connection`;
    default:
      return `Could not connect to ${where} (${code ?? (err instanceof Error ? err.message : String(err))})`;
  }
}

/** "3 s", "0.5 s". */
export function seconds(ms: number): string {
  return ms % 1_000 === 0 ? `${ms / 1_000} s` : `${(ms / 1_000).toFixed(1)} s`;
}

/**
 * The Connector around a polling connector's loop: `start()` runs `run` once, `stop()` aborts
 * `stopping` (which the loop watches), waits for the loop and closes the status.
 */
export function loopConnector(
  label: string,
  log: Logger,
  status: StatusKeeper,
  stopping: AbortController,
  run: () => Promise<void>,
): Connector {
  let loop: Promise<void> | undefined;
  return {
    start() {
      if (loop || stopping.signal.aborted) return;
      loop = run().catch((err: unknown) => {
        // run() handles its failures; this is a bug, kept visible rather than unhandled.
        log.error(`${label} loop crashed`, { error: String(err) });
      });
    },
    async stop() {
      stopping.abort();
      await loop;
      status.close();
    },
    status: () => status.current(),
  };
}
