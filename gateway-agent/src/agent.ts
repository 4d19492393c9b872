import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  connectionHostOf,
  mayPing,
  TERMINAL_PING_REFUSED,
  type PingScope,
  GATEWAY_HEARTBEAT_MS,
  GATEWAY_REQUEST_TIMEOUT_MS,
  gatewayConfigSchema,
  gatewayRequestSchema,
  type AgentConnection,
  type ConnectionStatus,
  type GatewayConfig,
  type GatewayResponse,
  type GatewayLogLine,
  type GatewayStatus,
  type TerminalCommand,
} from '@plant/shared-schema';
import { PointBuffer } from './buffer/buffer';
import { serverUrlOf, type AgentConfig } from './config';
import type {
  BrowsingConnector,
  Connector,
  ConnectorContext,
  Reading,
} from './connectors/connector';
import type { Logger } from './logger';
import { networkProblems, realAddresses } from './network';
import { Uplink } from './uplink/uplink';
import { AGENT_VERSION } from './version';
import { Updater } from './update/updater';

/** Makes the connector of one connection (undefined: the protocol is not available here). */
export type ConnectorMaker = (ctx: ConnectorContext, dataDir: string) => Connector | undefined;

/** The buffer holds at least this many points, whatever the rate. */
const MIN_BUFFER_POINTS = 100_000;
const WEEK_S = 7 * 86_400;

/** Points a week of the configuration's reads makes: the default bound of the buffer. */
export function weekOfPoints(config: GatewayConfig | undefined): number {
  let perSecond = 0;
  for (const c of config?.connections ?? []) {
    if (c.enabled) perSecond += (c.datapoints.length * 1_000) / c.interval_ms;
  }
  return Math.max(MIN_BUFFER_POINTS, Math.ceil(perSecond * WEEK_S));
}

interface Running {
  readonly connection: AgentConnection;
  readonly key: string;
  readonly connector: Connector | undefined;
}

/**
 * The gateway agent (DESIGN.md §8): runs the connections of its configuration, writes what they
 * read into its buffer, and forwards the buffer to the server over its uplink. The configuration
 * comes retained from the server and is kept in the data folder, so that after a restart without
 * the server the agent reads its devices again at once. A new configuration is applied without a
 * restart: connections that changed are restarted, the others keep running.
 */
export class Agent {
  private readonly buffer: PointBuffer;
  private readonly uplink: Uplink;
  private readonly running = new Map<string, Running>();
  private config: GatewayConfig | undefined;
  private readonly startedAt: number;
  private readonly heartbeat: NodeJS.Timeout;
  private statusTimer: NodeJS.Timeout | undefined;
  private readonly statuses = new Map<string, ConnectionStatus>();
  /** Each datapoint's last value read (the terminal's `read <tag>`). */
  private readonly lastRead = new Map<string, { ts: number; value: unknown }>();
  private stopped = false;
  /** A rollout's version: downloaded, checked, installed beside this one (update/updater.ts). */
  private readonly updater: Updater;
  /** Whether a configuration came from the server since this start (the broker reached). */
  private heardServer = false;
  /** The connections that delivered readings since this start (a new version's health). */
  private readonly connectionsRead = new Set<string>();

  /** The agent's log: its lines (info and above) also go to the server, once a second. */
  private readonly log: Logger;
  private logLines: GatewayLogLine[] = [];
  private readonly logFlush: NodeJS.Timeout;

  constructor(
    private readonly options: {
      readonly config: AgentConfig;
      readonly log: Logger;
      readonly makeConnector: ConnectorMaker;
      readonly now?: () => number;
      readonly heartbeatMs?: number;
      readonly reconnectMs?: number;
      /** Stops the agent and has its launcher start the version just installed (main.ts). */
      readonly restart?: () => void;
      /** The version this agent reports (tests of updates; default AGENT_VERSION). */
      readonly version?: string;
    },
  ) {
    const { config } = options;
    const log = forwarding(options.log, (line) => {
      this.logLines.push(line);
      if (this.logLines.length > 200) this.logLines.splice(0, this.logLines.length - 200);
    });
    this.log = log;
    this.logFlush = setInterval(() => this.flushLogs(), 1_000);
    this.startedAt = this.now();
    const saved = this.savedConfig();
    this.buffer = PointBuffer.open(config.dataDir, config.gatewayId, {
      maxPoints: config.bufferMaxPoints ?? weekOfPoints(saved),
      batchPoints: config.batchPoints,
    });
    this.uplink = new Uplink({
      brokerUrl: config.brokerUrl,
      gatewayId: config.gatewayId,
      key: config.key,
      buffer: this.buffer,
      log,
      ...(options.reconnectMs === undefined ? {} : { reconnectMs: options.reconnectMs }),
      events: {
        config: (payload) => this.configReceived(payload),
        request: (payload) => void this.request(payload),
        connected: () => this.sendStatus(),
      },
    });
    this.updater = new Updater({
      dataDir: config.dataDir,
      gatewayId: config.gatewayId,
      key: config.key,
      serverUrl: config.serverUrl ?? serverUrlOf(config.brokerUrl),
      version: this.version,
      log,
      report: (report) => this.uplink.update(JSON.stringify(report)),
      healthy: () => this.healthy(),
      lastValue: (datastreamId) => this.lastValueOf(datastreamId),
      restart: () => (options.restart ?? (() => log.warn('no launcher to restart into')))(),
    });
    if (saved !== undefined) {
      log.info('running the saved configuration until the server sends one', {
        version: saved.version,
      });
      this.apply(saved);
    }
    this.heartbeat = setInterval(
      () => this.sendStatus(),
      options.heartbeatMs ?? GATEWAY_HEARTBEAT_MS,
    );
  }

  start(): void {
    this.log.info('gateway agent started', {
      gateway: this.options.config.gatewayId,
      server: this.options.config.brokerUrl,
      version: this.version,
      buffer: this.buffer.state(),
    });
    this.uplink.start();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private get configFile(): string {
    return path.join(this.options.config.dataDir, `config-${this.options.config.gatewayId}.json`);
  }

  private savedConfig(): GatewayConfig | undefined {
    try {
      const parsed = gatewayConfigSchema.safeParse(
        JSON.parse(fs.readFileSync(this.configFile, 'utf8')),
      );
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private configReceived(payload: string): void {
    const { log } = this;
    if (payload === '') {
      log.warn('the gateway was deleted on the server: every connection stops');
      void this.stopConnections();
      this.config = undefined;
      fs.rmSync(this.configFile, { force: true });
      this.sendStatus();
      return;
    }
    let config: GatewayConfig;
    try {
      config = gatewayConfigSchema.parse(JSON.parse(payload));
    } catch (err) {
      log.error('the configuration could not be read', { error: String(err) });
      return;
    }
    if (config.gateway !== this.options.config.gatewayId) {
      log.error('the configuration is for another gateway', { gateway: config.gateway });
      return;
    }
    this.heardServer = true;
    if (this.config !== undefined && JSON.stringify(this.config) === JSON.stringify(config)) {
      this.sendStatus();
      this.updater.configured(config);
      return;
    }
    this.apply(config);
    // Kept for a start without the server (written whole, then renamed: never half a file).
    const tmp = `${this.configFile}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(config), { mode: 0o600 });
    fs.renameSync(tmp, this.configFile);
    log.info('configuration applied', {
      version: config.version,
      connections: config.connections.length,
    });
    this.sendStatus();
    this.updater.configured(config);
  }

  /** Runs the configuration: changed connections restart, the others keep running. */
  private apply(config: GatewayConfig): void {
    this.config = config;
    if (this.options.config.bufferMaxPoints === undefined)
      this.buffer.setMaxPoints(weekOfPoints(config));
    const wanted = new Map(config.connections.map((c) => [c.id, c]));
    for (const [id, run] of this.running) {
      const next = wanted.get(id);
      if (next === undefined || JSON.stringify(next) !== run.key) {
        this.running.delete(id);
        this.statuses.delete(id);
        void run.connector?.stop();
      }
    }
    for (const connection of config.connections) {
      if (this.running.has(connection.id)) continue;
      const connector = connection.enabled ? this.makeConnector(connection) : undefined;
      this.running.set(connection.id, { connection, key: JSON.stringify(connection), connector });
      // Started once it is known as running: its first values and status come synchronously.
      connector?.start();
      if (!connection.enabled) {
        this.statuses.set(connection.id, {
          id: connection.id,
          state: 'disabled',
          error: null,
          last_read: null,
        });
      }
    }
  }

  private makeConnector(connection: AgentConnection): Connector | undefined {
    const { log } = this;
    const ctx: ConnectorContext = {
      connection,
      log: childLog(log, { connection: connection.id, protocol: connection.protocol }),
      now: () => this.now(),
      events: {
        values: (readings) => this.readings(connection.id, readings),
        status: (status) => {
          if (this.running.get(connection.id)?.connection !== connection) return;
          const before = this.statuses.get(connection.id);
          this.statuses.set(connection.id, status);
          if (before?.state !== status.state || before.error !== status.error) this.statusSoon();
        },
      },
    };
    const connector = this.options.makeConnector(ctx, this.options.config.dataDir);
    if (connector === undefined) {
      this.statuses.set(connection.id, {
        id: connection.id,
        state: 'failed',
        error: `The protocol ${connection.protocol} is not available in this agent.`,
        last_read: null,
      });
      return undefined;
    }
    return connector;
  }

  private readings(connectionId: string, readings: readonly Reading[]): void {
    if (this.stopped || !this.running.has(connectionId) || readings.length === 0) return;
    this.connectionsRead.add(connectionId);
    for (const r of readings) this.lastRead.set(r.datapoint.id, { ts: r.ts, value: r.value });
    const dropped = this.buffer.add(
      readings.map((r) => ({ stream: r.datapoint.datastream_id, ts: r.ts, value: r.value })),
    );
    if (dropped > 0) {
      this.log.warn('the buffer is full: the oldest points were dropped', {
        dropped,
        total_dropped: this.buffer.state().dropped,
      });
    }
    this.uplink.pointsAdded();
  }

  /** Answers an OPC UA browse or search, within the spec's minute. */
  private async request(payload: string): Promise<void> {
    let id = '';
    const answer = async (): Promise<GatewayResponse> => {
      const parsed = gatewayRequestSchema.safeParse(JSON.parse(payload));
      if (!parsed.success) return { id, ok: false, error: 'The request could not be read.' };
      const request = parsed.data;
      id = request.id;
      if (request.op === 'terminal') {
        return { id, ok: true, output: await this.terminal(request.command) };
      }
      const connector = this.running.get(request.connection_id)?.connector;
      if (connector === undefined || !isBrowsing(connector)) {
        return {
          id,
          ok: false,
          error: 'This connection cannot be browsed (OPC UA only, enabled).',
        };
      }
      const signal = AbortSignal.timeout(GATEWAY_REQUEST_TIMEOUT_MS - 5_000);
      if (request.op === 'opcua-browse') {
        const nodes = await connector.browse(request.node_id, signal);
        return { id, ok: true, nodes, truncated: false };
      }
      const found = await connector.search(request.query, request.max_results, signal);
      return { id, ok: true, nodes: found.nodes, truncated: found.truncated };
    };
    let response: GatewayResponse;
    try {
      response = await answer();
    } catch (err) {
      response = { id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    if (id !== '') this.uplink.respond(JSON.stringify(response));
  }

  /** A terminal command (spec 000 §2): diagnostics only, never a shell. */
  private async terminal(command: TerminalCommand): Promise<string> {
    switch (command.op) {
      case 'status': {
        const s = this.status();
        const lines = [
          `agent ${s.agent_version}, running since ${new Date(s.started_at).toISOString()}`,
          `configuration version ${s.config_version ?? 'none'}`,
          `buffer: ${s.buffer.pending} points waiting, ${s.buffer.dropped} dropped`,
          ...s.connections.map((c) => {
            const name = this.running.get(c.id)?.connection.name ?? c.id;
            const read =
              c.last_read === null
                ? 'never read'
                : `last read ${new Date(c.last_read).toISOString()}`;
            return `connection ${name}: ${c.state}${c.error === null ? '' : ` (${c.error})`}, ${read}`;
          }),
          ...s.problems.map((p) => `problem: ${p}`),
        ];
        return lines.join('\n');
      }
      case 'ping': {
        // The server refused pings elsewhere already; the agent holds to the same rule with
        // what it runs and the networks it is on, whoever asks.
        const network = this.config?.network;
        const scope: PingScope = {
          hosts: (this.config?.connections ?? []).flatMap(
            (c) => connectionHostOf(c.settings) ?? [],
          ),
          networks: [
            ...realAddresses().map((a) => ({ address: a.address, netmask: a.netmask })),
            ...(network === undefined || network.ip === null || network.subnet_mask === null
              ? []
              : [{ address: network.ip, netmask: network.subnet_mask }]),
          ],
        };
        if (!mayPing(scope, command.host)) throw new Error(TERMINAL_PING_REFUSED);
        const times: string[] = [];
        for (let i = 0; i < 3; i++) times.push(await tcpConnectTime(command.host, command.port));
        return `${command.host}:${command.port}: ${times.join(', ')}`;
      }
      case 'read': {
        const wanted = command.tag.toLowerCase();
        for (const run of this.running.values()) {
          const point = run.connection.datapoints.find(
            (d) => (d.tag ?? '').toLowerCase() === wanted,
          );
          if (point === undefined) continue;
          const last = this.lastRead.get(point.id);
          return last === undefined
            ? `${command.tag}: not read yet (connection ${run.connection.name})`
            : `${command.tag}: ${JSON.stringify(last.value)} at ${new Date(last.ts).toISOString()} (connection ${run.connection.name})`;
        }
        return `${command.tag}: no such tag on this gateway`;
      }
      case 'restart': {
        const wanted = command.connection.toLowerCase();
        const run = [...this.running.values()].find(
          (r) =>
            r.connection.id === command.connection || r.connection.name.toLowerCase() === wanted,
        );
        if (run === undefined) return `${command.connection}: no such connection on this gateway`;
        this.running.delete(run.connection.id);
        this.statuses.delete(run.connection.id);
        await run.connector?.stop();
        if (this.stopped || this.config === undefined) return 'the agent is stopping';
        this.apply(this.config);
        this.statusSoon();
        return `connection ${run.connection.name} restarted`;
      }
    }
  }

  private flushLogs(): void {
    // Kept (the newest 200) while the link is down: the server sees how the agent came up.
    if (this.logLines.length === 0) return;
    if (this.uplink.logs(JSON.stringify(this.logLines))) this.logLines = [];
  }

  private statusSoon(): void {
    if (this.statusTimer !== undefined) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = undefined;
      this.sendStatus();
    }, 500);
  }

  status(): GatewayStatus {
    const addresses = realAddresses();
    const connections = [...this.running.keys()].map(
      (id) =>
        this.running.get(id)?.connector?.status() ??
        this.statuses.get(id) ?? { id, state: 'connecting' as const, error: null, last_read: null },
    );
    return {
      config_version: this.config?.version ?? null,
      started_at: this.startedAt,
      agent_version: this.version,
      addresses,
      connections,
      buffer: this.buffer.state(),
      problems: this.config === undefined ? [] : networkProblems(this.config.network, addresses),
    };
  }

  private sendStatus(): void {
    if (this.stopped) return;
    this.uplink.status(this.status());
  }

  private stopConnections(): Promise<unknown> {
    const stopping = [...this.running.values()].map(
      (r) => r.connector?.stop() ?? Promise.resolve(),
    );
    this.running.clear();
    this.statuses.clear();
    return Promise.all(stopping);
  }

  private get version(): string {
    return this.options.version ?? AGENT_VERSION;
  }

  /**
   * Healthy (a new version's trial): the server's broker reached (a configuration came over it)
   * and each enabled connection has read at least once.
   */
  private healthy(): boolean {
    if (!this.heardServer || this.stopped) return false;
    return [...this.running.values()].every(
      (run) => run.connector === undefined || this.connectionsRead.has(run.connection.id),
    );
  }

  /** The last value read of a stream (its datapoints'), undefined when none yet. */
  private lastValueOf(datastreamId: string): unknown {
    let last: { ts: number; value: unknown } | undefined;
    for (const run of this.running.values())
      for (const point of run.connection.datapoints) {
        if (point.datastream_id !== datastreamId) continue;
        const read = this.lastRead.get(point.id);
        if (read !== undefined && (last === undefined || read.ts > last.ts)) last = read;
      }
    return last?.value;
  }

  /** Stops reading, closes the link, closes the buffer (what is in it is sent after a restart). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.updater.stop();
    clearInterval(this.heartbeat);
    clearInterval(this.logFlush);
    clearTimeout(this.statusTimer);
    await this.stopConnections();
    await this.uplink.stop();
    this.buffer.close();
    this.log.info('gateway agent stopped');
  }

  /** The buffer's state (tests, status). */
  bufferState() {
    return this.buffer.state();
  }

  linkState() {
    return this.uplink.linkState();
  }
}

function isBrowsing(connector: Connector): connector is BrowsingConnector {
  return 'browse' in connector && 'search' in connector;
}

function childLog(log: Logger, fields: Record<string, unknown>): Logger {
  return {
    debug: (msg, f) => log.debug(msg, { ...fields, ...f }),
    info: (msg, f) => log.info(msg, { ...fields, ...f }),
    warn: (msg, f) => log.warn(msg, { ...fields, ...f }),
    error: (msg, f) => log.error(msg, { ...fields, ...f }),
  };
}

/** How long a TCP connection to host:port takes to open (the terminal's ping), or why it failed. */
function tcpConnectTime(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect({ host: host.replace(/^\[|\]$/g, ''), port, timeout: 3_000 });
    const done = (text: string) => {
      socket.destroy();
      resolve(text);
    };
    socket.once('connect', () => done(`${(performance.now() - started).toFixed(1)} ms`));
    socket.once('timeout', () => done('no answer within 3 s'));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

/** A logger that also hands its info, warn and error lines to `sink` (for the server). */
function forwarding(log: Logger, sink: (line: GatewayLogLine) => void): Logger {
  const tee =
    (level: GatewayLogLine['level']) => (msg: string, fields?: Record<string, unknown>) => {
      log[level](msg, fields);
      sink({
        time: Date.now(),
        level,
        msg: msg.slice(0, 2_000),
        ...(fields === undefined ? {} : { fields }),
      });
    };
  return {
    debug: (msg, fields) => log.debug(msg, fields),
    info: tee('info'),
    warn: tee('warn'),
    error: tee('error'),
  };
}
