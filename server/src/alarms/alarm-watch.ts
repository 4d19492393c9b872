import {
  alarmModel,
  connectionModel,
  datapointModel,
  gatewayModel,
  type AlarmRule,
  type ConnectionAttributes,
  type DatapointAttributes,
  type GatewayAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { AlarmRepository } from '../repositories/alarm.repository';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import type { TimeSeriesStore } from '../timeseries/time-series-store';
import type {
  AlarmEvaluator,
  AlarmInfo,
  RecordedTransition,
  WatchedAlarm,
} from './alarm-evaluator';

/**
 * The rule a watched fact runs through: its points are 1 while the fact holds (no data, the
 * gateway offline) and 0 once it no longer does, so the evaluator's one state machine, its
 * compare-and-set and its status serve these alarms too.
 */
const FACT_RULE: AlarmRule = {
  condition: 'greater',
  upper_limit: 0.5,
  lower_limit: null,
  delay_s: 0,
  hysteresis: 0,
};

/** Since when a fact has held (epoch ms), or null while it does not. */
type Fact = number | null;

const parsed = <T>(row: ModelRow) => JSON.parse(row.attributes) as T;

/**
 * "No data for N minutes" and "gateway offline for N minutes" alarms (issue 17 item 2), judged
 * on the alarm timer: a no-data alarm's fact holds from its stream's latest point (or, with none
 * ever, from the alarm's making), an offline alarm's from when the gateway that feeds its stream
 * was last seen, while it is offline. Held for `after_s`, the alarm is raised at that moment; it
 * clears on the first round after data flows again or the gateway is back.
 *
 * The latest point's time is the device's own: a device clock far behind the server's would
 * read as silence.
 */
export class AlarmWatch {
  private readonly models: ModelRepository;

  constructor(
    private readonly db: Db,
    private readonly store: TimeSeriesStore,
    private readonly evaluator: AlarmEvaluator,
    private readonly clock: Clock,
  ) {
    this.models = new ModelRepository(db);
  }

  /** Every account with alarms, one after the other. */
  async round(): Promise<void> {
    for (const accountId of await this.models.accountsWithType(alarmModel.type))
      await this.account(accountId);
  }

  /** The account's no-data and offline alarms, judged now. */
  async account(accountId: string): Promise<RecordedTransition[]> {
    const watched = await this.evaluator.watchedOf(accountId);
    if (watched.length === 0) return [];
    const now = this.clock.now();
    const facts = await this.facts(accountId, watched);
    const states = await new AlarmRepository(this.db).states(
      accountId,
      watched.map((a) => a.id),
    );
    const work: { alarm: AlarmInfo; points: [number, number][] }[] = [];
    for (const alarm of watched) {
      const since = facts.get(alarm.id) ?? null;
      const stored = states.get(alarm.id)?.state;
      const lastTs = stored?.lastTs ?? 0;
      const due = since === null ? null : since + (alarm.rule.after_s ?? 0) * 1000;
      const rule = { ...alarm.rule, ...FACT_RULE };
      if (due !== null && due <= now) {
        work.push({ alarm: { ...alarm, rule }, points: [[Math.max(due, lastTs), 1]] });
      } else if (stored?.state === 'active') {
        work.push({ alarm: { ...alarm, rule }, points: [[Math.max(now, lastTs), 0]] });
      }
    }
    return this.evaluator.stepAlarms(accountId, work);
  }

  /** Since when each watched alarm's fact has held (absent or null: it does not). */
  private async facts(
    accountId: string,
    watched: readonly WatchedAlarm[],
  ): Promise<Map<string, Fact>> {
    const out = new Map<string, Fact>();
    const silent = watched.filter((a) => a.rule.kind === 'no_data');
    if (silent.length > 0) {
      const latest = await this.store.latest([...new Set(silent.map((a) => a.rule.datastream_id))]);
      for (const a of silent) {
        const last = latest.get(a.rule.datastream_id)?.ts ?? a.madeAt;
        out.set(a.id, last);
      }
    }
    const offline = watched.filter((a) => a.rule.kind === 'offline');
    if (offline.length > 0) {
      const gatewayOf = await this.gatewaysOfStreams(accountId);
      for (const a of offline) {
        const gateway = gatewayOf.get(a.rule.datastream_id);
        if (gateway === undefined || gateway.connection === 'online') {
          out.set(a.id, null);
          continue;
        }
        const seen = gateway.last_seen === null ? Number.NaN : Date.parse(gateway.last_seen);
        out.set(a.id, Number.isFinite(seen) ? seen : a.madeAt);
      }
    }
    return out;
  }

  /** The gateway that feeds each stream: its datapoint's connection's gateway. */
  private async gatewaysOfStreams(accountId: string): Promise<Map<string, GatewayAttributes>> {
    const rows = await this.models.allOfTypes(accountId, [
      datapointModel.type,
      connectionModel.type,
      gatewayModel.type,
    ]);
    const gateways = new Map<string, GatewayAttributes>();
    const connections = new Map<string, string>();
    for (const row of rows) {
      if (row.type === gatewayModel.type) gateways.set(row.id, parsed<GatewayAttributes>(row));
      if (row.type === connectionModel.type)
        connections.set(row.id, parsed<ConnectionAttributes>(row).gateway_id);
    }
    const out = new Map<string, GatewayAttributes>();
    for (const row of rows) {
      if (row.type !== datapointModel.type) continue;
      const point = parsed<DatapointAttributes>(row);
      const gatewayId = connections.get(point.connection_id);
      const gateway = gatewayId === undefined ? undefined : gateways.get(gatewayId);
      if (point.datastream_id !== null && gateway !== undefined)
        out.set(point.datastream_id, gateway);
    }
    return out;
  }
}
