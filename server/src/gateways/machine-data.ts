import {
  accountModel,
  gatewayTopics,
  type GatewayAck,
  type ModelUpdate,
} from '@plant/shared-schema';
import type { Rollouts } from '../releases/rollouts';
import type { GatewayLink } from '../broker/gateway-acl';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import type { Logger } from '../logger';
import type { ChangeFeed } from '../services/change-feed';
import type {
  GatewayCredentialService,
  GatewayIdentity,
} from '../services/gateway-credential.service';
import type { ModelService } from '../services/model.service';
import type { TimeSeriesStore } from '../timeseries/time-series-store';
import type { BatchRateLimits } from './batch-rate';
import { ConfigPublisher } from './config-publisher';
import { GatewayRequests } from './gateway-requests';
import { Ingest, type Preprocessor, type StoredPointsSink } from './ingest';
import { LivePublisher } from './live-values';
import { GatewayPresence } from './presence';
import { StreamDirectory } from './stream-directory';
import { GatewayLogs } from './gateway-logs';
import { GatewayTerminal } from './terminal';
import type { BrokerIdentity } from '../services/browser-credential.service';
import { AlarmWatch } from '../alarms/alarm-watch';
import { AlarmEvaluator } from '../alarms/alarm-evaluator';
import { Periodic } from '../lib/periodic';
import { AccountRepository } from '../repositories/account.repository';

/** How often pending alarms are looked at without a new point (their delay may run out). */
const ALARM_TICK_MS = 5_000;

/** What machine data sends out: the broker, once it runs. */
export interface MachineDataBroker {
  publishToGateway(topic: string, payload: string, retain?: boolean): void;
  publishValues(topic: string, payload: string): void;
}

export interface MachineDataDeps {
  readonly db: Db;
  readonly feed: ChangeFeed;
  readonly clock: Clock;
  readonly log: Logger;
  readonly store: TimeSeriesStore;
  readonly preprocessor: Preprocessor;
  readonly models: ModelService;
  readonly credentials: GatewayCredentialService;
  /** Each gateway's share of points per second (default BATCH_RATE; tests narrow it). */
  readonly ingestRate?: BatchRateLimits;
}

/**
 * Machine data on the server (DESIGN.md §8), one object with start()/stop(): the gateway half of
 * the broker (`GatewayLink`: sign-in, what agents send, presence), ingest into the time-series
 * store, live values, the gateways' configurations and requests to agents. The broker is attached
 * once it runs (it needs the HTTP server, which needs the routes, which need this).
 */
export class MachineData implements GatewayLink {
  readonly streams: StreamDirectory;
  readonly live: LivePublisher;
  readonly ingest: Ingest;
  readonly configs: ConfigPublisher;
  readonly presence: GatewayPresence;
  readonly requests: GatewayRequests;
  readonly terminal: GatewayTerminal;
  readonly logs: GatewayLogs;
  readonly alarms: AlarmEvaluator;
  /** No-data and offline alarms, judged on the alarm timer. */
  readonly alarmWatch: AlarmWatch;
  private readonly alarmTimer: Periodic;
  /** No-data judgements started by a connection's change of state, not yet done. */
  private readonly judging = new Set<Promise<void>>();
  private broker: MachineDataBroker | undefined;
  private stopWatchingAccounts: (() => void) | undefined;

  /**
   * Who else hears of stored points after their ack, beside the alarms (a task's counter,
   * tasks/task-states.ts); each one's failure is logged by the ingest, never the batch's.
   */
  readonly pointSinks: StoredPointsSink[] = [];

  /** Rollouts under way: agents' reports on `up/update` go to them (releases/rollouts.ts). */
  rollouts: Rollouts | undefined;

  constructor(private readonly deps: MachineDataDeps) {
    this.streams = new StreamDirectory(deps.db, deps.feed);
    this.live = new LivePublisher((topic, payload) => this.broker?.publishValues(topic, payload));
    this.alarms = new AlarmEvaluator(deps.db, deps.feed, deps.clock, deps.log, deps.models);
    this.alarmWatch = new AlarmWatch(deps.db, deps.store, this.alarms, deps.clock);
    this.alarmTimer = new Periodic(
      async () => {
        await this.alarms.tickAll();
        await this.alarmWatch.round();
      },
      ALARM_TICK_MS,
      (err) => deps.log.error('alarm tick failed', { error: String(err) }),
    );
    this.ingest = new Ingest({
      store: deps.store,
      streams: this.streams,
      preprocessor: deps.preprocessor,
      live: this.live,
      ack: (gatewayId, ack: GatewayAck) =>
        this.broker?.publishToGateway(gatewayTopics.ack(gatewayId), JSON.stringify(ack)),
      clock: deps.clock,
      log: deps.log,
      stored: (accountId, points) =>
        Promise.all([
          this.alarms.evaluate(accountId, points),
          ...this.pointSinks.map((sink) => sink(accountId, points)),
        ]),
      accountActive: (accountId) => new AccountRepository(deps.db).isActive(accountId),
      ...(deps.ingestRate === undefined ? {} : { rate: deps.ingestRate }),
    });
    this.configs = new ConfigPublisher({
      db: deps.db,
      feed: deps.feed,
      clock: deps.clock,
      log: deps.log,
      publish: (topic, payload) => this.broker?.publishToGateway(topic, payload, true),
      gatewayDeleted: async (accountId, gatewayId) => {
        this.logs.forget(gatewayId);
        await deps.credentials.revokeFor(accountId, gatewayId);
      },
    });
    this.presence = new GatewayPresence(deps.db, deps.models, deps.clock, deps.log);
    // A connection failing or back raises or clears its no-data alarms now, not on the timer.
    this.presence.connectionStateChanged = (accountId) => {
      const judged = this.alarmWatch
        .account(accountId)
        .then(() => undefined)
        .catch((err: unknown) =>
          deps.log.error('no-data alarms not judged', { error: String(err) }),
        )
        .finally(() => this.judging.delete(judged));
      this.judging.add(judged);
    };
    this.requests = new GatewayRequests(
      (topic, payload) => this.broker?.publishToGateway(topic, payload),
      (gatewayId) => this.presence.isOnline(gatewayId),
      deps.log,
    );
    this.logs = new GatewayLogs(deps.log);
    this.terminal = new GatewayTerminal(
      deps.db,
      this.requests,
      (topic, payload) => this.broker?.publishValues(topic, payload),
      deps.clock,
      deps.log,
    );
  }

  get store(): TimeSeriesStore {
    return this.deps.store;
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  /** The streams' pre-processing (the sandbox): ingest's, and the form's "try the code". */
  get preprocessor(): Preprocessor {
    return this.deps.preprocessor;
  }

  /**
   * Starts once the broker runs: presence is reset (when `resetPresence`: this process is the
   * only one gateways connect to), every gateway gets its configuration.
   */
  async start(broker: MachineDataBroker, options: { resetPresence: boolean }): Promise<void> {
    this.broker = broker;
    this.stopWatchingAccounts = this.deps.feed.subscribe((accountId, updates) =>
      this.accountsChanged(accountId, updates),
    );
    if (options.resetPresence) await this.presence.start();
    await this.configs.start();
    this.alarmTimer.start();
  }

  /**
   * A deactivated account's gateways stop at once (spec 001 §4): their links close, as a revoked
   * credential's would. From the committed change, whoever wrote it (the account routes or the
   * generic `accounts` writes); the account's own log carries it once (its ancestors' logs carry
   * copies). Renaming an inactive account closes nothing more: its gateways cannot connect.
   */
  private accountsChanged(accountId: string, updates: readonly ModelUpdate[]): void {
    for (const u of updates) {
      if (u.type !== accountModel.type || u.id !== accountId || u.action !== 'updated') continue;
      if (u.attributes?.active !== false) continue;
      this.deps.credentials.closeLinksOf(accountId).catch((err: unknown) =>
        this.deps.log.error("closing a deactivated account's gateways failed", {
          account: accountId,
          error: String(err),
        }),
      );
    }
  }

  // GatewayLink: the broker's gateway half.
  verify(username: string, password: Buffer, clientId: string) {
    return this.deps.credentials.verify(username, password, clientId);
  }

  /** A terminal command a browser with the grant published (the broker checked it). */
  terminalCommand(identity: BrokerIdentity, gatewayId: string, payload: Buffer): void {
    this.terminal.received(identity, gatewayId, payload);
  }

  liveAmong(ids: readonly string[]) {
    return this.deps.credentials.liveAmong(ids);
  }

  onRevoked(listener: (ids: readonly string[]) => void) {
    return this.deps.credentials.onRevoked(listener);
  }

  connected(identity: GatewayIdentity): void {
    this.presence.connected(identity);
  }

  disconnected(identity: GatewayIdentity): void {
    this.presence.disconnected(identity);
  }

  received(identity: GatewayIdentity, topic: string, payload: Buffer): void {
    if (topic === gatewayTopics.data(identity.gatewayId)) {
      void this.ingest.received(identity, payload);
    } else if (topic === gatewayTopics.status(identity.gatewayId)) {
      this.presence.status(identity, payload);
    } else if (topic === gatewayTopics.response(identity.gatewayId)) {
      this.requests.responded(identity, payload);
    } else if (topic === gatewayTopics.logs(identity.gatewayId)) {
      this.logs.received(identity, payload);
    } else if (topic === gatewayTopics.update(identity.gatewayId)) {
      void this.rollouts?.reported(identity, payload);
    } else {
      this.deps.log.debug('gateway message on an unknown topic', { topic });
    }
  }

  /** Resolves when what arrived so far is stored and written (tests). */
  async idle(): Promise<void> {
    await this.ingest.idle();
    await this.presence.idle();
    await Promise.all([...this.judging]);
  }

  async stop(): Promise<void> {
    this.stopWatchingAccounts?.();
    await this.configs.stop();
    await this.alarmTimer.stop();
    await this.ingest.idle();
    await this.presence.idle();
    await Promise.all([...this.judging]);
    this.requests.close();
    this.live.close();
    this.streams.close();
    this.alarms.close();
  }
}
