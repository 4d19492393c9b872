import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PointValue } from '@plant/shared-schema';
import { Agent, type ConnectorMaker } from '../../gateway-agent/src/agent';
import { brokerUrlOf } from '../../gateway-agent/src/config';
import { createSimulatorConnector } from '../../gateway-agent/src/connectors/simulator-connector';
import { silentLogger } from '../../gateway-agent/src/logger';
import { startTcpProxy, type TcpProxy } from '../../sync-worker/src/testing/tcp-proxy';

/** One point the agent read, as it went into its buffer. */
export interface ReadPoint {
  readonly stream: string;
  readonly ts: number;
  readonly value: PointValue;
}

/**
 * The gateway agent of the fault suite (issue 38 item 4): the real `Agent` (buffer, uplink,
 * configuration from the server) running one demo gateway's simulator connection, in the test's
 * process, with its uplink through a TCP proxy of its own (`uplink`) that the schedule cuts.
 * Every reading its connector hands the agent is noted (`read`): after the run each must be in
 * the server's time-series store exactly once. The simulator alone is made (the connectors'
 * index would load node-opcua and the other protocol libraries for nothing).
 */
export class FaultAgent {
  private stopping: Promise<void> | undefined;

  private constructor(
    private readonly agent: Agent,
    readonly uplink: TcpProxy,
    private readonly dataDir: string,
    /** Every point read, in the order read. */
    readonly read: readonly ReadPoint[],
    private readonly device: { quiet: boolean },
  ) {}

  static async start(options: {
    readonly serverPort: number;
    readonly gatewayId: string;
    readonly key: string;
    /** Points per batch: small, so that a cut or a kill meets batches in flight. */
    readonly batchPoints: number;
  }): Promise<FaultAgent> {
    const uplink = await startTcpProxy({ host: '127.0.0.1', port: options.serverPort });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-fault-agent-'));
    const read: ReadPoint[] = [];
    const device = { quiet: false };
    const makeConnector: ConnectorMaker = (ctx) => {
      if (ctx.connection.protocol !== 'simulator') return undefined;
      return createSimulatorConnector({
        ...ctx,
        events: {
          ...ctx.events,
          values: (readings) => {
            // The device went quiet (the run's end): nothing more is read.
            if (device.quiet) return;
            for (const r of readings) {
              read.push({ stream: r.datapoint.datastream_id, ts: r.ts, value: r.value });
            }
            ctx.events.values(readings);
          },
        },
      });
    };
    const agent = new Agent({
      config: {
        brokerUrl: brokerUrlOf(uplink.url()),
        gatewayId: options.gatewayId,
        key: options.key,
        dataDir,
        logLevel: 'silent',
        bufferMaxPoints: undefined,
        batchPoints: options.batchPoints,
      },
      log: silentLogger,
      makeConnector,
      reconnectMs: 500,
    });
    agent.start();
    return new FaultAgent(agent, uplink, dataDir, read, device);
  }

  /** Points read and not yet acknowledged by the server. */
  pending(): number {
    return this.agent.bufferState().pending;
  }

  /** Those of `streams` with a point read in the last `withinMs`, in the order given. */
  moving(streams: readonly string[], withinMs: number): string[] {
    const since = Date.now() - withinMs;
    const recent = new Set<string>();
    for (let i = this.read.length - 1; i >= 0; i--) {
      const p = this.read[i];
      if (p === undefined || p.ts < since) break;
      recent.add(p.stream);
    }
    return streams.filter((s) => recent.has(s));
  }

  /** Where its link and buffer stand (a failure's report). */
  describe(): string {
    const buffer = this.agent.bufferState();
    const streams = new Map<string, { n: number; last: number }>();
    for (const p of this.read) {
      const s = streams.get(p.stream) ?? { n: 0, last: 0 };
      streams.set(p.stream, { n: s.n + 1, last: Math.max(s.last, p.ts) });
    }
    return `agent: link ${JSON.stringify(this.agent.linkState())}, buffer ${JSON.stringify(buffer)}, ${this.read.length} points read: ${JSON.stringify(Object.fromEntries(streams))}`;
  }

  /** From now on the device reports nothing (what was read is still sent). */
  silence(): void {
    this.device.quiet = true;
  }

  /** Stops the agent (once, however often called) and its uplink, and removes its folder. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.agent.stop();
      await this.uplink.close();
      fs.rmSync(this.dataDir, { recursive: true, force: true });
    })();
    return this.stopping;
  }
}
