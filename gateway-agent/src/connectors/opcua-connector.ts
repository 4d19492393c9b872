import type { ConnectionStatus } from '@plant/shared-schema';
import type { BrowsingConnector, ConnectorContext } from './connector';
import { browseChildren, searchNodes } from './opcua-browse';
import { routeNodeOpcuaLogs } from './opcua-log';
import { startReading, type ReadingHandle } from './opcua-reading';
import { describeOpcuaError, openLink, parseOpcuaSettings, type OpcuaLink } from './opcua-session';

export interface OpcuaConnectorOptions {
  /** The agent's PKI folder (own certificate and key, trusted and rejected server certificates). */
  readonly pkiDir: string;
  /** References per node in one Browse answer before the device hands a continuation point. */
  readonly referencesPerNode?: number;
  /** Nodes a search looks at before it gives up with `truncated`. */
  readonly visitedNodes?: number;
}

const BACKOFF = { firstMs: 1_000, maxMs: 30_000 } as const;
/** A session close that gets no answer (device gone) is not waited for longer than this. */
const CLOSE_TIMEOUT_MS = 2_000;

/**
 * The OPC UA connector (DESIGN.md §8): values by subscription (polling where the device has
 * none), and the address-space browse and search of spec 001 §9.
 *
 *   start() ─► connecting ──session open──► connected ◄──────────────── connection_reestablished
 *                  │                           │  connection lost: node-opcua repairs      ▲
 *            open fails                        ├─ channel, session and subscription ─► failed
 *                  ▼                           │  (its own backoff, 1 s doubling to 30 s)
 *   ┌───────► failed(error) ◄──────────────────┘  subscription or session ended for good:
 *   │              │ backoff 1 s doubling to 30 s    close everything, open again
 *   └── open fails ┴──► open again ──► connected
 *
 *   stop(), from any state: session and client closed; nothing is emitted after.
 *
 * Between attempts the state stays `failed` with the latest error, so a device that stays away
 * does not flip the status every second.
 */
export function createOpcuaConnector(
  ctx: ConnectorContext,
  options: OpcuaConnectorOptions,
): BrowsingConnector {
  const { connection, log } = ctx;
  routeNodeOpcuaLogs(log);
  let status: ConnectionStatus = {
    id: connection.id,
    state: 'connecting',
    error: null,
    last_read: null,
  };
  let stopped = false;
  let loop: Promise<void> | undefined;
  let current: OpcuaLink | undefined;
  const stopping = new AbortController();

  const setStatus = (state: ConnectionStatus['state'], error: string | null) => {
    if (stopped || (status.state === state && status.error === error)) return;
    status = { ...status, state, error };
    if (state === 'failed') log.warn('OPC UA connection failed', { error });
    else log.info(`OPC UA connection ${state}`);
    ctx.events.status(status);
  };

  const run = async () => {
    const parsed = parseOpcuaSettings(connection.settings);
    if (!parsed.ok) return setStatus('failed', parsed.error);
    const settings = parsed.settings;
    ctx.events.status(status);
    for (let attempt = 0; !stopped; attempt++) {
      let failure: string;
      try {
        const link = await openLink(settings, {
          pkiDir: options.pkiDir,
          clientName: `plant-gateway ${connection.name}`,
          sessionTimeoutMs: Math.min(3_600_000, Math.max(60_000, connection.interval_ms * 10)),
          signal: stopping.signal,
        });
        link.session.requestedMaxReferencesPerNode = options.referencesPerNode ?? 1_000;
        attempt = -1; // a session was up: the next try starts at the first delay again
        failure = await runSession(link, settings.endpoint);
      } catch (err) {
        failure = describeOpcuaError(err, settings.endpoint);
      }
      if (stopped) return;
      setStatus('failed', failure);
      const delay = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** Math.max(0, attempt));
      await sleep(delay, stopping.signal);
    }
  };

  /** Runs one session until it ends for good (its reason returned) or stop() is called. */
  const runSession = async (link: OpcuaLink, endpoint: string): Promise<string> => {
    let reader: ReadingHandle | undefined;
    let end!: (reason: string) => void;
    const ended = new Promise<string>((resolve) => (end = resolve));
    const onStop = () => end('stopped');
    const onLost = () => setStatus('failed', 'Connection to the device lost: reconnecting');
    const onAttemptFailed = (err: Error) =>
      setStatus('failed', `Reconnecting: ${describeOpcuaError(err, endpoint)}`);
    const onBack = () => setStatus('connected', null);
    const onSessionClosed = () => end('The device closed the session');
    stopping.signal.addEventListener('abort', onStop, { once: true });
    link.client.on('connection_lost', onLost);
    link.client.on('reconnection_attempt_has_failed', onAttemptFailed);
    link.client.on('connection_reestablished', onBack);
    link.session.on('session_closed', onSessionClosed);
    try {
      current = link;
      setStatus('connected', null);
      reader = await startReading({
        link,
        datapoints: connection.datapoints,
        intervalMs: connection.interval_ms,
        log,
        now: ctx.now,
        events: {
          values: (readings) => {
            if (!stopped) ctx.events.values(readings);
          },
          alive: () => {
            status = { ...status, last_read: ctx.now() };
          },
          broken: end,
        },
      });
      log.info('OPC UA reading', { mode: reader.mode, datapoints: connection.datapoints.length });
      return await ended;
    } catch (err) {
      return describeOpcuaError(err, endpoint);
    } finally {
      current = undefined;
      stopping.signal.removeEventListener('abort', onStop);
      link.client.off('connection_lost', onLost);
      link.client.off('reconnection_attempt_has_failed', onAttemptFailed);
      link.client.off('connection_reestablished', onBack);
      link.session.off('session_closed', onSessionClosed);
      // While node-opcua repairs the connection, goodbyes would only queue: not waited for.
      const timeout = link.client.isReconnecting ? 0 : CLOSE_TIMEOUT_MS;
      await reader?.stop(timeout);
      await link.close(timeout);
    }
  };

  const connected = (): OpcuaLink => {
    if (!current) {
      throw new Error(`Not connected to the device${status.error ? `: ${status.error}` : ''}`);
    }
    return current;
  };

  return {
    start() {
      if (loop || stopped) return;
      loop = run().catch((err: unknown) => {
        // run() handles its failures; this is a bug, kept visible rather than unhandled.
        log.error('OPC UA connector loop crashed', { error: String(err) });
      });
    },
    async stop() {
      stopped = true;
      stopping.abort();
      await loop;
    },
    status: () => status,
    browse: (nodeId, signal) => browseChildren(connected(), nodeId, signal),
    search: (query, maxResults, signal) =>
      searchNodes(connected(), {
        query,
        maxResults,
        signal,
        ...(options.visitedNodes === undefined ? {} : { visitedNodes: options.visitedNodes }),
      }),
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
