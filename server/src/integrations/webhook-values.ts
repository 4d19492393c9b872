import {
  integrationModel,
  uuidv7,
  webhookCovers,
  type PointValue,
  type WebhookValuesBody,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { StreamDirectory } from '../gateways/stream-directory';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';
import { assetName } from '../notify/alarm-facts';
import type { ChangeFeed } from '../services/change-feed';
import {
  WebhookRepository,
  webhooksOf,
  type NewDelivery,
  type Webhook,
} from './webhook.repository';

/** How often an asset's gathered values become deliveries: at most one per webhook and asset. */
export const VALUES_EVERY_MS = 5_000;
/** Values of one asset in one delivery; past it they are counted as dropped. */
export const VALUES_MAX_POINTS = 1_000;
/** About the most bytes of values one delivery carries (text values are up to 1,000 chars). */
export const VALUES_MAX_BYTES = 256 * 1024;

interface Gathered {
  readonly accountId: string;
  readonly assetId: string;
  points: { stream: string; ts: number; value: PointValue }[];
  bytes: number;
  dropped: number;
}

/**
 * The webhooks' values (issue 37 item 6): ingest's stored-points seam (`MachineData.valuesTap`,
 * after each batch is stored and acked) hands every stored point here, in the process that took
 * the batch; the points of assets some enabled webhook with `send_values` covers are gathered
 * per asset, bounded (VALUES_MAX_POINTS, VALUES_MAX_BYTES; the rest counted as `dropped`), and
 * every VALUES_EVERY_MS each asset's batch becomes one delivery per such webhook in the outbox,
 * which the leader sends. Values gathered and not yet written are lost with the process (alarm
 * events are not: they come from the database).
 */
export class WebhookValues {
  private readonly periodic: Periodic;
  private readonly gathered = new Map<string, Gathered>();
  /** The account's webhooks that send values, read once and kept until an integration changes. */
  private readonly senders = new Map<string, Promise<Webhook[]>>();
  private unsubscribe: (() => void)[] = [];

  constructor(
    private readonly deps: {
      readonly db: Db;
      readonly clock: Clock;
      readonly log: Logger;
      readonly feed: ChangeFeed;
      readonly streams: StreamDirectory;
      /** Told after deliveries were written (the sender in this process looks at once). */
      readonly written?: () => void;
      readonly everyMs?: number;
    },
  ) {
    this.periodic = new Periodic(
      async () => {
        await this.flush();
      },
      deps.everyMs ?? VALUES_EVERY_MS,
      (err) => deps.log.error('webhook values not written', { error: String(err) }),
    );
    const drop = (accountId: string) => this.senders.delete(accountId);
    this.unsubscribe = [
      deps.feed.subscribe((accountId, updates) => {
        if (updates.some((u) => u.type === integrationModel.type)) drop(accountId);
      }),
      deps.feed.subscribeElsewhere((accountId, types) => {
        if (types.has(integrationModel.type)) drop(accountId);
      }),
    ];
  }

  start(): void {
    this.periodic.start();
  }

  /** Stops the timer and writes what was gathered. */
  async stop(): Promise<void> {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    await this.periodic.stop();
    await this.flush();
  }

  /** Ingest's seam: the points of one stored batch of the account. */
  async take(
    accountId: string,
    points: readonly { stream: string; ts: number; value: PointValue }[],
  ): Promise<void> {
    const webhooks = await this.sendersOf(accountId);
    if (webhooks.length === 0) return;
    const streams = await this.deps.streams.streamsOf(accountId);
    for (const point of points) {
      const assetId = streams.get(point.stream)?.assetId;
      if (assetId === undefined || !webhooks.some((w) => webhookCovers(w.webhook, assetId)))
        continue;
      const key = `${accountId}/${assetId}`;
      let batch = this.gathered.get(key);
      if (batch === undefined) {
        batch = { accountId, assetId, points: [], bytes: 0, dropped: 0 };
        this.gathered.set(key, batch);
      }
      const bytes = 60 + (typeof point.value === 'string' ? point.value.length : 0);
      if (batch.points.length >= VALUES_MAX_POINTS || batch.bytes + bytes > VALUES_MAX_BYTES) {
        batch.dropped += 1;
        continue;
      }
      batch.points.push({ stream: point.stream, ts: point.ts, value: point.value });
      batch.bytes += bytes;
    }
  }

  /** Writes each asset's gathered values as deliveries (one per covering webhook); how many. */
  async flush(): Promise<number> {
    const batches = [...this.gathered.values()];
    this.gathered.clear();
    let written = 0;
    for (const batch of batches) {
      try {
        written += await this.write(batch);
      } catch (err) {
        this.deps.log.error('webhook values not written', {
          accountId: batch.accountId,
          error: String(err),
        });
      }
    }
    if (written > 0) this.deps.written?.();
    return written;
  }

  private async write(batch: Gathered): Promise<number> {
    const { db, clock } = this.deps;
    // Read now, not when gathered: a webhook turned off or narrowed meanwhile gets nothing.
    const webhooks = (await this.sendersOf(batch.accountId)).filter((w) =>
      webhookCovers(w.webhook, batch.assetId),
    );
    if (webhooks.length === 0 || batch.points.length === 0) return 0;
    const now = clock.now();
    const asset = { id: batch.assetId, name: await assetName(db, batch.accountId, batch.assetId) };
    const points = [...batch.points].sort((a, b) => a.ts - b.ts);
    const rows: NewDelivery[] = webhooks.map((webhook) => {
      const id = uuidv7(now);
      const body: WebhookValuesBody = {
        id,
        type: 'values',
        account_id: batch.accountId,
        integration_id: webhook.id,
        created_at: now,
        asset,
        points,
        dropped: batch.dropped,
      };
      return {
        id,
        integration_id: webhook.id,
        key: `values:${batch.assetId}:${id}`,
        event_type: 'values',
        asset_id: batch.assetId,
        alarm_id: null,
        points: points.length,
        body: JSON.stringify(body),
        state: 'waiting',
        attempts: 0,
        attempt_log: '[]',
        next_at: now,
        lease_until: null,
        created_at: now,
      };
    });
    await new WebhookRepository(db).insert(batch.accountId, rows);
    return rows.length;
  }

  private sendersOf(accountId: string): Promise<Webhook[]> {
    let found = this.senders.get(accountId);
    if (found === undefined) {
      const read = webhooksOf(this.deps.db, accountId).then((all) =>
        all.filter((w) => w.webhook.send_values),
      );
      read.catch(() => {
        if (this.senders.get(accountId) === read) this.senders.delete(accountId);
      });
      this.senders.set(accountId, read);
      found = read;
    }
    return found;
  }
}
