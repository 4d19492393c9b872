import {
  alarmModel,
  connectionModel,
  datapointModel,
  expectedSilenceMs,
  gatewayModel,
  sourcesByStream,
  streamFreshness,
  type AlarmRule,
  type StreamSource,
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

/** When a fact's alarm is due (epoch ms), or null while the fact does not hold. */
type Due = number | null;

const parsed = <T>(row: ModelRow) => JSON.parse(row.attributes) as T;

/**
 * "No data for N minutes" and "gateway offline for N minutes" alarms (issue 17 item 2), judged
 * on the alarm timer. An offline alarm's fact holds from when the gateway that feeds its stream
 * was last seen, while it is offline; it is due `after_s` later.
 *
 * A no-data alarm asks the shared freshness rule (shared-schema `streamFreshness`, issue 30
 * item 1), as the value marks on screen do: while the stream's connection reports failing, it is
 * due at once (the agent knows: nothing is waiting to be sent); else it is due once the source
 * has been silent for `after_s` and for longer than its expected interval (silence counts from
 * the later of the latest value and the connection's last good read, so an unchanged value of
 * a healthy connection is not silence; with no datapoint known, from the latest value, or with
 * none ever, from the alarm's making). Due, the alarm is raised at that moment; it clears on the
 * first round after it no longer is.
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
    const facts = await this.facts(accountId, watched, now);
    const states = await new AlarmRepository(this.db).states(
      accountId,
      watched.map((a) => a.id),
    );
    const work: { alarm: AlarmInfo; points: [number, number][] }[] = [];
    for (const alarm of watched) {
      const due = facts.get(alarm.id) ?? null;
      const stored = states.get(alarm.id)?.state;
      const lastTs = stored?.lastTs ?? 0;
      const rule = { ...alarm.rule, ...FACT_RULE };
      if (due !== null && due <= now) {
        work.push({ alarm: { ...alarm, rule }, points: [[Math.max(due, lastTs), 1]] });
      } else if (stored?.state === 'active') {
        work.push({ alarm: { ...alarm, rule }, points: [[Math.max(now, lastTs), 0]] });
      }
    }
    return this.evaluator.stepAlarms(accountId, work);
  }

  /** When each watched alarm is due (absent or null: its fact does not hold). */
  private async facts(
    accountId: string,
    watched: readonly WatchedAlarm[],
    now: number,
  ): Promise<Map<string, Due>> {
    const out = new Map<string, Due>();
    const afterMs = (a: WatchedAlarm) => (a.rule.after_s ?? 0) * 1000;
    const silent = watched.filter((a) => a.rule.kind === 'no_data');
    const offline = watched.filter((a) => a.rule.kind === 'offline');
    const sources = await this.sourcesOfStreams(accountId);
    if (silent.length > 0) {
      const latest = await this.store.latest([...new Set(silent.map((a) => a.rule.datastream_id))]);
      for (const a of silent) {
        const source = sources.get(a.rule.datastream_id) ?? null;
        const fresh = streamFreshness({
          now,
          lastValueAt: latest.get(a.rule.datastream_id)?.ts ?? null,
          source,
        });
        if (fresh.state === 'failing' && fresh.since !== null) {
          out.set(a.id, fresh.since);
          continue;
        }
        const from = fresh.heardAt ?? a.madeAt;
        out.set(a.id, from + Math.max(afterMs(a), source === null ? 0 : expectedSilenceMs(source)));
      }
    }
    for (const a of offline) {
      const gateway = sources.get(a.rule.datastream_id)?.gateway;
      if (gateway === undefined || gateway.connection === 'online') {
        out.set(a.id, null);
        continue;
      }
      const seen = gateway.last_seen === null ? Number.NaN : Date.parse(gateway.last_seen);
      out.set(a.id, (Number.isFinite(seen) ? seen : a.madeAt) + afterMs(a));
    }
    return out;
  }

  /** What feeds each stream: its datapoint's connection, and that connection's gateway. */
  private async sourcesOfStreams(
    accountId: string,
  ): Promise<Map<string, StreamSource & { readonly gateway: GatewayAttributes }>> {
    const rows = await this.models.allOfTypes(accountId, [
      datapointModel.type,
      connectionModel.type,
      gatewayModel.type,
    ]);
    const gateways = new Map<string, GatewayAttributes>();
    const connections = new Map<string, ConnectionAttributes>();
    const datapoints: DatapointAttributes[] = [];
    for (const row of rows) {
      if (row.type === gatewayModel.type) gateways.set(row.id, parsed<GatewayAttributes>(row));
      if (row.type === connectionModel.type)
        connections.set(row.id, parsed<ConnectionAttributes>(row));
      if (row.type === datapointModel.type) datapoints.push(parsed<DatapointAttributes>(row));
    }
    const out = new Map<string, StreamSource & { readonly gateway: GatewayAttributes }>();
    const sources = sourcesByStream(datapoints, connections, (id) => {
      const gateway = gateways.get(id);
      return gateway === undefined ? undefined : gateway.connection === 'online';
    });
    for (const [stream, source] of sources) {
      const gateway = gateways.get(source.gatewayId);
      if (gateway !== undefined) out.set(stream, { ...source, gateway });
    }
    return out;
  }
}
