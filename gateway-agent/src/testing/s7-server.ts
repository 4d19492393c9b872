import { createServer } from 'node:net';
import snap7 from 'node-snap7';
import type { AgentConnection, AgentDatapoint, S7Datatype, S7Settings } from '@plant/shared-schema';
import { parseS7Address, type S7Area } from '../connectors/s7-address';

/**
 * A real S7 server (snap7's, through node-snap7) on loopback: the S7 connector's test peer. It
 * holds data blocks (DB1 of 64 bytes unless told otherwise), merkers, inputs and outputs.
 *
 * S7 is ISO-on-TCP on port 102, which needs root; snap7's server takes another port through
 * `SetParam(LocalPort, …)`, so this one listens on a free port (nodes7 connects to any port).
 * snap7 cannot listen on port 0 and tell which it got: a free port is found first, then handed
 * over (a tiny race with other processes, harmless on a test machine).
 *
 * `stop()` then `start()` (or `restart()`) plays a PLC that reboots: clients are disconnected, the
 * server listens again on the same port, its memory kept.
 */

export interface S7TestServerOptions {
  /** Data blocks: number → size in bytes. */
  readonly dataBlocks?: Readonly<Record<number, number>>;
  /** Bytes of merkers, inputs and outputs each. */
  readonly areaSize?: number;
}

export interface S7TestServer {
  readonly host: string;
  readonly port: number;
  /** Writes a value where an S7 address (`DB1.DBD4`, `M10.1`, `IW2`…) points. */
  set(address: string, datatype: S7Datatype, value: number | boolean): void;
  clients(): number;
  /** While true, reads get no answer (the memory is locked: snap7's workers wait). */
  hang(on: boolean): void;
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Every snap7 server this process made, never let go: node-snap7 keeps its two libuv handles in
 * C++ globals that each `S7Server` initialises and each one the garbage collector takes closes,
 * so the second one collected aborts the whole process (libuv's `uv_close` assertion: a handle
 * closed twice). Held here, none is collected; closed, one holds a few buffers.
 */
const made: unknown[] = [];

export async function startS7TestServer(options: S7TestServerOptions = {}): Promise<S7TestServer> {
  const server = new snap7.S7Server();
  made.push(server);
  const areaSize = options.areaSize ?? 64;
  const memory: Record<Exclude<S7Area, 'DB'>, { code: number; buffer: Buffer }> = {
    M: { code: server.srvAreaMK, buffer: Buffer.alloc(areaSize) },
    I: { code: server.srvAreaPE, buffer: Buffer.alloc(areaSize) },
    Q: { code: server.srvAreaPA, buffer: Buffer.alloc(areaSize) },
  };
  const blocks = new Map<number, Buffer>(
    Object.entries(options.dataBlocks ?? { 1: 64 }).map(([n, size]) => [
      Number(n),
      Buffer.alloc(size),
    ]),
  );
  for (const [n, buffer] of blocks)
    must(server.RegisterArea(server.srvAreaDB, n, buffer), `DB${n}`);
  for (const { code, buffer } of Object.values(memory))
    must(server.RegisterArea(code, buffer), 'area');

  const port = await freePort();
  must(server.SetParam(server.LocalPort, port), 'LocalPort');
  let running = false;
  let hanging = false;

  const lockAll = (lock: boolean) => {
    const toggle = (area: number, index?: number) =>
      lock ? server.LockArea(area, index) : server.UnlockArea(area, index);
    for (const n of blocks.keys()) toggle(server.srvAreaDB, n);
    for (const { code } of Object.values(memory)) toggle(code);
  };
  const start = () => {
    if (!running) must(server.StartTo('127.0.0.1'), `StartTo 127.0.0.1:${port}`);
    running = true;
    return Promise.resolve();
  };
  const stop = () => {
    if (hanging) {
      lockAll(false);
      hanging = false;
    }
    // Blocking: disconnects every client and unbinds the port before it returns.
    if (running) server.Stop();
    running = false;
    return Promise.resolve();
  };

  await start();
  return {
    host: '127.0.0.1',
    port,
    set(address, datatype, value) {
      const location = parseS7Address(address);
      if ('error' in location) throw new Error(location.error);
      const { area, db, byte, bit } = location;
      const buffer = area === 'DB' ? blocks.get(db) : memory[area].buffer;
      if (!buffer) throw new Error(`DB${db} is not on this server`);
      write(buffer, byte, bit, datatype, value);
      if (area === 'DB') server.SetArea(server.srvAreaDB, db, buffer);
      else server.SetArea(memory[area].code, buffer);
    },
    clients: () => server.ClientsCount(),
    hang(on) {
      if (on !== hanging) lockAll(on);
      hanging = on;
    },
    stop,
    start,
    async restart() {
      await stop();
      await start();
    },
    async close() {
      // snap7 ends a departed client's thread on its own time: stopping and unregistering the
      // memory under one still finishing crashed the process now and then (a whole vitest fork,
      // "Worker exited unexpectedly"). So the clients are let go first, for a few seconds at most.
      for (let i = 0; i < 250 && server.ClientsCount() > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await stop();
      for (const n of blocks.keys()) server.UnregisterArea(server.srvAreaDB, n);
      for (const { code } of Object.values(memory)) server.UnregisterArea(code);
    },
  };
}

function write(
  buffer: Buffer,
  byte: number,
  bit: number,
  datatype: S7Datatype,
  value: number | boolean,
): void {
  const n = Number(value);
  switch (datatype) {
    case 'bool': {
      const old = buffer[byte] ?? 0;
      buffer[byte] = value ? old | (1 << bit) : old & ~(1 << bit);
      return;
    }
    case 'byte':
      buffer.writeUInt8(n & 0xff, byte);
      return;
    case 'int':
      buffer.writeInt16BE(n, byte);
      return;
    case 'word':
      buffer.writeUInt16BE(n, byte);
      return;
    case 'dint':
      buffer.writeInt32BE(n, byte);
      return;
    case 'dword':
      buffer.writeUInt32BE(n, byte);
      return;
    case 'real':
      buffer.writeFloatBE(n, byte);
      return;
    default: {
      const unknown: never = datatype;
      throw new Error(`Unknown S7 datatype ${String(unknown)}`);
    }
  }
}

function must(ok: boolean, what: string): void {
  if (!ok) throw new Error(`snap7 server: ${what} failed`);
}

/** A TCP port nobody listens on now (the OS's choice for port 0, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = address !== null && typeof address === 'object' ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The connector's side

export function s7Datapoint(
  id: string,
  address: string,
  datatype: S7Datatype,
  streamType: AgentDatapoint['stream_type'] = 'number',
  extra: Partial<Pick<AgentDatapoint, 'deadband' | 'scale' | 'offset'>> = {},
): AgentDatapoint {
  return {
    id,
    datastream_id: `stream-${id}`,
    stream_type: streamType,
    address: { address, datatype },
    deadband: 0,
    scale: 1,
    offset: 0,
    ...extra,
  };
}

export function s7Connection(
  server: Pick<S7TestServer, 'host' | 'port'>,
  datapoints: AgentDatapoint[],
  settings: Partial<S7Settings> = {},
): AgentConnection {
  return {
    id: 's7-1',
    name: 'Test S7',
    protocol: 's7',
    settings: { host: server.host, port: server.port, rack: 0, slot: 1, ...settings },
    interval_ms: 100,
    enabled: true,
    datapoints,
  };
}
