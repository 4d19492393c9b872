/**
 * Types for nodes7 0.3.18 (plain JavaScript, no types of its own): the callback API its README
 * documents, and the few internal fields the S7 connector needs to drop an instance for good
 * (nodes7 has no call that cancels its own reconnect timers and destroys its socket at once).
 */
declare module 'nodes7' {
  import type { Socket } from 'node:net';

  interface NodeS7Options {
    /** Nothing on the console (nodes7 logs there otherwise; the flag is global to the module). */
    silent?: boolean;
    debug?: boolean;
  }

  interface NodeS7ConnectParams {
    host: string;
    port?: number;
    rack?: number;
    slot?: number;
    /** TCP connect timeout and the timeout of every packet (ms). */
    timeout?: number;
    localTSAP?: number;
    remoteTSAP?: number;
    connection_name?: string;
    doNotOptimize?: boolean;
  }

  /** What a read returns per item: its value, or a quality text like 'BAD 255'. */
  type NodeS7Values = Record<string, unknown>;

  interface NodeS7Item {
    value: unknown;
    quality?: unknown;
  }

  class NodeS7 {
    constructor(options?: NodeS7Options);
    /** Calls back once: with undefined when connected, or an error (object or text). */
    initiateConnection(params: NodeS7ConnectParams, callback: (err?: unknown) => void): void;
    dropConnection(callback: () => void): void;
    addItems(items: string | string[]): void;
    removeItems(items?: string | string[]): void;
    readAllItems(callback: (anythingBad: boolean, values: NodeS7Values) => void): void;
    /** `_COMMERR` answers `{ value: true }` while the connection is not up. */
    findItem(useraddr: string): NodeS7Item | undefined;

    // Internals (see above).
    isoclient: Socket | undefined;
    isoConnectionState: number;
    reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    rereadTimer: ReturnType<typeof setTimeout> | undefined;
    resetTimeout: ReturnType<typeof setTimeout> | undefined;
    connectTimeout: ReturnType<typeof setTimeout> | undefined;
    PDUTimeout: ReturnType<typeof setTimeout> | undefined;
    dropConnectionTimer: ReturnType<typeof setTimeout> | null;
    resetPending: boolean;
    connectCallback: ((err?: unknown) => void) | undefined;
    readDoneCallback: ((anythingBad: boolean, values: NodeS7Values) => void) | undefined;
    /** Destroys the socket, removes its listeners and clears the packet timeouts. */
    connectionCleanup(): void;
  }

  export = NodeS7;
}
