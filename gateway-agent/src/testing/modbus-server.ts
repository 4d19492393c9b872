import { createServer, type Server, type Socket } from 'node:net';
import jsmodbus, { type ModbusAbstractRequest } from 'jsmodbus';
import type {
  AgentConnection,
  AgentDatapoint,
  ModbusAddress,
  ModbusTcpSettings,
} from '@plant/shared-schema';
import { encodeRegisters, type ModbusArea } from '../connectors/modbus-plan';

// jsmodbus is CommonJS: Node's ESM loader finds only some of its named exports (not
// ModbusTCPRequest), so they are taken from the default export, which has them all.
const { ModbusTCPRequest, ModbusTCPServer, requests } = jsmodbus;

/**
 * A real jsmodbus TCP server on a loopback port: the Modbus connector's test peer. Each area
 * holds `size` registers (or bits); a read beyond them is answered with exception 2 (illegal data
 * address), as a device does. Every read request is logged (`requests`), so tests can count them.
 *
 * `stop()` then `start()` (or `restart()`) plays a device that reboots: every socket is closed and
 * the server listens again on the same port, its values kept.
 */

export type RegisterArea = 'holding' | 'input';
export type BitArea = 'coil' | 'discrete';

export interface ModbusRequestLog {
  readonly area: ModbusArea;
  readonly start: number;
  readonly count: number;
}

export interface ModbusTestServerOptions {
  /** Registers per register area and bits per bit area. */
  readonly size?: number;
}

export interface ModbusTestServer {
  readonly host: string;
  readonly port: number;
  /** Writes `value` at register `index` as the address describes it (datatype, word order…). */
  setRegisters(
    area: RegisterArea,
    index: number,
    value: number,
    format?: Partial<Pick<ModbusAddress, 'datatype' | 'word_order' | 'byte_swap'>>,
  ): void;
  setBit(area: BitArea, index: number, value: boolean): void;
  /** Every read request answered or refused so far, oldest first. */
  readonly requests: readonly ModbusRequestLog[];
  /** Sockets open from clients now. */
  connections(): number;
  /** While true, requests get no answer at all (a device that hangs: the client times out). */
  setSilent(silent: boolean): void;
  /** Closes every socket and stops listening (the device switched off). */
  stop(): Promise<void>;
  /** Listens again on the same port (after `stop()`). */
  start(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startModbusTestServer(
  options: ModbusTestServerOptions = {},
): Promise<ModbusTestServer> {
  const size = options.size ?? 1_000;
  const registers: Record<RegisterArea, Buffer> = {
    holding: Buffer.alloc(size * 2),
    input: Buffer.alloc(size * 2),
  };
  const bits: Record<BitArea, Buffer> = {
    coil: Buffer.alloc(Math.ceil(size / 8)),
    discrete: Buffer.alloc(Math.ceil(size / 8)),
  };
  const log: ModbusRequestLog[] = [];
  const sockets = new Set<Socket>();
  let silent = false;
  let port = 0;

  const net: Server = createServer();
  net.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  });
  // No buffers: jsmodbus then hands every read to the events below, so that the answers (and the
  // refusals of addresses beyond the areas, which jsmodbus' own buffers would cut short
  // silently) are ours.
  const noBuffers = { coils: undefined, discrete: undefined, holding: undefined, input: undefined };
  const modbus = new ModbusTCPServer(net, noBuffers as unknown as Record<string, never>);

  const answer =
    (area: ModbusArea) => (request: ModbusAbstractRequest, cb: (b: Buffer) => void) => {
      if (!(request instanceof ModbusTCPRequest)) return;
      const body: unknown = request.body;
      const head = { id: Number(request.id), unitId: Number(request.unitId) };
      const range = readRange(body);
      if (range === undefined) return;
      const { fc, start, count } = range;
      log.push({ area, start, count });
      if (silent) return;
      const limit = area === 'holding' || area === 'input' ? 125 : 2_000;
      if (count < 1 || count > limit) return cb(frame(head, exception(fc, 3)));
      if (start + count > size) return cb(frame(head, exception(fc, 2)));
      const data =
        area === 'holding' || area === 'input'
          ? registers[area].subarray(start * 2, (start + count) * 2)
          : packBits(bits[area], start, count);
      cb(frame(head, Buffer.concat([Buffer.from([fc, data.length]), data])));
    };
  modbus.on('readHoldingRegisters', answer('holding'));
  modbus.on('readInputRegisters', answer('input'));
  modbus.on('readCoils', answer('coil'));
  modbus.on('readDiscreteInputs', answer('discrete'));

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      net.once('error', reject);
      net.listen(port, '127.0.0.1', () => {
        net.off('error', reject);
        const address = net.address();
        if (address !== null && typeof address === 'object') port = address.port;
        resolve();
      });
    });
  const stop = async () => {
    const closing = net.listening
      ? new Promise<void>((resolve) => net.close(() => resolve()))
      : Promise.resolve();
    for (const socket of sockets) socket.destroy();
    await closing;
  };

  await listen();
  return {
    host: '127.0.0.1',
    get port() {
      return port;
    },
    setRegisters(area, index, value, format = {}) {
      const bytes = encodeRegisters(value, {
        datatype: format.datatype ?? 'uint16',
        word_order: format.word_order ?? 'big',
        byte_swap: format.byte_swap ?? false,
      });
      bytes.copy(registers[area], index * 2);
    },
    setBit(area, index, value) {
      const buffer = bits[area];
      const byte = buffer[index >> 3] ?? 0;
      buffer[index >> 3] = value ? byte | (1 << (index & 7)) : byte & ~(1 << (index & 7));
    },
    requests: log,
    connections: () => sockets.size,
    setSilent(on) {
      silent = on;
    },
    stop,
    start: listen,
    async restart() {
      await stop();
      await listen();
    },
    close: stop,
  };
}

function readRange(body: unknown): { fc: number; start: number; count: number } | undefined {
  if (
    requests.isReadHoldingRegistersRequestBody(body) ||
    requests.isReadInputRegistersRequestBody(body) ||
    requests.isReadCoilsRequestBody(body) ||
    requests.isReadDiscreteInputsRequestBody(body)
  ) {
    return { fc: body.fc, start: body.start, count: body.count };
  }
  return undefined;
}

/** The MBAP header (transaction, protocol 0, length, unit) in front of a PDU. */
function frame(request: { id: number; unitId: number }, pdu: Buffer): Buffer {
  const header = Buffer.alloc(7);
  header.writeUInt16BE(request.id, 0);
  header.writeUInt16BE(0, 2);
  header.writeUInt16BE(pdu.length + 1, 4);
  header.writeUInt8(request.unitId, 6);
  return Buffer.concat([header, pdu]);
}

function exception(fc: number, code: number): Buffer {
  return Buffer.from([fc | 0x80, code]);
}

/** `count` bits from bit `start` of `source`, packed LSB first as Modbus sends them. */
function packBits(source: Buffer, start: number, count: number): Buffer {
  const out = Buffer.alloc(Math.ceil(count / 8));
  for (let i = 0; i < count; i++) {
    const bit = ((source[(start + i) >> 3] ?? 0) >> ((start + i) & 7)) & 1;
    if (bit) out[i >> 3] = (out[i >> 3] ?? 0) | (1 << (i & 7));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The connector's side

export function modbusDatapoint(
  id: string,
  address: Partial<ModbusAddress> & Pick<ModbusAddress, 'area' | 'index'>,
  streamType: AgentDatapoint['stream_type'] = 'number',
  extra: Partial<Pick<AgentDatapoint, 'deadband' | 'scale' | 'offset'>> = {},
): AgentDatapoint {
  return {
    id,
    datastream_id: `stream-${id}`,
    stream_type: streamType,
    address,
    deadband: 0,
    scale: 1,
    offset: 0,
    ...extra,
  };
}

export function modbusConnection(
  server: Pick<ModbusTestServer, 'host' | 'port'>,
  datapoints: AgentDatapoint[],
  settings: Partial<ModbusTcpSettings> = {},
): AgentConnection {
  return {
    id: 'modbus-1',
    name: 'Test Modbus',
    protocol: 'modbus-tcp',
    settings: { host: server.host, port: server.port, unit_id: 1, ...settings },
    interval_ms: 100,
    enabled: true,
    datapoints,
  };
}
