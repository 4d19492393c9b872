import { strict as assert } from 'node:assert';
import { GATEWAY_LIMITS } from '@plant/shared-schema';
import type { Clock } from '../lib/clock';

/** How many points a gateway may send: a steady rate, and a burst on top (token bucket). */
export interface BatchRateLimits {
  readonly pointsPerSecond: number;
  /** The bucket's size; at least one full batch, or a full batch could never pass. */
  readonly burstPoints: number;
}

/**
 * The default share of one gateway. Ingest costs about 20 µs a point here (10 batches of 5,000
 * points held every request for about a second), so one gateway gets a tenth of the server at
 * most, steadily; an agent's backlog after an outage drains at this rate, its burst first. A line
 * of machines sends a few hundred points a second.
 */
export const BATCH_RATE: BatchRateLimits = {
  pointsPerSecond: 5_000,
  burstPoints: 4 * GATEWAY_LIMITS.pointsPerBatch,
};

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Per gateway, points per second as a token bucket, so that one gateway flooding batches cannot
 * stall ingest (and the event loop) for the others. A batch over the rate is not stored and not
 * queued: its ack says `deferred` with the time to wait, and the agent's buffer keeps it. One
 * bucket per signed-in gateway that sent (gateways are models, so their number is bounded).
 */
export class BatchRate {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limits: BatchRateLimits,
    private readonly clock: Clock,
  ) {
    assert(limits.pointsPerSecond > 0, 'pointsPerSecond must be positive');
    assert(
      limits.burstPoints >= GATEWAY_LIMITS.pointsPerBatch,
      'burstPoints must hold a full batch',
    );
  }

  /** Takes `points` from the gateway's bucket: 0 when taken, else the ms until they will be. */
  take(gatewayId: string, points: number): number {
    const { pointsPerSecond, burstPoints } = this.limits;
    const now = this.clock.now();
    const bucket = this.buckets.get(gatewayId) ?? { tokens: burstPoints, at: now };
    bucket.tokens = Math.min(
      burstPoints,
      bucket.tokens + (Math.max(0, now - bucket.at) * pointsPerSecond) / 1000,
    );
    bucket.at = now;
    const need = Math.min(Math.max(1, points), burstPoints);
    this.buckets.set(gatewayId, bucket);
    if (bucket.tokens < need) {
      return Math.ceil(((need - bucket.tokens) * 1000) / pointsPerSecond);
    }
    bucket.tokens -= need;
    return 0;
  }
}
