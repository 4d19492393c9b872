import {
  AttributeIds,
  TimestampsToReturn,
  resolveNodeId,
  type ClientSubscription,
  type DataValue,
  type NodeId,
} from 'node-opcua-client';
import { opcuaAddressSchema, type AgentDatapoint, type PointValue } from '@plant/shared-schema';
import type { Logger } from '../logger';
import type { Reading } from './connector';
import { settleWithin, type OpcuaLink } from './opcua-session';
import { createValueFilter, rawFromVariant, type RawValue } from './opcua-values';

/** What the reading part tells the connector. */
export interface ReadingEvents {
  readonly values: (readings: Reading[]) => void;
  /** The device answered (values, or a subscription keep-alive: nothing changed). */
  readonly alive: () => void;
  /** The subscription died without our asking: the connector starts the session over. */
  readonly broken: (reason: string) => void;
}

export interface ReadingOptions {
  readonly link: OpcuaLink;
  readonly datapoints: readonly AgentDatapoint[];
  readonly intervalMs: number;
  readonly log: Logger;
  readonly now: () => number;
  readonly events: ReadingEvents;
}

export interface ReadingHandle {
  readonly mode: 'subscription' | 'polling' | 'idle';
  /**
   * Stops delivering at once; resolves when the subscription or the poll loop is gone, or after
   * `timeoutMs` when the device does not answer the goodbye.
   */
  stop(timeoutMs: number): Promise<void>;
}

/** A goodbye to a device that does not answer is not waited for longer than this. */
const STOP_TIMEOUT_MS = 2_000;

/** Answers to CreateSubscription that mean "not here": the connector polls instead. */
const SUBSCRIPTION_REFUSALS =
  /BadTooManySubscriptions|BadServiceUnsupported|BadNotSupported|BadNotImplemented/;

/** One monitored node and the datapoints that read it (several may share a node). */
interface MonitoredNode {
  readonly nodeId: NodeId;
  readonly text: string;
  readonly datapoints: {
    datapoint: AgentDatapoint;
    filter: (raw: RawValue) => PointValue | undefined;
  }[];
  /** The last problem logged, so a node that stays bad is logged once, not on every read. */
  problem: string | null;
}

/**
 * Reads the datapoints' values: a subscription with one monitored item per node (publishing and
 * sampling at the connection's interval), or polling reads when the device refuses
 * subscriptions. A node that does not exist (or is not readable) fails only its datapoints:
 * logged with the OPC UA status, the others go on.
 */
export async function startReading(options: ReadingOptions): Promise<ReadingHandle> {
  const nodes = monitoredNodes(options.datapoints, options.log);
  if (nodes.length === 0) return { mode: 'idle', stop: () => Promise.resolve() };
  let stopped = false;
  const noteProblem = (node: MonitoredNode, problem: string) => {
    if (node.problem === problem) return;
    node.problem = problem;
    options.log.warn('OPC UA datapoint has no value', {
      node_id: node.text,
      datapoints: node.datapoints.map((d) => d.datapoint.id),
      status: problem,
    });
  };
  const deliver = (node: MonitoredNode, dataValue: DataValue, ts: number): Reading[] => {
    const status = dataValue.statusCode;
    const raw = status.isGood() ? rawFromVariant(dataValue.value) : { problem: status.name };
    if ('problem' in raw) {
      noteProblem(node, raw.problem);
      return [];
    }
    node.problem = null;
    const out: Reading[] = [];
    for (const { datapoint, filter } of node.datapoints) {
      const value = filter(raw.value);
      if (value !== undefined) out.push({ datapoint, ts, value });
    }
    return out;
  };
  // One publish answer fires 'changed' once per item, synchronously: its readings leave as one
  // batch, at the end of the current task.
  let pending: Reading[] | undefined;
  const emit = (readings: Reading[]) => {
    if (stopped) return;
    if (pending) return void pending.push(...readings);
    pending = [...readings];
    queueMicrotask(() => {
      const batch = pending ?? [];
      pending = undefined;
      if (stopped) return;
      options.events.alive();
      if (batch.length > 0) options.events.values(batch);
    });
  };

  const subscription = await subscribe(options).catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    if (!SUBSCRIPTION_REFUSALS.test(message)) throw err;
    options.log.info('OPC UA device refuses subscriptions: polling instead', { reason: message });
    return undefined;
  });
  if (!subscription) {
    const loop = pollLoop(options, nodes, deliver, emit, () => stopped);
    return {
      mode: 'polling',
      async stop(timeoutMs) {
        stopped = true;
        await loop.stop(timeoutMs);
      },
    };
  }

  subscription.on('keepalive', () => emit([]));
  subscription.on('terminated', () => {
    if (!stopped) options.events.broken('The subscription ended');
  });
  subscription.on('internal_error', (err: Error) => {
    if (!stopped) options.events.broken(`Subscription error: ${err.message}`);
  });
  try {
    for (let start = 0; start < nodes.length; start += options.link.limits.monitoredItemsPerCall) {
      const chunk = nodes.slice(start, start + options.link.limits.monitoredItemsPerCall);
      const group = await subscription.monitorItems(
        chunk.map((node) => ({ nodeId: node.nodeId, attributeId: AttributeIds.Value })),
        // The server samples at the connection's interval and keeps the newest value only.
        { samplingInterval: options.intervalMs, queueSize: 1, discardOldest: true },
        // Points carry the agent's clock (ctx.now), as every connector's do.
        TimestampsToReturn.Neither,
      );
      group.on('changed', (_item, dataValue: DataValue, index: number) => {
        const node = chunk[index];
        if (node) emit(deliver(node, dataValue, options.now()));
      });
      group.monitoredItems.forEach((item, index) => {
        const node = chunk[index];
        if (node && item.statusCode.isNotGood()) {
          noteProblem(node, item.statusCode.name);
        }
      });
    }
  } catch (err) {
    stopped = true;
    await settleWithin(subscription.terminate(), STOP_TIMEOUT_MS);
    throw err;
  }
  return {
    mode: 'subscription',
    async stop(timeoutMs) {
      stopped = true;
      // The session's close deletes the subscription on the server too; this frees ours.
      await settleWithin(subscription.terminate(), timeoutMs);
    },
  };
}

async function subscribe(options: ReadingOptions): Promise<ClientSubscription> {
  const interval = options.intervalMs;
  // Keep-alives about every 10 s whatever the interval (at least every 3 publishing intervals),
  // and a lifetime of 10 keep-alives: the subscription outlives short outages.
  const keepAlive = Math.min(100, Math.max(3, Math.ceil(10_000 / interval)));
  return options.link.session.createSubscription2({
    requestedPublishingInterval: interval,
    requestedMaxKeepAliveCount: keepAlive,
    requestedLifetimeCount: keepAlive * 10,
    maxNotificationsPerPublish: 0,
    publishingEnabled: true,
    priority: 0,
  });
}

function monitoredNodes(datapoints: readonly AgentDatapoint[], log: Logger): MonitoredNode[] {
  const byNode = new Map<string, MonitoredNode>();
  for (const datapoint of datapoints) {
    const address = opcuaAddressSchema.safeParse(datapoint.address);
    let nodeId: NodeId;
    try {
      if (!address.success) throw new Error(address.error.issues[0]?.message ?? 'invalid');
      nodeId = resolveNodeId(address.data.node_id);
    } catch (err) {
      log.warn('OPC UA datapoint has an invalid node id', {
        datapoint: datapoint.id,
        address: datapoint.address,
        error: err instanceof Error ? err.message : String(err),
      });
      continue;
    }
    const text = nodeId.toString();
    let node = byNode.get(text);
    if (!node) {
      node = { nodeId, text, datapoints: [], problem: null };
      byNode.set(text, node);
    }
    node.datapoints.push({ datapoint, filter: createValueFilter(datapoint) });
  }
  return [...byNode.values()];
}

/**
 * Reads every node once per interval (one Read per `nodesPerRead` nodes), at a steady cadence
 * that never overlaps itself. A failed read (connection lost: node-opcua repairs it) is logged
 * and the loop goes on.
 */
function pollLoop(
  options: ReadingOptions,
  nodes: MonitoredNode[],
  deliver: (node: MonitoredNode, dataValue: DataValue, ts: number) => Reading[],
  emit: (readings: Reading[]) => void,
  isStopped: () => boolean,
): { stop(timeoutMs: number): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    const started = Date.now();
    try {
      for (let start = 0; start < nodes.length; start += options.link.limits.nodesPerRead) {
        const chunk = nodes.slice(start, start + options.link.limits.nodesPerRead);
        const values = await options.link.session.read(
          chunk.map((node) => ({ nodeId: node.nodeId, attributeId: AttributeIds.Value })),
        );
        if (isStopped()) return;
        const ts = options.now();
        emit(chunk.flatMap((node, i) => (values[i] ? deliver(node, values[i], ts) : [])));
      }
    } catch (err) {
      options.log.debug('OPC UA poll failed', { error: err instanceof Error ? err.message : err });
    }
    if (isStopped()) return;
    const wait = Math.max(0, options.intervalMs - (Date.now() - started));
    timer = setTimeout(() => {
      running = tick();
    }, wait);
  };
  running = tick();
  return {
    async stop(timeoutMs) {
      clearTimeout(timer);
      // A read in flight on a dead connection may take the request timeout: not waited for.
      await settleWithin(running, timeoutMs);
    },
  };
}
