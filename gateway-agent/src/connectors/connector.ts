import type {
  AgentConnection,
  AgentDatapoint,
  ConnectionStatus,
  OpcuaNode,
  PointValue,
} from '@plant/shared-schema';
import type { Logger } from '../logger';

/** One value read from a device for one datapoint, already scaled and typed for its stream. */
export interface Reading {
  readonly datapoint: AgentDatapoint;
  readonly ts: number;
  readonly value: PointValue;
}

/** What a connector tells the agent. */
export interface ConnectorEvents {
  /** Values read (after scale/offset and deadband): the agent buffers them. */
  readonly values: (readings: readonly Reading[]) => void;
  /** The connection's state changed (connected, failed with its error, …). */
  readonly status: (status: ConnectionStatus) => void;
}

/**
 * A live connection to one device (DESIGN.md §8), made from one `AgentConnection` of the config.
 * `start()` returns at once and keeps trying to connect in the background (a device that restarts
 * is reconnected with backoff, values resume); `stop()` closes everything and resolves when the
 * sockets are closed. Reads happen every `interval_ms` (or by subscription where the protocol has
 * them); values that moved less than a datapoint's deadband since the last one reported are not
 * reported.
 */
export interface Connector {
  start(): void;
  stop(): Promise<void>;
  status(): ConnectionStatus;
}

/** OPC UA connectors also answer address-space requests (spec 001 §9: within a minute). */
export interface BrowsingConnector extends Connector {
  browse(nodeId: string | undefined, signal: AbortSignal): Promise<OpcuaNode[]>;
  search(
    query: string,
    maxResults: number,
    signal: AbortSignal,
  ): Promise<{ nodes: OpcuaNode[]; truncated: boolean }>;
}

export interface ConnectorContext {
  readonly connection: AgentConnection;
  readonly events: ConnectorEvents;
  readonly log: Logger;
  /** The clock; tests may pass their own. */
  readonly now: () => number;
}

export type ConnectorFactory = (ctx: ConnectorContext) => Connector;
