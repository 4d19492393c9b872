import fs from 'node:fs';
import { Rollouts } from './releases/rollouts';
import { ReleaseKeys } from './releases/release-keys';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions as HttpServerOptions,
  type ServerResponse,
} from 'node:http';
import { serve } from '@hono/node-server';
import { API_BASE, SERVER_TIME_HEADER, uuidv7 } from '@plant/shared-schema';
import { createApp } from './app';
import { EmbeddedBroker } from './broker/broker';
import { BATCH_RATE, type BatchRateLimits } from './gateways/batch-rate';
import { BackgroundTasks } from './lib/background';
import { Periodic } from './lib/periodic';
import type { Config } from './config';
import { exclusively, migrateToLatest, openConfiguredDatabase, type Db } from './db/database';
import { isoAt, systemClock, type Clock } from './lib/clock';
import { createLogger, type Logger } from './logger';
import { OAuthRepository } from './repositories/oauth.repository';
import { TokenRepository } from './repositories/token.repository';
import { seedDemo } from './seed/demo';
import { adoptDesigns } from './themes/adopt-designs';
import { writeDemoAgentKeys } from './seed/demo-agents';
import { createServices } from './services';
import type { AuthLimits } from './services/auth.service';
import { ChangeFeed } from './services/change-feed';
import { LogPruner } from './services/log-pruner';
import { Mailer } from './services/mail.service';
import { RecordPruner } from './services/record-pruner';
import { MachineData } from './gateways/machine-data';
import type { SandboxOptions } from './sandbox/quickjs-sandbox';
import { sandboxPreprocessor } from './gateways/sandbox-preprocessor';
import { ValuesService } from './gateways/values.service';
import { FileService } from './files/file.service';
import { DiskBlobStore } from './files/blob-store';
import { FilePruner } from './files/file-pruner';
import { SurfaceIndex } from './threed/surface';
import { RenderingProcessor } from './threed/rendering-processor';
import { ChromiumRenderer, type SceneRenderer } from './threed/scene-renderer';
import { loadCatalogue, loadHelpCatalogue } from './help/host-catalogue';
import { publicPagesApp, THEMES_CATALOGUE_DIR } from './public/public-pages';
import { helpHostApp, isHelpHost } from './help/host-page';
import { AccountRepository } from './repositories/account.repository';
import { openTimeSeriesStore } from './timeseries/sqlite-time-series-store';
import { openPostgresTimeSeriesStore } from './timeseries/postgres-time-series-store';
import { ValuePruner } from './timeseries/value-pruner';
import { mayUseTerminal } from './gateways/terminal';
import { joinCluster, type Cluster } from './cluster/cluster';
import { ClusterLeader } from './cluster/leader';
import { TaskStates } from './tasks/task-states';
import { loadVapidKeys } from './notify/channels/vapid-keys';
import { createChannels } from './notify/channels';
import type { Agent as HttpsAgent } from 'node:https';
import { AlarmDispatcher } from './notify/dispatcher';
import { ReportRunner, type PdfRenderer } from './reports/report-runner';
import { TicketNotices } from './feedback/ticket-notices';
import { SecretBox } from './integrations/secret-box';
import { WebhookSender } from './integrations/webhook-sender';
import { WebhookValues } from './integrations/webhook-values';
import { MachineContexts } from './service/machine-context';
import { ReportService } from './reports/report.service';
import { PdfThread } from './reports/pdf-thread';
import { BookletService } from './booklet/booklet.service';
import { ModelProcessor } from './threed/model-processor';
import type { ThreadLimits } from './threed/convert-thread';
import { InsightsLeader } from './insights/insights-leader';

export interface ServerOptions {
  readonly config: Config;
  readonly clock?: Clock;
  readonly log?: Logger;
  readonly authLimits?: AuthLimits;
  /** Interval of the broker's re-check of open connections (default 30 s; tests shorten it). */
  readonly brokerRecheckMs?: number;
  /**
   * How long a call's record in its request waits (default CALL_RECORD_DELAY_MS; a test
   * lengthens it to see what the broker alone does).
   */
  readonly callRecordDelayMs?: number;
  /** Each gateway's share of points per second (default GATEWAY_POINTS_PER_S; tests narrow it). */
  readonly ingestRate?: BatchRateLimits;
  /**
   * Tests only, never from the environment: web pushes through this https agent (one that
   * trusts a loopback push service's certificate), to endpoints on loopback too.
   */
  readonly testPush?: { readonly agent: HttpsAgent };
  /**
   * Tests that drive their own dispatchers (rounds by hand, recording channels): false keeps
   * this process's dispatcher from running rounds. Default true.
   */
  readonly dispatch?: boolean;
  /** Tests only: pre-processing in a sandbox of this process's own, with these limits. */
  readonly sandbox?: SandboxOptions;
  /** Tests only: what makes reports' PDFs (one that fails first, say). */
  readonly reportPdf?: (real: PdfRenderer) => PdfRenderer;
  /** Tests only: narrower limits of a 3D model's processing (its time, heap, triangles). */
  readonly threedLimits?: ThreadLimits;
  /** Tests only: what draws scenes' renderings (one a test holds, say). */
  readonly sceneRenderer?: (real: SceneRenderer) => SceneRenderer;
  /**
   * Whether the demo seed makes its 3D scene (a model file in the blob store, processed after
   * the start). Default true; the test harness leaves it out unless a test asks for it.
   */
  readonly demoScene?: boolean;
}

/**
 * What the processes of a cluster tell each other (DESIGN.md §11): revoked credentials (whoever
 * holds the connection closes it), the model types a committed write changed (caches drop
 * them), and gateways' answers to requests another process asked (an agent is linked to one
 * process, the request may come from any). Alone, nothing is sent.
 */
function linkProcesses(
  cluster: Cluster,
  feed: ChangeFeed,
  broker: EmbeddedBroker,
  services: ReturnType<typeof createServices>,
  machineData: MachineData,
): void {
  if (!cluster.shared) return;
  const { requests, presence } = machineData;
  requests.onlineElsewhere = (gatewayId) => presence.storedOnline(gatewayId);
  requests.unclaimed = (gatewayId, answer) =>
    cluster.broadcast('gateway-answer', { gatewayId, answer });
  cluster.on('gateway-answer', ({ gatewayId, answer }) => requests.claim(gatewayId, answer));
  const tell = (ids: readonly string[]) => {
    if (ids.length > 0) cluster.broadcast('revoked', { ids });
  };
  services.browserCredentials.onRevoked(tell);
  services.gatewayCredentials.onRevoked(tell);
  cluster.on('revoked', ({ ids }) => broker.disconnect(ids));
  feed.subscribe((accountId, updates) => {
    const types = new Set<string>();
    for (const u of updates) {
      types.add(u.type);
      if (u.child_type !== undefined) types.add(u.child_type);
    }
    cluster.broadcast('changed', { accountId, types: [...types] });
  });
  cluster.on('changed', ({ accountId, types }) => feed.publishElsewhere(accountId, new Set(types)));
  feed.subscribeAccess((accountId) => cluster.broadcast('access', { accountId }));
  cluster.on('access', () => void broker.refreshAccess());
}

/**
 * How often the leader looks for gateways left online by a process that died, in heartbeats
 * (CLUSTER_HEARTBEAT_MS: every 10 s by default).
 */
const PRESENCE_SWEEP_HEARTBEATS = 2;

function presenceSweep(machineData: MachineData, log: Logger, heartbeatMs: number): Periodic {
  return new Periodic(
    () => machineData.presence.sweep(),
    PRESENCE_SWEEP_HEARTBEATS * heartbeatMs,
    (err) => log.error('presence sweep failed', { error: String(err) }),
  );
}

export interface RunningServer {
  /** http://host:port, with the port actually bound (PORT=0 picks a free one). */
  readonly url: string;
  readonly port: number;
  readonly db: Db;
  /** Committed model updates, for the broker bridge and tests. */
  readonly feed: ChangeFeed;
  /** The embedded MQTT broker at /mqtt. */
  readonly broker: EmbeddedBroker;
  /** Gateways, ingest, values (DESIGN.md §8). */
  readonly machineData: MachineData;
  /** Alarm notifications: who is told what, when (issue 17). */
  readonly dispatcher: AlarmDispatcher;
  /** Reports' runs (issue 31): `tick()` looks for work now, as the leader's loop does. */
  readonly reports: ReportRunner;
  readonly threed: ModelProcessor;
  /** Rollouts under way (issue 35): `weighAll()` weighs them now, as the leader's tick does. */
  readonly rollouts: Rollouts;
  /** Tasks' states (issue 37): `weighAll()` weighs them now, `idle()` waits for weighings. */
  readonly tasks: TaskStates;
  /** Webhook integrations' posts (issue 37 item 6): `round()` sends what is due now. */
  readonly webhooks: WebhookSender;
  /** Security insights' snapshots and digests (issue 38 item 1): `tick()` runs a round now. */
  readonly insights: InsightsLeader;
  /** Resolves when background work (mails) started so far is done. */
  idle(): Promise<void>;
  /** Stops accepting, lets open requests finish (at most 10 s), then closes the database. */
  stop(): Promise<void>;
}

/**
 * The first-party OAuth client the web app signs in with. Made at first start with a fresh id
 * (never a default in code) and kept in the database; /staticconf tells the client its id.
 */
async function ensureFirstPartyClient(db: Db, clock: Clock): Promise<string> {
  const tokens = new TokenRepository(db);
  const existing = await tokens.firstPartyClient();
  if (existing !== undefined) return existing.id;
  const id = uuidv7();
  await tokens.insertClient({
    id,
    name: 'Web app',
    secret_hash: null,
    first_party: 1,
    password_client: 1,
    created_at: isoAt(clock.now()),
  });
  return id;
}

/** The client personal access tokens are issued by (Passport's personal access client). */
async function ensurePersonalAccessClient(db: Db, clock: Clock): Promise<string> {
  const repo = new OAuthRepository(db);
  const existing = await repo.personalAccessClient();
  if (existing !== undefined) return existing.id;
  const id = uuidv7();
  const at = isoAt(clock.now());
  await repo.insertClient({
    id,
    name: 'Personal Access Client',
    secret_hash: null,
    personal_access: 1,
    confidential: 0,
    user_id: null,
    role_id: null,
    created_at: at,
    updated_at: at,
  });
  return id;
}

/**
 * Headers every API answer carries, set on the node response before Hono runs. Set inside Hono,
 * they made the node adapter build undici Headers for every answer, a third of the cost of a
 * cached GET (bench/get-user). Answers with personal data are never to be stored by any cache.
 * Each carries the server's time in milliseconds (SERVER_TIME_HEADER): the sync worker measures
 * the device's clock against it, so "5 minutes ago" is counted on the server's clock.
 */
const createServerWithApiHeaders = (clock: Clock) =>
  ((options: HttpServerOptions, listener: RequestListener) =>
    createServer(options, (req: IncomingMessage, res: ServerResponse) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (req.url?.startsWith(`${API_BASE}/`) === true) {
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader(SERVER_TIME_HEADER, String(clock.now()));
      }
      listener(req, res);
    })) as typeof createServer;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const log = options.log ?? createLogger(config.logLevel);
  // DATA_DIR is made first: on Postgres no database file makes it, yet the demo agents' keys,
  // the VAPID keys, mail and SMS outboxes and the files are written there.
  fs.mkdirSync(config.dataDir, { recursive: true });
  const db = openConfiguredDatabase(config);
  // The files' bytes (DESIGN.md §9): the demo seed's 3D model goes there, hotspot writes read
  // 3D levels from them (threed/surface.ts).
  const blobs = new DiskBlobStore(path.join(config.dataDir, 'files'));
  // The accounts' release keys (DESIGN.md §15): the demo seed releases its agent versions with them.
  const releaseKeys = new ReleaseKeys(path.join(config.dataDir, 'release-keys'));
  // Processes of a cluster starting at once take these steps one after another.
  const { firstPartyClientId, personalClientId, seeded } = await exclusively(
    db,
    'plant:startup',
    async () => {
      await migrateToLatest(db);
      // Issue 30's account designs become themes (issue 36), once.
      await adoptDesigns(db, clock, log, blobs);
      return {
        firstPartyClientId: await ensureFirstPartyClient(db, clock),
        personalClientId: await ensurePersonalAccessClient(db, clock),
        seeded:
          config.seed === 'demo'
            ? await seedDemo(db, clock, log, {
                blobs,
                scene: options.demoScene !== false,
                releaseKeys,
              })
            : undefined,
      };
    },
  );

  const cluster = await joinCluster(config.redisUrl, log, config.clusterHeartbeatMs);
  const background = new BackgroundTasks(log);
  const feed = new ChangeFeed((err) => log.error('change listener failed', { error: String(err) }));
  const pruner = new LogPruner(db, clock, config.logRetentionMs, log);
  const recordPruner = new RecordPruner(db, clock, config.logRetentionMs, log);
  const mailer = new Mailer(
    { smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir },
    log,
  );
  const services = createServices({
    db,
    clock,
    log,
    mailer,
    surfaces: new SurfaceIndex(blobs),
    releaseKeys,
    background,
    feed,
    appUrl: config.appUrl,
    tokenTtlMs: config.tokenTtlMs,
    firstPartyClientId,
    personalClientId,
    rateCounters: cluster.rateCounters(() => clock.now()),
    iceServers: config.iceServers,
    ...(options.callRecordDelayMs === undefined
      ? {}
      : { callRecordDelayMs: options.callRecordDelayMs }),
    secretBox: new SecretBox(config.dataDir),
    webauthn: config.webauthn,
    insightsEventsMs: config.insightsEventsMs,
    ...(options.authLimits === undefined ? {} : { authLimits: options.authLimits }),
  });
  if (seeded !== undefined)
    await writeDemoAgentKeys(config.dataDir, seeded, services.gatewayCredentials);
  // Machine values beside the platform's tables on Postgres (shared by every process), else in
  // their own SQLite file.
  const store =
    config.databaseUrl === undefined
      ? await openTimeSeriesStore(config.dataDir)
      : await openPostgresTimeSeriesStore(config.databaseUrl);
  // Service requests sent with consent carry the machine's context, its latest values from here.
  services.models.machine = new MachineContexts(store);
  // The process's shared sandbox, released at stop (its threads end with the last user).
  const preprocessor = await sandboxPreprocessor(
    log,
    options.sandbox === undefined ? {} : { sandbox: options.sandbox },
  );
  const machineData = new MachineData({
    db,
    feed,
    clock,
    log,
    store,
    preprocessor,
    models: services.models,
    credentials: services.gatewayCredentials,
    ingestRate: options.ingestRate ?? {
      pointsPerSecond: config.gatewayPointsPerSecond,
      burstPoints: BATCH_RATE.burstPoints,
    },
  });
  // Rollouts of released versions to gateways: agents' reports move them (DESIGN.md §15).
  const rollouts = new Rollouts({ db, models: services.models, clock, log });
  machineData.rollouts = rollouts;
  // In a cluster, presence counts an agent's links over every process.
  machineData.presence.cluster = cluster.gatewayLinks();
  // Alarm notifications: every process runs the dispatcher (each claim is a compare-and-set),
  // woken by the transitions its evaluator records.
  // Made at first start, kept in DATA_DIR: the push channel signs with them, browsers subscribe
  // with the public one.
  const vapid = await loadVapidKeys(config.dataDir, log);
  const channels = await createChannels({
    vapid,
    config,
    db,
    mailer,
    log,
    dataDir: config.dataDir,
    clock,
    ...(options.testPush === undefined
      ? {}
      : { pushAgent: options.testPush.agent, allowPrivatePushEndpoints: true }),
  });
  const dispatcher = new AlarmDispatcher({
    db,
    clock,
    log,
    channels: Object.values(channels),
    models: services.models,
    config,
    feed,
  });
  machineData.alarms.onRecorded(() => dispatcher.wake());
  // Webhook integrations (issue 37 item 6): their posts sent once in the cluster (the leader);
  // values gathered in the process that ingests them, written to the outbox every few seconds.
  const webhooks = new WebhookSender({
    db,
    clock,
    log,
    secrets: services.integrations.secrets,
    feed,
    retryBaseMs: config.webhookRetryBaseMs,
    allowPrivate: config.webhookPrivateAddresses,
  });
  const webhookValues = new WebhookValues({
    db,
    clock,
    log,
    feed,
    streams: machineData.streams,
    written: () => void webhooks.wake(),
  });
  machineData.pointSinks.push((accountId, points) => webhookValues.take(accountId, points));
  const accounts = new AccountRepository(db);
  const valuePruner = new ValuePruner(store, clock, log, () => accounts.valueRetention());
  const files = new FileService(db, blobs, services.models, log);
  // Uploaded 3D models processed in the background, on threads of their own (DESIGN.md §13).
  const threed = new ModelProcessor({
    db,
    models: services.models,
    blobs,
    feed,
    log,
    workDir: path.join(config.dataDir, 'work', '3d'),
    ...(options.threedLimits === undefined ? {} : { limits: options.threedLimits }),
  });
  // Renderings of 3D scenes, drawn by the server's Chromium in the background (DESIGN.md §13).
  const renderings = new RenderingProcessor({
    db,
    models: services.models,
    blobs,
    feed,
    log,
    renderer:
      options.sceneRenderer === undefined
        ? new ChromiumRenderer(log)
        : options.sceneRenderer(new ChromiumRenderer(log)),
  });
  // Reports' PDFs and CSVs in a blob store of their own: the file pruner keeps to file models'.
  const reportBlobs = new DiskBlobStore(path.join(config.dataDir, 'report-files'));
  // Reports' PDFs are drawn on a thread of their own, off the event loop.
  const pdfThread = new PdfThread();
  const reports = new ReportRunner({
    db,
    clock,
    log,
    models: services.models,
    users: services.users,
    store,
    mailer,
    blobs: reportBlobs,
    tickMs: config.reportTickMs,
    renderPdf:
      options.reportPdf === undefined ? pdfThread.render : options.reportPdf(pdfThread.render),
  });
  // Where each task stands on each asset (issue 37): weighed on writes, stored points and a tick.
  const tasks = new TaskStates({
    db,
    models: services.models,
    feed,
    clock,
    log,
    latest: (streams) => store.latest(streams),
    tickMs: config.taskTickMs,
  });
  machineData.pointSinks.push((accountId) => tasks.pointsStored(accountId));
  const app = createApp(
    services,
    log,
    config.clientDir,
    new ValuesService(db, machineData),
    files,
    { publicKey: vapid.publicKey, subscribeTimeoutMs: config.pushSubscribeTimeoutMs },
    config.trustedProxies,
    config.mapTilesUrl,
    dispatcher.invites,
    new ReportService(db, reports, reportBlobs),
    config.helpcenterHost === undefined
      ? undefined
      : {
          host: config.helpcenterHost,
          app: helpHostApp({
            db,
            articles: services.articles,
            files,
            translate: loadHelpCatalogue(),
            log,
            ...(config.helpcenterAccount === undefined
              ? {}
              : { account: config.helpcenterAccount }),
          }),
        },
    publicPagesApp({
      db,
      accounts: services.accounts,
      translate: loadCatalogue(THEMES_CATALOGUE_DIR),
    }),
    // The service booklet's PDF: drawn on the reports' PDF thread, its pictures from the files.
    new BookletService(db, blobs, pdfThread.renderBooklet, clock),
  );

  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch,
        port: config.port,
        hostname: config.host,
        createServer: createServerWithApiHeaders(clock),
      },
      () => resolve(s as Server),
    );
    s.once('error', reject);
  });
  const broker = new EmbeddedBroker(
    server,
    services.browserCredentials,
    feed,
    log,
    async (who) => {
      const session = await services.users.session(who.userId, false);
      // Credentials name their account: a user since switched elsewhere, or no longer a member,
      // is refused (or closed).
      if (session.activeAccount?.id !== who.accountId) return undefined;
      return { access: session.access, terminal: mayUseTerminal(session.ctx) };
    },
    {
      gateways: machineData,
      shared: cluster.brokerOptions(),
      // Calls of service requests: their topics for their two parties; a party gone ends them.
      calls: services.calls,
      callLeft: (accountId, callId) =>
        void services.calls
          .linkGone(accountId, callId)
          .catch((err: unknown) => log.warn('ending a left call failed', { error: String(err) })),
      userGone: (accountId, userId) =>
        void services.calls
          .userGone(accountId, userId)
          .catch((err: unknown) =>
            log.warn('ending a gone user’s calls failed', { error: String(err) }),
          ),
      ...(config.helpcenterHost === undefined
        ? {}
        : { refusesHost: (host) => isHelpHost(host, config.helpcenterHost ?? '') }),
      // Security insights count refused links: broker refusals, revoked gateway keys knocking.
      refused: (refusal) =>
        refusal.kind === 'connect'
          ? services.securityEvents.connectRefused(refusal.username, refusal.password)
          : services.securityEvents.linkRefused(refusal.accountId, refusal.client),
      ...(options.brokerRecheckMs === undefined ? {} : { recheckEveryMs: options.brokerRecheckMs }),
    },
  );
  await broker.start();
  // Agents' presence for calls is who has a broker link (this process's: DESIGN.md §14).
  services.calls.presence = broker;
  files.progress = (accountId, assetId, progress) =>
    broker.publishUploadProgress(accountId, assetId, progress);
  linkProcesses(cluster, feed, broker, services, machineData);
  // Alone, no gateway can be connected before the broker starts: every "online" is stale. In a
  // cluster, gateways connected to the other processes are online.
  await machineData.start(broker, { resetPresence: !cluster.shared });
  if (options.dispatch !== false) dispatcher.start();
  webhookValues.start();
  services.securityEvents.start();
  // Security insights' daily snapshots and weekly digests: once in the cluster.
  const insights = new InsightsLeader({
    db,
    clock,
    log,
    mailer,
    users: services.users,
    insights: services.insights,
    appUrl: config.appUrl,
    tickMs: config.insightsTickMs,
  });
  const leader = new ClusterLeader(
    [
      valuePruner,
      pruner,
      recordPruner,
      new FilePruner(db, clock, log, blobs),
      // Reports due: made and mailed once in the cluster.
      reports,
      // The feedback centre's mails to reporters: sent once in the cluster.
      new TicketNotices({ db, clock, log, mailer, appUrl: config.appUrl, feed }),
      // Uploaded 3D models: processed once in the cluster; renderings made once.
      threed,
      renderings,
      // Rollouts weighed on a tick once in the cluster (each process takes its agents' reports).
      rollouts,
      // Dated tasks come due on a tick once in the cluster (writes and points weigh at once).
      tasks,
      // Webhook integrations' posts: sent once in the cluster.
      webhooks,
      insights,
      // Gateways left online by a process that died: offline once no live process links them.
      ...(cluster.shared ? [presenceSweep(machineData, log, config.clusterHeartbeatMs)] : []),
    ],
    config.databaseUrl,
    log,
    // A process not leading tries the lock every heartbeat (5 s by default).
    config.clusterHeartbeatMs,
  );
  leader.start();
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log.info('server listening', { url, dataDir: config.dataDir });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await leader.stop();
      // Weighings a write or a point started in this process, leader or not.
      await tasks.stop();
      await broker.stop();
      await machineData.stop();
      // What ingest gathered for webhooks goes into the outbox before the database closes.
      await webhookValues.stop();
      webhooks.close();
      await dispatcher.stop();
      await pdfThread.close();
      const force = setTimeout(() => server.closeAllConnections(), 10_000);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearTimeout(force);
      // Calls' records that wait are written now, not after their delay.
      services.calls.flush();
      await background.drain();
      // The security events counted so far, written before the database closes.
      await services.securityEvents.stop();
      preprocessor.dispose();
      // Last of what requests and presence use: their rate limits, revocations and links.
      await cluster.close();
      // Closed once no request can read values any more.
      await store.close();
      mailer.close();
      await db.destroy();
      log.info('server stopped');
    })());

  return {
    url,
    port,
    db,
    feed,
    broker,
    machineData,
    dispatcher,
    reports,
    threed,
    rollouts,
    webhooks,
    tasks,
    insights,
    idle: () => background.drain(),
    stop,
  };
}
