import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPCUACertificateManager } from 'node-opcua-certificate-manager';
import { DataType, MessageSecurityMode, SecurityPolicy } from 'node-opcua-client';
import { OPCUAServer } from 'node-opcua-server';
import type {
  AgentConnection,
  AgentDatapoint,
  ConnectionStatus,
  OpcuaSettings,
  PointValue,
} from '@plant/shared-schema';
import type { ConnectorContext, Reading } from '../connectors/connector';

/**
 * A real node-opcua server on a loopback port: the OPC UA connector's test peer.
 *
 * Address space (namespace 1, string node ids `ns=1;s=<key>`):
 *
 *   Objects/Plant/Line1/Oven/          Temperature (Double), Mode (Int32), Running (Boolean),
 *                                      Recipe (String), CycleTime (Duration: not a built-in type)
 *   Objects/Plant/Line2/Cell3/Robot7/Gripper/GripForceActual (Double)   deep, for search
 *   Objects/Plant/Archive/             Sensor 000 … Sensor 499 (Double)  enough to make a
 *                                      browse need continuation points and a search real work
 *
 * `stop()` then `start()` plays a device that reboots: same port, same certificate, fresh state
 * (values back to their initial ones, sessions and subscriptions gone).
 */

export const TEST_VARIABLES = {
  'Oven.Temperature': { dataType: DataType.Double, initial: 20.5 },
  'Oven.Mode': { dataType: DataType.Int32, initial: 1 },
  'Oven.Running': { dataType: DataType.Boolean, initial: false },
  'Oven.Recipe': { dataType: DataType.String, initial: 'bread' },
  'Gripper.GripForceActual': { dataType: DataType.Double, initial: 12 },
} as const;
export type TestVariable = keyof typeof TEST_VARIABLES;
export type TestValue = number | boolean | string;

export const ARCHIVE_SIZE = 500;

export interface OpcuaTestServerOptions {
  /** User name → password; when given, anonymous sessions are refused. */
  readonly users?: Readonly<Record<string, string>>;
  /** Answer CreateSubscription with BadTooManySubscriptions (a device without subscriptions). */
  readonly refuseSubscriptions?: boolean;
}

export interface OpcuaTestServer {
  readonly endpoint: string;
  readonly port: number;
  /** The node id string of a test variable, as a datapoint address holds it. */
  nodeId(variable: TestVariable): string;
  /** The node id of a folder on the way to the variables: `Plant`, `Line1`, `Oven`, `Archive`… */
  folderId(name: string): string;
  set(variable: TestVariable, value: TestValue): void;
  /** Calls back with the type of every request the server receives (`BrowseRequest`, …). */
  onRequest(listener: (type: string) => void): () => void;
  /** Shuts the server down (the device switched off); sessions and values are gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port with its initial values (after `stop()`). */
  start(): Promise<void>;
  /** Stops it and deletes its PKI folder. */
  close(): Promise<void>;
}

export async function startOpcuaTestServer(
  options: OpcuaTestServerOptions = {},
): Promise<OpcuaTestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'opcua-test-server-'));
  let port = 0;
  let running: Running | undefined;
  const listeners = new Set<(type: string) => void>();

  const launch = async () => {
    running = await launchServer(dir, port, options);
    port = running.port;
    running.server.on('request', (request) => {
      for (const listener of listeners) listener(request.constructor.name);
    });
  };
  await launch();

  const current = (): Running => {
    if (!running) throw new Error('The OPC UA test server is stopped');
    return running;
  };

  return {
    get endpoint() {
      return `opc.tcp://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    nodeId: (variable) => `ns=1;s=${variable}`,
    folderId: (name) => `ns=1;s=Folder.${name}`,
    set(variable, value) {
      const node = current().variables.get(variable);
      if (!node) throw new Error(`No test variable ${variable}`);
      node.setValueFromSource({ dataType: TEST_VARIABLES[variable].dataType, value });
    },
    onRequest(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      const server = running?.server;
      running = undefined;
      await server?.shutdown(0);
    },
    start: launch,
    async close() {
      const server = running?.server;
      running = undefined;
      await server?.shutdown(0);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

interface Running {
  readonly server: OPCUAServer;
  readonly port: number;
  readonly variables: Map<TestVariable, { setValueFromSource(value: object): void }>;
}

async function launchServer(
  dir: string,
  port: number,
  options: OpcuaTestServerOptions,
): Promise<Running> {
  // The same PKI folder on every start: a rebooted device keeps its certificate.
  const certificates = new OPCUACertificateManager({
    rootFolder: join(dir, 'pki'),
    automaticallyAcceptUnknownCertificate: true,
    disableFileWatchers: true,
  });
  await certificates.initialize();
  const users = options.users;
  const server = new OPCUAServer({
    port,
    host: '127.0.0.1',
    // The endpoint URLs name this host (the machine's FQDN would cost a DNS lookup).
    hostname: '127.0.0.1',
    serverCertificateManager: certificates,
    securityModes: [
      MessageSecurityMode.None,
      MessageSecurityMode.Sign,
      MessageSecurityMode.SignAndEncrypt,
    ],
    securityPolicies: [SecurityPolicy.None, SecurityPolicy.Basic256Sha256],
    allowAnonymous: users === undefined,
    ...(users ? { userManager: { isValidUser: (u: string, p: string) => users[u] === p } } : {}),
    isAuditing: false,
  });
  await server.initialize();
  const variables = buildAddressSpace(server);
  if (options.refuseSubscriptions) server.engine.serverCapabilities.maxSubscriptionsPerSession = 0;
  await server.start();
  const actualPort = server.endpoints[0]?.port;
  if (actualPort === undefined) throw new Error('The OPC UA test server has no endpoint');
  return { server, port: actualPort, variables };
}

function buildAddressSpace(server: OPCUAServer): Running['variables'] {
  const addressSpace = server.engine.addressSpace;
  if (!addressSpace) throw new Error('The OPC UA test server has no address space');
  const ns = addressSpace.getOwnNamespace();
  const folder = (parent: Parameters<typeof ns.addFolder>[0], name: string) =>
    ns.addFolder(parent, { browseName: name, nodeId: `s=Folder.${name}` });

  const plant = folder(addressSpace.rootFolder.objects, 'Plant');
  const oven = folder(folder(plant, 'Line1'), 'Oven');
  const gripper = folder(folder(folder(folder(plant, 'Line2'), 'Cell3'), 'Robot7'), 'Gripper');
  const archive = folder(plant, 'Archive');

  const variables: Running['variables'] = new Map();
  for (const [key, spec] of Object.entries(TEST_VARIABLES) as [
    TestVariable,
    (typeof TEST_VARIABLES)[TestVariable],
  ][]) {
    const node = ns.addVariable({
      componentOf: key.startsWith('Oven.') ? oven : gripper,
      browseName: key.split('.')[1] ?? key,
      nodeId: `s=${key}`,
      dataType: DataType[spec.dataType],
      // 0: the server samples on every change, so a subscription sees each set() at once.
      minimumSamplingInterval: 0,
      value: { dataType: spec.dataType, value: spec.initial },
    });
    variables.set(key, node);
  }
  ns.addVariable({
    componentOf: oven,
    browseName: 'CycleTime',
    nodeId: 's=Oven.CycleTime',
    dataType: 'Duration',
    minimumSamplingInterval: 0,
    value: { dataType: DataType.Double, value: 1500 },
  });
  for (let i = 0; i < ARCHIVE_SIZE; i++) {
    const name = `Sensor ${String(i).padStart(3, '0')}`;
    ns.addVariable({
      organizedBy: archive,
      browseName: name,
      nodeId: `s=Archive.${name}`,
      dataType: 'Double',
      minimumSamplingInterval: 0,
      value: { dataType: DataType.Double, value: i },
    });
  }
  return variables;
}

// ---------------------------------------------------------------------------------------------
// The connector's side: a connection to the test server and a context that records everything.

export function opcuaDatapoint(
  id: string,
  nodeId: string,
  streamType: AgentDatapoint['stream_type'],
  extra: Partial<Pick<AgentDatapoint, 'deadband' | 'scale' | 'offset'>> = {},
): AgentDatapoint {
  return {
    id,
    datastream_id: `stream-${id}`,
    stream_type: streamType,
    address: { node_id: nodeId },
    deadband: 0,
    scale: 1,
    offset: 0,
    ...extra,
  };
}

export function opcuaConnection(
  endpoint: string,
  datapoints: AgentDatapoint[],
  settings: Partial<OpcuaSettings> = {},
): AgentConnection {
  return {
    id: 'opcua-1',
    name: 'Test OPC UA',
    protocol: 'opcua',
    settings: { endpoint, security_mode: 'none', ...settings },
    interval_ms: 100,
    enabled: true,
    datapoints,
  };
}

export interface LogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly msg: string;
  readonly fields: Record<string, unknown> | undefined;
}

/** A ConnectorContext whose events and log lines are kept for the test to look at. */
export function recordingContext(connection: AgentConnection): {
  ctx: ConnectorContext;
  readings: Reading[];
  statuses: ConnectionStatus[];
  logs: LogEntry[];
  valuesOf: (datapointId: string) => PointValue[];
} {
  const readings: Reading[] = [];
  const statuses: ConnectionStatus[] = [];
  const logs: LogEntry[] = [];
  const line = (level: LogEntry['level']) => (msg: string, fields?: Record<string, unknown>) =>
    void logs.push({ level, msg, fields });
  return {
    ctx: {
      connection,
      events: {
        values: (batch) => void readings.push(...batch),
        status: (status) => void statuses.push(status),
      },
      log: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') },
      now: () => Date.now(),
    },
    readings,
    statuses,
    logs,
    valuesOf: (datapointId) =>
      readings.filter((r) => r.datapoint.id === datapointId).map((r) => r.value),
  };
}
