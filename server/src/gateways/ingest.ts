import {
  GATEWAY_LIMITS,
  gatewayBatchSchema,
  type GatewayAck,
  type GatewayBatch,
  type PointValue,
  VALUE_TYPE_TEXTS,
} from '@plant/shared-schema';
import type { Clock } from '../lib/clock';
import { wellFormedText } from '../lib/well-formed';
import type { Logger } from '../logger';
import type { GatewayIdentity } from '../services/gateway-credential.service';
import type { StoredPoint, TimeSeriesStore } from '../timeseries/time-series-store';
import { BATCH_RATE, BatchRate, type BatchRateLimits } from './batch-rate';
import type { LivePublisher } from './live-values';
import type { StreamDirectory, StreamInfo } from './stream-directory';

/** What pre-processing made of one value (spec 001 §5). */
export type PreprocessOutcome =
  | { readonly kind: 'value'; readonly value: PointValue }
  | { readonly kind: 'dropped' }
  | { readonly kind: 'error'; readonly error: string };

/** Runs a stream's pre-processing code over values (in a sandbox). */
export interface Preprocessor {
  run(
    code: string,
    inputs: readonly { value: PointValue; ts: number; previous: PointValue | null }[],
  ): readonly PreprocessOutcome[];
  /**
   * The same rules and sandbox without blocking the caller's thread: for the code trial of a
   * request, so that code running to its limit does not stall the server's other requests.
   */
  runAsync(
    code: string,
    inputs: readonly { value: PointValue; ts: number; previous: PointValue | null }[],
  ): Promise<readonly PreprocessOutcome[]>;
}

/** Who hears of stored points after their ack (alarm evaluation); its failures are logged only. */
export type StoredPointsSink = (
  accountId: string,
  points: readonly { stream: string; ts: number; value: PointValue }[],
) => Promise<unknown>;

/** Where acks go: the gateway's down/ack topic. */
export type AckSink = (gatewayId: string, ack: GatewayAck) => void;

/** Texts of per-point refusals (sent to the agent, which logs them). */
export const POINT_REFUSALS = {
  unknownStream: 'Unknown data stream.',
  notFed: 'No datapoint of this gateway feeds the data stream.',
  future: 'The time lies too far in the future.',
  past: 'The time lies too far in the past.',
  stored: 'A value of this data stream is already stored at this time.',
  ...VALUE_TYPE_TEXTS,
} as const;

interface Refusal {
  readonly index: number;
  readonly reason: string;
}

/**
 * Ingest (DESIGN.md §8): a gateway's batch is checked point by point (the stream exists in the
 * gateway's account, the time is plausible, the value fits the stream's type), pre-processed by
 * the stream's code, stored once per (gateway buffer, seq) together with its points, acknowledged,
 * and published as live values. Batches of one gateway are handled one after another, in the
 * order they arrived; a repeated batch is acknowledged as a duplicate and stores nothing.
 */
export class Ingest {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      readonly store: TimeSeriesStore;
      readonly streams: StreamDirectory;
      readonly preprocessor: Preprocessor;
      readonly live: LivePublisher;
      readonly ack: AckSink;
      readonly clock: Clock;
      readonly log: Logger;
      /** Told of every stored batch's points, in this gateway's batch order (awaited). */
      readonly stored?: StoredPointsSink;
      /** Whether the account takes machine data now (a deactivated one takes none). */
      readonly accountActive: (accountId: string) => Promise<boolean>;
      /** Each gateway's share of points per second (default BATCH_RATE). */
      readonly rate?: BatchRateLimits;
    },
  ) {
    this.rate = new BatchRate(deps.rate ?? BATCH_RATE, deps.clock);
  }

  private readonly rate: BatchRate;

  /**
   * A batch as it arrived on `gateway/{id}/up/data`. Over the gateway's rate it is deferred at
   * once, neither queued nor stored: one gateway's flood neither stalls the others' batches and
   * the server's requests nor fills the queue with payloads.
   */
  received(identity: GatewayIdentity, payload: Buffer): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      json = NOT_JSON;
    }
    const points = (json as { points?: unknown } | null)?.points;
    const wait = this.rate.take(identity.gatewayId, Array.isArray(points) ? points.length : 1);
    if (wait > 0) {
      this.deps.log.debug('batch deferred', { gateway: identity.gatewayId, wait });
      this.deps.ack(identity.gatewayId, {
        seq: seqOf(json),
        status: 'deferred',
        stored: 0,
        refused: [],
        message: `Too many points at once: the batch is taken again in ${wait} ms.`,
        retry_after_ms: wait,
      });
      return Promise.resolve();
    }
    const previous = this.queues.get(identity.gatewayId) ?? Promise.resolve();
    const next = previous.then(() => this.handle(identity, json));
    const tail = next.catch((err: unknown) =>
      this.deps.log.error('ingest failed', { gateway: identity.gatewayId, error: String(err) }),
    );
    this.queues.set(identity.gatewayId, tail);
    void tail.then(() => {
      if (this.queues.get(identity.gatewayId) === tail) this.queues.delete(identity.gatewayId);
    });
    return next;
  }

  /** Resolves when every batch received so far is handled (stop, tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.queues.values()]);
  }

  private async handle(identity: GatewayIdentity, json: unknown): Promise<void> {
    // Nothing is stored for a deactivated account (spec 001 §4), whatever link a batch came
    // through (one that raced the deactivation, another process's that missed its broadcast).
    // No ack either: the agent keeps the batch in its buffer and sends it again once the
    // account is active and it may connect.
    if (!(await this.deps.accountActive(identity.accountId))) {
      this.deps.log.warn('batch of a deactivated account not stored', {
        gateway: identity.gatewayId,
      });
      return;
    }
    const batch = this.parse(identity, json);
    if (batch === undefined) return;
    const streams = await this.deps.streams.streamsOf(identity.accountId);
    const refused: Refusal[] = [];
    const accepted: { index: number; stream: StreamInfo; ts: number; value: PointValue }[] = [];
    const now = this.deps.clock.now();
    batch.points.forEach((point, index) => {
      const stream = streams.get(point.stream);
      // Only the gateways whose datapoints feed a stream write it (DESIGN.md §8): another
      // gateway of the account (another machine's) may not, whatever stream id it names.
      const reason =
        stream === undefined
          ? POINT_REFUSALS.unknownStream
          : !stream.feeders.has(identity.gatewayId)
            ? POINT_REFUSALS.notFed
            : point.ts > now + GATEWAY_LIMITS.futureMs
              ? POINT_REFUSALS.future
              : point.ts < now - GATEWAY_LIMITS.pastMs
                ? POINT_REFUSALS.past
                : typeProblem(stream, point.value);
      if (reason !== undefined || stream === undefined) {
        refused.push({ index, reason: reason ?? POINT_REFUSALS.unknownStream });
        return;
      }
      accepted.push({ index, stream, ts: point.ts, value: point.value });
    });
    const processed = await this.preprocess(accepted, refused);
    const kept = new Set<number>();
    const outcome = await this.deps.store.append({
      source: `${batch.gateway}/${batch.buffer}`,
      seq: batch.seq,
      points: processed.map((p) => ({
        stream: p.stream.id,
        account: identity.accountId,
        ts: p.ts,
        value: p.value,
      })),
      // A stored measurement is final: a batch under another buffer (a reinstalled or hostile
      // agent) or a later seq never rewrites it; its point is refused in the ack instead.
      existing: 'keep',
      kept: (i) => kept.add(i),
    });
    const points = processed.filter((p, i) => {
      if (!kept.has(i)) return true;
      refused.push({ index: p.index, reason: POINT_REFUSALS.stored });
      return false;
    });
    if (outcome === 'duplicate') {
      this.deps.ack(identity.gatewayId, {
        seq: batch.seq,
        status: 'duplicate',
        stored: 0,
        refused: [],
      });
      return;
    }
    this.deps.ack(identity.gatewayId, {
      seq: batch.seq,
      status: 'stored',
      stored: points.length,
      refused: refused.sort((a, b) => a.index - b.index).slice(0, 100),
    });
    if (refused.length > 0) {
      this.deps.log.warn('points refused', {
        gateway: identity.gatewayId,
        seq: batch.seq,
        refused: refused.length,
        first: refused[0]?.reason,
      });
    }
    // Live values per stream: the points of a batch come grouped by stream, in one call each.
    const live = new Map<string, { stream: StreamInfo; points: [number, number | string][] }>();
    for (const p of points) {
      const entry = live.get(p.stream.id);
      const point: [number, number | string] = [p.ts, liveValue(p.value)];
      if (entry === undefined) live.set(p.stream.id, { stream: p.stream, points: [point] });
      else entry.points.push(point);
    }
    for (const { stream, points: list } of live.values()) {
      this.deps.live.add(identity.accountId, stream.assetId, stream.id, list);
    }
    const sink = this.deps.stored;
    if (sink === undefined || points.length === 0) return;
    // Stored and acked already: a failure here must not fail the batch.
    await sink(
      identity.accountId,
      points.map((p) => ({ stream: p.stream.id, ts: p.ts, value: p.value })),
    ).catch((err: unknown) =>
      this.deps.log.error('stored points not evaluated', {
        gateway: identity.gatewayId,
        error: String(err),
      }),
    );
  }

  /** The batch, or undefined after a refusal was acknowledged (it will never be acceptable). */
  private parse(identity: GatewayIdentity, json: unknown): GatewayBatch | undefined {
    if (json === NOT_JSON) {
      this.refuse(identity, 0, 'The batch is not valid JSON.');
      return undefined;
    }
    const parsed = gatewayBatchSchema.safeParse(json);
    const seq = seqOf(json);
    if (!parsed.success) {
      const tooMany = parsed.error.issues.some(
        (i) => i.path[0] === 'points' && i.code === 'too_big',
      );
      this.refuse(
        identity,
        seq,
        tooMany
          ? `A batch may carry at most ${GATEWAY_LIMITS.pointsPerBatch} points.`
          : `The batch is not valid: ${parsed.error.issues
              .slice(0, 3)
              .map((i) => `${i.path.join('.')}: ${i.message}`)
              .join('; ')}`,
      );
      return undefined;
    }
    if (parsed.data.gateway !== identity.gatewayId) {
      this.refuse(identity, seq, 'The batch names another gateway.');
      return undefined;
    }
    return parsed.data;
  }

  private refuse(identity: GatewayIdentity, seq: number, message: string): void {
    this.deps.log.warn('batch refused', { gateway: identity.gatewayId, seq, message });
    this.deps.ack(identity.gatewayId, { seq, status: 'refused', stored: 0, refused: [], message });
  }

  /** Each stream's code over its points, in time order, each seeing the one before. */
  private async preprocess(
    accepted: readonly { index: number; stream: StreamInfo; ts: number; value: PointValue }[],
    refused: Refusal[],
  ): Promise<{ index: number; stream: StreamInfo; ts: number; value: PointValue }[]> {
    const byStream = new Map<string, typeof accepted>();
    const out: { index: number; stream: StreamInfo; ts: number; value: PointValue }[] = [];
    for (const p of accepted) {
      if (p.stream.preprocessing.trim() === '') {
        out.push({ index: p.index, stream: p.stream, ts: p.ts, value: stored(p.stream, p.value) });
        continue;
      }
      const list = byStream.get(p.stream.id);
      if (list === undefined) byStream.set(p.stream.id, [p]);
      else (list as (typeof accepted)[number][]).push(p);
    }
    if (byStream.size === 0) return out;
    const latest = await this.deps.store.latest([...byStream.keys()]);
    for (const [streamId, list] of byStream) {
      const ordered = [...list].sort((a, b) => a.ts - b.ts);
      const stream = ordered[0]?.stream;
      if (stream === undefined) continue;
      let previous: PointValue | null = latest.get(streamId)?.value ?? null;
      // One run per stream: $previous of each value is the one before it in this batch.
      const inputs = ordered.map((p) => {
        const input = { value: p.value, ts: p.ts, previous };
        previous = p.value;
        return input;
      });
      const outcomes = this.deps.preprocessor.run(stream.preprocessing, inputs);
      ordered.forEach((p, i) => {
        const outcome = outcomes[i];
        if (outcome === undefined || outcome.kind === 'dropped') return;
        if (outcome.kind === 'error') {
          refused.push({ index: p.index, reason: outcome.error });
          return;
        }
        const problem = typeProblem(stream, outcome.value);
        if (problem !== undefined) refused.push({ index: p.index, reason: problem });
        else out.push({ index: p.index, stream, ts: p.ts, value: stored(stream, outcome.value) });
      });
    }
    return out;
  }
}

/** A payload that did not parse (refused in its turn, in the gateway's order). */
const NOT_JSON = Symbol('not JSON');

function seqOf(json: unknown): number {
  const seq = (json as { seq?: unknown } | null)?.seq;
  return typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 ? seq : 0;
}

/** Why a value does not fit the stream's type, or undefined when it does. */
export function typeProblem(
  stream: Pick<StreamInfo, 'type'>,
  value: PointValue,
): string | undefined {
  switch (stream.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? undefined
        : POINT_REFUSALS.number;
    case 'state':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : POINT_REFUSALS.state;
    case 'boolean':
      return typeof value === 'boolean' || value === 0 || value === 1
        ? undefined
        : POINT_REFUSALS.boolean;
    case 'text':
      return typeof value === 'string' ? undefined : POINT_REFUSALS.text;
    default: {
      const never: never = stream.type;
      return String(never);
    }
  }
}

/** The value as stored: booleans as 0/1 numbers, states as whole numbers, texts as machineText. */
function stored(stream: Pick<StreamInfo, 'type'>, value: PointValue): PointValue {
  if (stream.type === 'boolean') return value === true || value === 1 ? 1 : 0;
  if (stream.type === 'state' && typeof value === 'number') return Math.round(value);
  if (typeof value === 'string') return machineText(value);
  return value;
}

/**
 * A machine's text as every store keeps it and the browsers get it live: the NULs that pad a
 * controller's fixed-length text (an S7 CHAR array, a STRING read past its length) dropped from
 * its end, any other NUL and each lone surrogate made U+FFFD. Postgres stores no NUL in text: such
 * a value failed its whole batch there, unacknowledged, so the agent sent it again and again; a
 * lone surrogate went out live as it came while the store kept U+FFFD.
 */
function machineText(text: string): string {
  return wellFormedText(text.replace(/\0+$/, '').replaceAll('\0', '\ufffd'));
}

function liveValue(value: PointValue): number | string {
  return typeof value === 'boolean' ? Number(value) : value;
}

export type { StoredPoint };
