import {
  connectionModel,
  datapointModel,
  datastreamModel,
  type ConnectionAttributes,
  type DatapointAttributes,
  type DatastreamAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';
import type { ChangeFeed } from '../services/change-feed';

/** What ingest needs to know of a data stream. */
export interface StreamInfo {
  readonly id: string;
  readonly accountId: string;
  readonly assetId: string;
  readonly type: DatastreamAttributes['type'];
  readonly preprocessing: string;
  /**
   * The gateways whose datapoints feed the stream (a datapoint's connection's gateway): the only
   * ones that may write its values. Empty for a stream no datapoint reads.
   */
  readonly feeders: ReadonlySet<string>;
}

/** The model types whose change alters what the directory holds. */
const TYPES: ReadonlySet<string> = new Set([
  datastreamModel.type,
  datapointModel.type,
  connectionModel.type,
]);

/**
 * The data streams of each account with the gateways that feed them, read once and kept until a change of a stream in that
 * account is committed (the change feed says so). Ingest asks for every point; reading the
 * models table each time would cost more than storing the point.
 */
export class StreamDirectory {
  private readonly byAccount = new Map<string, Promise<Map<string, StreamInfo>>>();
  private readonly models: ModelRepository;
  private readonly unsubscribe: () => void;

  constructor(db: Db, feed: ChangeFeed) {
    this.models = new ModelRepository(db);
    const here = feed.subscribe((accountId, updates) => {
      if (
        updates.some(
          (u) => TYPES.has(u.type) || (u.child_type !== undefined && TYPES.has(u.child_type)),
        )
      )
        this.byAccount.delete(accountId);
    });
    // Another process's change of a stream (child_type counted in types there too).
    const elsewhere = feed.subscribeElsewhere((accountId, types) => {
      if ([...TYPES].some((t) => types.has(t))) this.byAccount.delete(accountId);
    });
    this.unsubscribe = () => {
      here();
      elsewhere();
    };
  }

  /** The account's streams by id. */
  streamsOf(accountId: string): Promise<Map<string, StreamInfo>> {
    let streams = this.byAccount.get(accountId);
    if (streams === undefined) {
      streams = this.load(accountId);
      this.byAccount.set(accountId, streams);
      // A failed read is not kept: the next batch reads again.
      streams.catch(() => this.byAccount.delete(accountId));
    }
    return streams;
  }

  private async load(accountId: string): Promise<Map<string, StreamInfo>> {
    const rows = await this.models.allOfTypes(accountId, [...TYPES]);
    const gatewayOf = new Map<string, string>();
    for (const row of rows) {
      if (row.type !== connectionModel.type) continue;
      gatewayOf.set(row.id, (JSON.parse(row.attributes) as ConnectionAttributes).gateway_id);
    }
    const feeders = new Map<string, Set<string>>();
    for (const row of rows) {
      if (row.type !== datapointModel.type) continue;
      const a = JSON.parse(row.attributes) as DatapointAttributes;
      const gateway = gatewayOf.get(a.connection_id);
      if (a.datastream_id === null || gateway === undefined) continue;
      let set = feeders.get(a.datastream_id);
      if (set === undefined) feeders.set(a.datastream_id, (set = new Set()));
      set.add(gateway);
    }
    const out = new Map<string, StreamInfo>();
    for (const row of rows) {
      if (row.type !== datastreamModel.type) continue;
      const a = JSON.parse(row.attributes) as DatastreamAttributes;
      out.set(row.id, {
        id: row.id,
        accountId,
        assetId: a.asset_id,
        type: a.type,
        preprocessing: a.preprocessing,
        feeders: feeders.get(row.id) ?? new Set(),
      });
    }
    return out;
  }

  close(): void {
    this.unsubscribe();
    this.byAccount.clear();
  }
}
