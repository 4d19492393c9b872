import type {
  ConnectionAttributes,
  ConnectionState,
  DatapointAttributes,
} from './models/connection';
import { GATEWAY_HEARTBEAT_MS } from './constants';

/**
 * THE rule of whether a stream's latest value is still to be believed (issue 30 item 1): the
 * client's marks on values and the server's "no data" alarms both ask it.
 *
 * - **failing**: the connection that reads the stream reports `failed` (the agent knows within
 *   one polling interval, and says so at once), and no value came since the failure began. Not
 *   after a fixed age: at once.
 * - **offline**: the gateway that feeds it is offline (the broker lost its agent).
 * - **stale**: nothing heard of the source for longer than it is expected to report, plus a
 *   grace. A value is sent only when it changes (the deadband), so an unchanged value's age says
 *   nothing; what is heard is the later of the latest value and the last good read the healthy
 *   connection reports (`last_read`, stored again at least every `CONNECTION_STATUS_REFRESH_MS`
 *   on the agent's heartbeat). A Boolean that simply stays Off is therefore fresh.
 * - **fresh**: none of these.
 *
 * A stream no known datapoint feeds (or whose gateway this user may not see) has no expected
 * interval: it is stale after `UNKNOWN_SOURCE_STALE_MS`, the old fixed rule.
 */

/** The server writes an unchanged connection status again (a fresh `last_read`) this often. */
export const CONNECTION_STATUS_REFRESH_MS = 60_000;
/** Longest a healthy connection's stored `last_read` ages between two writes (a heartbeat late). */
export const CONNECTION_REPORT_MS = CONNECTION_STATUS_REFRESH_MS + GATEWAY_HEARTBEAT_MS;
/** Slack on top of the expected interval: a read's own time, delivery, clocks a little apart. */
export const STALE_GRACE_MS = 15_000;
/** Without a known source: stale after this age (the simulator sends every 10 s). */
export const UNKNOWN_SOURCE_STALE_MS = 5 * 60_000;

/** What is known of the datapoint's source: its connection and that connection's gateway. */
export interface StreamSource {
  /** The connection's polling interval (ms). */
  readonly intervalMs: number;
  /** The connection's state as its agent reported it; null while it never did. */
  readonly status: ConnectionState | null;
  readonly gatewayOnline: boolean;
}

export interface FreshnessInput {
  readonly now: number;
  /** Time of the stream's latest value; null when it has none. */
  readonly lastValueAt: number | null;
  /** Null: no datapoint known to feed the stream. */
  readonly source: StreamSource | null;
}

export type FreshnessState = 'fresh' | 'stale' | 'failing' | 'offline';

export interface Freshness {
  readonly state: FreshnessState;
  /**
   * Since when the state holds: failing, since the connection failed; stale, since the source
   * was last heard; offline, since the value's source was last heard too. Null when fresh.
   */
  readonly since: number | null;
  /** The connection's reported error while failing, else null. */
  readonly error: string | null;
  /** When the source was last heard: the latest value or the last good read; null: never. */
  readonly heardAt: number | null;
  /** When a fresh stream turns stale if nothing more is heard; null when not fresh or unknown. */
  readonly staleAt: number | null;
}

/** How long the source may be silent before it is called stale (expected interval + grace). */
export function expectedSilenceMs(source: StreamSource | null): number {
  if (source === null) return UNKNOWN_SOURCE_STALE_MS;
  const reports = source.status === null ? 0 : CONNECTION_REPORT_MS;
  return Math.max(source.intervalMs, reports) + STALE_GRACE_MS;
}

/** When the source was last heard: its latest value, or its connection's last good read. */
export function heardAt(lastValueAt: number | null, source: StreamSource | null): number | null {
  const status = source?.status ?? null;
  const read = status !== null && status.state === 'connected' ? status.last_read : null;
  if (read === null) return lastValueAt;
  return lastValueAt === null ? read : Math.max(read, lastValueAt);
}

export function streamFreshness(input: FreshnessInput): Freshness {
  const { now, lastValueAt, source } = input;
  const heard = heardAt(lastValueAt, source);
  const status = source?.status ?? null;
  if (source !== null && !source.gatewayOnline) {
    return { state: 'offline', since: heard, error: null, heardAt: heard, staleAt: null };
  }
  if (status !== null && status.state === 'failed') {
    const since = status.since ?? status.at;
    // A value newer than the failure: this stream is still read (another datapoint fails).
    if (lastValueAt === null || lastValueAt < since) {
      return { state: 'failing', since, error: status.error, heardAt: heard, staleAt: null };
    }
  }
  if (heard === null) {
    return { state: 'fresh', since: null, error: null, heardAt: null, staleAt: null };
  }
  const staleAt = heard + expectedSilenceMs(source);
  if (now > staleAt) {
    return { state: 'stale', since: heard, error: null, heardAt: heard, staleAt: null };
  }
  return { state: 'fresh', since: null, error: null, heardAt: heard, staleAt };
}

/**
 * Which source feeds each stream, out of the datapoints and connections at hand: a datapoint of
 * an enabled connection wins over one of a disabled connection (a switched-off simulator's
 * datapoint may still name the stream a device's now feeds). `gatewayOnline` answers undefined
 * for a gateway not known: its datapoints are left out.
 */
export function sourcesByStream(
  datapoints: Iterable<Pick<DatapointAttributes, 'connection_id' | 'datastream_id'>>,
  connections: ReadonlyMap<
    string,
    Pick<ConnectionAttributes, 'gateway_id' | 'interval_ms' | 'enabled' | 'status'>
  >,
  gatewayOnline: (gatewayId: string) => boolean | undefined,
): Map<string, StreamSource & { readonly gatewayId: string; readonly enabled: boolean }> {
  const out = new Map<string, StreamSource & { gatewayId: string; enabled: boolean }>();
  for (const point of datapoints) {
    if (point.datastream_id === null) continue;
    const connection = connections.get(point.connection_id);
    if (connection === undefined) continue;
    const online = gatewayOnline(connection.gateway_id);
    if (online === undefined) continue;
    const had = out.get(point.datastream_id);
    if (had !== undefined && (had.enabled || !connection.enabled)) continue;
    out.set(point.datastream_id, {
      intervalMs: connection.interval_ms,
      status: connection.status,
      gatewayOnline: online,
      gatewayId: connection.gateway_id,
      enabled: connection.enabled,
    });
  }
  return out;
}
