import { strict as assert } from 'node:assert';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  Aedes,
  type AedesOptions,
  type AedesPublishPacket,
  type AuthenticateError,
  type Client,
} from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import {
  callRingSchema,
  topics,
  updateSubjectType,
  uploadProgressSchema,
  fileModel,
  type CallRing,
  type ModelUpdate,
  type UploadProgress,
} from '@plant/shared-schema';
import { Periodic } from '../lib/periodic';
import {
  callInboxesOf,
  callTopicOf,
  peerOf,
  signalToPass,
  SignalRate,
  type CallLookup,
} from './call-signals';
import type { Logger } from '../logger';
import type {
  BrokerIdentity,
  BrowserCredentialService,
} from '../services/browser-credential.service';
import type { AccessDecision } from '../services/access-decision';
import type { ChangeFeed } from '../services/change-feed';
import type { GatewayIdentity } from '../services/gateway-credential.service';
import { mayGatewayPublish, mayGatewaySubscribe, type GatewayLink } from './gateway-acl';
import { PACKET_LIMITS, PacketGuard } from './packet-guard';
import { dropClientRetain, mayRetain } from './retain-policy';

/** Path of MQTT over WebSocket on the HTTP port. */
export const MQTT_PATH = '/mqtt';

/** CONNACK return codes (MQTT 3.1.1): bad user name or password; not authorized. */
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

/**
 * Keepalive a CONNECT must ask for, in seconds (clients use TIMINGS.brokerKeepaliveS, 55). 0 would
 * turn the broker's timeout off, and a half-open socket would then stay forever; past 5 minutes
 * a dead browser holds its connection (and its subscriptions) too long.
 */
export const KEEPALIVE_MIN_S = 1;
export const KEEPALIVE_MAX_S = 300;

/** How often open connections are re-checked (credentials live, types viewable), by default. */
export const RECHECK_EVERY_MS = 30_000;

function authError(message: string, returnCode = BAD_USERNAME_OR_PASSWORD): AuthenticateError {
  return Object.assign(new Error(message), { returnCode });
}

/** What a browser receives on `_notify/access`. */
const ACCESS_CHANGED_PAYLOAD = Buffer.from(JSON.stringify({ reason: 'access' }));

/** What the broker needs of each published model update, worked out once for all subscribers. */
interface ForwardInfo {
  /** The model type the update is about ('' when the payload is not an update). */
  readonly subject: string;
  readonly update: ModelUpdate | undefined;
  /** The copies of the update other than the whole one, by AccessDecision.copyKey. */
  projected?: Map<string, AedesPublishPacket>;
}

/**
 * A refusal that security insights count (issue 38 item 1): a CONNECT's credentials (the user name
 * says whose), or an admitted link's subscribe or publish that its ACL refused.
 */
export type BrokerRefusal =
  | { readonly kind: 'connect'; readonly username: string; readonly password: Buffer }
  | { readonly kind: 'link'; readonly accountId: string; readonly client: string };

export interface BrokerOptions {
  /** Interval of the re-check of open connections (tests shorten it). */
  readonly recheckEveryMs?: number;
  /** Gateway agents: their sign-in and what they send (DESIGN.md §8). */
  readonly gateways?: GatewayLink;
  /** Shared message bus and persistence of a cluster of processes (DESIGN.md §11). */
  readonly shared?: Partial<Pick<AedesOptions, 'mq' | 'persistence'>>;
  /** Whether a request is for a host that serves no broker (the help centre's own host). */
  readonly refusesHost?: (host: string | undefined) => boolean;
  /** Calls of service requests: who may use a call's topics (issue 34). */
  readonly calls?: CallLookup;
  /** A user's last connection in an account ended (its calls there end). */
  readonly userGone?: (accountId: string, userId: string) => void;
  /** The link a party listened to a call on ended (a closed call page): the call ends. */
  readonly callLeft?: (accountId: string, callId: string) => void;
  /** Told of each refusal (security insights' counters). */
  readonly refused?: (refusal: BrokerRefusal) => void;
}

/**
 * Largest MQTT message over the WebSocket. Browsers publish nothing; a gateway's batch of
 * GATEWAY_LIMITS.pointsPerBatch points fits. Anything larger closes the connection.
 */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * What a browser's user may see through the broker: the access decision of its session (types,
 * assets, fields: DESIGN.md §10) and whether it may use the gateway terminal.
 */
export interface BrowserSight {
  readonly access: AccessDecision;
  readonly terminal: boolean;
}

/**
 * What the identity's user may see in the identity's account, read afresh; undefined when the
 * user may no longer use that account (switched away, removed): it is refused or closed.
 */
export type VisibleTypes = (identity: BrokerIdentity) => Promise<BrowserSight | undefined>;

/**
 * A browser may subscribe to its own account's model updates and notify topics, nothing wider:
 * no `#` at the root, no `+` in place of the account.
 */
export function mayBrowserSubscribe(accountId: string, topic: string): boolean {
  if (topic === topics.modelUpdates(accountId)) return true;
  if (isValuesTopic(accountId, topic)) return true;
  const notify = `account/${accountId}/_notify/`;
  if (!topic.startsWith(notify)) return false;
  const rest = topic.slice(notify.length);
  return rest === '+' || rest === '#' || /^[A-Za-z0-9_-]{1,64}$/.test(rest);
}

/** The gateway id of a terminal topic of the account (`in` or `out`), or undefined. */
export function terminalGatewayOf(
  accountId: string,
  topic: string,
  end: 'in' | 'out',
): string | undefined {
  const prefix = `account/${accountId}/terminal/`;
  if (!topic.startsWith(prefix) || !topic.endsWith(`/${end}`)) return undefined;
  const gateway = topic.slice(prefix.length, -(end.length + 1));
  return gateway === '+' || /^[A-Za-z0-9_-]{1,64}$/.test(gateway) ? gateway : undefined;
}

/** An asset's live values in the account (`+` for every asset the user may see). */
function isValuesTopic(accountId: string, topic: string): boolean {
  const prefix = topics.assetValues(accountId, '');
  if (!topic.startsWith(prefix)) return false;
  const rest = topic.slice(prefix.length);
  return rest === '+' || /^[A-Za-z0-9_-]{1,64}$/.test(rest);
}

/**
 * The embedded broker: aedes on the HTTP server's port at /mqtt (MQTT 3.1.1 over WebSocket).
 * Browsers connect with the credentials of GET user/browser/mqtt; the server publishes as an
 * internal client (aedes.publish), after commit, what the change feed tells it. Open connections
 * are re-checked every 30 s: ended credentials close, viewable types are read again.
 */
export class EmbeddedBroker {
  private aedes: Aedes | undefined;
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (protocols) => (protocols.has('mqtt') ? 'mqtt' : false),
  });
  /**
   * Per client object, not per client id: a browser reconnecting with its id is admitted before
   * aedes drops its old connection, and that old connection's disconnect must not forget the new.
   */
  private readonly identities = new Map<Client, BrokerIdentity>();
  /** Per browser connection, its calls' signalling rate. */
  private readonly signalRates = new WeakMap<Client, SignalRate>();
  /** Per browser connection, the calls it listens to (their inboxes). */
  private readonly callLinks = new WeakMap<Client, Set<string>>();
  /** Per connected client: what its user may see, refreshed by the re-check. */
  private readonly viewable = new Map<Client, BrowserSight>();
  /** Per published access-changed message (by payload): the users it is for. */
  private readonly accessNotices = new WeakMap<object, ReadonlySet<string>>();
  /** Per published ring (by payload): the agent it is for and what its browsers get. */
  private readonly rings = new WeakMap<object, { to: string; payload: Buffer } | undefined>();
  /** Per published upload progress (by payload), parsed once for all subscribers. */
  private readonly uploadNotices = new WeakMap<
    object,
    { assetId: string | null; payload: Buffer } | undefined
  >();
  /** Per published update (by payload), parsed once for all subscribers. */
  private readonly forwards = new WeakMap<object, ForwardInfo>();
  /** The keepalive each CONNECT asked for, seen in preConnect, judged in authenticate. */
  private readonly keepalives = new WeakMap<Client, number>();
  /** CONNECTs that carried a will, seen in preConnect, refused in authenticate. */
  private readonly withWill = new WeakSet<Client>();
  /** Connected gateway agents, per client object like the browsers. */
  private readonly gatewayClients = new Map<Client, GatewayIdentity>();
  /** Each link's packet guard: its limit widens once the CONNECT says what kind it is. */
  private readonly guards = new WeakMap<Client, PacketGuard>();
  private readonly gateways: GatewayLink | undefined;
  private readonly calls: CallLookup | undefined;
  private readonly userGone: ((accountId: string, userId: string) => void) | undefined;
  private readonly callLeft: ((accountId: string, callId: string) => void) | undefined;
  private readonly shared: Partial<Pick<AedesOptions, 'mq' | 'persistence'>>;
  private readonly recheckLoop: Periodic;
  private readonly cleanups: (() => void)[] = [];
  private readonly refusesHost: BrokerOptions['refusesHost'];
  private readonly refused: BrokerOptions['refused'];

  constructor(
    private readonly http: Server,
    private readonly credentials: BrowserCredentialService,
    private readonly feed: ChangeFeed,
    private readonly log: Logger,
    private readonly visibleTypes: VisibleTypes,
    options: BrokerOptions = {},
  ) {
    this.gateways = options.gateways;
    this.calls = options.calls;
    this.userGone = options.userGone;
    this.callLeft = options.callLeft;
    this.shared = options.shared ?? {};
    this.refusesHost = options.refusesHost;
    this.refused = options.refused;
    this.recheckLoop = new Periodic(
      () => this.refreshAccess(),
      options.recheckEveryMs ?? RECHECK_EVERY_MS,
      (err) => this.log.error('broker re-check failed', { error: String(err) }),
    );
  }

  async start(): Promise<void> {
    const aedes = await Aedes.createBroker({
      ...this.shared,
      // authenticate() is not given the CONNECT packet, and a refusal here would close the socket
      // without a CONNACK (a client would take it for a network error and retry at once); so the
      // keepalive is noted here and refused in authenticate(), with a CONNACK.
      preConnect: (client, packet, done) => {
        this.keepalives.set(client, packet.keepalive ?? 0);
        if (packet.will !== undefined && packet.will !== null) this.withWill.add(client);
        done(null, true);
      },
      authenticate: (client, username, password, done) => {
        const keepalive = this.keepalives.get(client) ?? 0;
        if (keepalive < KEEPALIVE_MIN_S || keepalive > KEEPALIVE_MAX_S) {
          // MQTT 3.1.1 has no code for it (aedes's keepaliveLimit sends 6, a reserved code).
          done(
            authError(
              `Keepalive must be ${KEEPALIVE_MIN_S} to ${KEEPALIVE_MAX_S} s`,
              NOT_AUTHORIZED,
            ),
            false,
          );
          return;
        }
        // No client of ours leaves a will, and a will is published when its link dies, on another
        // process too (aedes authorises it there with no client: past every ACL). Refused here.
        if (this.withWill.has(client)) {
          done(authError('Wills are not allowed', NOT_AUTHORIZED), false);
          return;
        }
        if (username === undefined || password === undefined) {
          done(authError('Credentials required'), false);
          return;
        }
        this.admit(client, username, password).then(
          (admitted) => {
            if (!admitted) this.refused?.({ kind: 'connect', username, password });
            done(admitted ? null : authError('Bad credentials'), admitted);
          },
          (err: unknown) => {
            this.log.error('broker authentication failed', { error: String(err) });
            done(authError('Authentication failed'), false);
          },
        );
      },
      authorizeSubscribe: (client, subscription, done) => {
        const gateway = this.gatewayClients.get(client);
        if (gateway !== undefined) {
          const allowed = mayGatewaySubscribe(gateway.gatewayId, subscription.topic);
          if (!allowed) this.refusedLink(gateway.accountId, `gateway:${gateway.gatewayId}`);
          done(null, allowed ? subscription : null);
          return;
        }
        const identity = this.identities.get(client);
        // A call's inbox: only its own user's, of a call that user is a party of, while it lasts.
        const inbox =
          identity === undefined ? undefined : callTopicOf(identity.accountId, subscription.topic);
        if (identity !== undefined && inbox !== undefined) {
          this.mayUseCall(identity, inbox.callId, inbox.userId, 'own').then(
            (ok) => {
              if (ok) this.linkHearsCall(client, inbox.callId);
              done(null, ok ? subscription : null);
            },
            () => done(null, null),
          );
          return;
        }
        // Its own inboxes of every call (what it is sent, the forward check's second lock).
        const inboxesOf =
          identity === undefined
            ? undefined
            : callInboxesOf(identity.accountId, subscription.topic);
        if (identity !== undefined && inboxesOf !== undefined) {
          done(null, inboxesOf === identity.userId ? subscription : null);
          return;
        }
        // Terminal answers: only for users with the grant (internal tag, gateway::view).
        if (
          identity !== undefined &&
          terminalGatewayOf(identity.accountId, subscription.topic, 'out') !== undefined
        ) {
          done(null, this.viewable.get(client)?.terminal === true ? subscription : null);
          return;
        }
        if (
          identity === undefined ||
          !mayBrowserSubscribe(identity.accountId, subscription.topic) ||
          (isValuesTopic(identity.accountId, subscription.topic) &&
            !this.maySeeValues(client, identity.accountId, subscription.topic))
        ) {
          // A null subscription is refused in the SUBACK (0x80); the connection stays up.
          if (identity !== undefined)
            this.refusedLink(identity.accountId, `user:${identity.userId}`);
          done(null, null);
          return;
        }
        done(null, subscription);
      },
      // Model updates reach a browser whole only for types its user may view; for the others it
      // gets the stand-in (same seq, ts, muid), so its seq has no gaps, as in mqttlogs.
      authorizeForward: (client, packet) => {
        if (packet.topic.startsWith('gateway/')) {
          // Only to the gateway the topic names (its subscription was checked; this is the
          // second lock: a retained message never reaches anyone else).
          const gateway = this.gatewayClients.get(client);
          return gateway !== undefined &&
            packet.topic.startsWith(`gateway/${gateway.gatewayId}/down/`)
            ? packet
            : null;
        }
        if (this.gatewayClients.has(client)) return null;
        if (packet.topic.includes('/calls/')) {
          // Second lock: a call's message only to its inbox's own user, in its account.
          const identity = this.identities.get(client);
          const inbox =
            identity === undefined ? undefined : callTopicOf(identity.accountId, packet.topic);
          return inbox !== undefined && inbox.userId === identity?.userId ? packet : null;
        }
        if (packet.topic.includes('/terminal/')) {
          // Second lock: terminal answers only to browsers that hold the grant now.
          return this.viewable.get(client)?.terminal === true ? packet : null;
        }
        const identity = this.identities.get(client);
        if (identity !== undefined && isValuesTopic(identity.accountId, packet.topic)) {
          // A `+` subscription matches every asset's values: only those of assets it sees.
          return this.maySeeValues(client, identity.accountId, packet.topic) ? packet : null;
        }
        if (identity !== undefined && packet.topic === topics.accessChanged(identity.accountId)) {
          // Only to the browsers of the users it names, and without the names.
          const users = this.accessChangedUsers(packet);
          return users.has(identity.userId) ? { ...packet, payload: ACCESS_CHANGED_PAYLOAD } : null;
        }
        if (identity !== undefined && packet.topic === topics.callRing(identity.accountId)) {
          // A call rings at its agent's browsers only, without naming the agent.
          const ring = this.ringOf(packet);
          return ring !== undefined && ring.to === identity.userId
            ? { ...packet, payload: ring.payload }
            : null;
        }
        if (identity !== undefined && packet.topic === topics.uploadProgress(identity.accountId)) {
          // Only to who sees the file's asset, and without naming the asset.
          const notice = this.uploadNotice(packet);
          const access = this.viewable.get(client)?.access;
          if (notice === undefined || access === undefined) return null;
          if (!access.seesModel(fileModel.type, notice.assetId)) return null;
          return { ...packet, payload: notice.payload };
        }
        if (!packet.topic.endsWith('/_modelupdates')) return packet;
        const access = this.viewable.get(client)?.access;
        if (access === undefined) return null;
        const info = this.forwardInfo(packet);
        const update = info.update;
        if (update === undefined) return null;
        // One copy per kind of receiver (whole, stand-in, fewer fields, fewer assets), built once.
        const key = access.copyKey(update);
        if (key === undefined) return packet;
        info.projected ??= new Map();
        let projected = info.projected.get(key);
        if (projected === undefined) {
          projected = { ...packet, payload: Buffer.from(JSON.stringify(access.asSeen(update))) };
          info.projected.set(key, projected);
        }
        return projected;
      },
      // Browsers publish only terminal commands (with the grant); the server publishes through
      // aedes.publish (client null).
      // A gateway publishes on its own up/ topics only; what it sends goes to the machine-data
      // services, which answer on its down/ topics.
      authorizePublish: (client, packet, done) => {
        // Whoever publishes here (a client, or a will), nothing is kept: retain-policy.ts.
        dropClientRetain(packet);
        if (client === null) {
          done(null);
          return;
        }
        const identity = this.identities.get(client);
        const inbox =
          identity === undefined ? undefined : callTopicOf(identity.accountId, packet.topic);
        if (identity !== undefined && inbox !== undefined) {
          // A call's message to the other party's inbox: checked, stamped with its sender.
          this.callSignal(client, identity, inbox, packet).then(
            (refused) => {
              // The link a party speaks on is the call's: the call ends when it does.
              if (refused === null) this.linkHearsCall(client, inbox.callId);
              done(refused);
            },
            () => done(new Error('Publishing is not allowed')),
          );
          return;
        }
        if (identity !== undefined) {
          // A browser publishes on its account's terminal topic only, with the grant.
          const gatewayId = terminalGatewayOf(identity.accountId, packet.topic, 'in');
          if (
            gatewayId === undefined ||
            gatewayId === '+' ||
            this.viewable.get(client)?.terminal !== true ||
            this.gateways === undefined
          ) {
            this.refusedLink(identity.accountId, `user:${identity.userId}`);
            done(new Error('Publishing is not allowed'));
            return;
          }
          this.gateways.terminalCommand(identity, gatewayId, packet.payload as Buffer);
          done(null);
          return;
        }
        const gateway = this.gatewayClients.get(client);
        if (gateway === undefined || !mayGatewayPublish(gateway.gatewayId, packet.topic)) {
          if (gateway !== undefined)
            this.refusedLink(gateway.accountId, `gateway:${gateway.gatewayId}`);
          done(new Error('Publishing is not allowed'));
          return;
        }
        this.gateways?.received(gateway, packet.topic, packet.payload as Buffer);
        done(null);
      },
    });
    this.aedes = aedes;
    aedes.on('client', (client: Client) => {
      const gateway = this.gatewayClients.get(client);
      if (gateway !== undefined) this.gateways?.connected(gateway);
    });
    aedes.on('clientDisconnect', (client: Client) => this.forget(client));
    aedes.on('clientError', (client: Client, err: Error) =>
      this.log.debug('broker client error', { client: client.id, error: err.message }),
    );

    const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (path !== MQTT_PATH || this.refusesHost?.(req.headers.host) === true) {
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        const stream = createWebSocketStream(ws);
        stream.on('error', () => stream.destroy());
        // Packets over the limit end the link as their header arrives (packet-guard.ts).
        const guard = new PacketGuard(stream);
        guard.on('error', () => guard.destroy());
        this.guards.set(aedes.handle(guard, req), guard);
      });
    };
    this.http.on('upgrade', onUpgrade);
    this.cleanups.push(() => this.http.off('upgrade', onUpgrade));
    this.cleanups.push(
      this.feed.subscribe((accountId, updates) => this.publishUpdates(accountId, updates)),
    );
    this.cleanups.push(
      this.feed.subscribeAccess(() => {
        this.refreshAccess().catch((err: unknown) =>
          this.log.error('broker re-check after an access change failed', { error: String(err) }),
        );
      }),
    );
    this.cleanups.push(this.credentials.onRevoked((ids) => this.disconnect(ids)));
    if (this.gateways !== undefined) {
      this.cleanups.push(this.gateways.onRevoked((ids) => this.disconnect(ids)));
    }
    this.recheckLoop.start();
  }

  /** Checks a CONNECT's credentials and notes who the client is and what it may see. */
  private refusedLink(accountId: string, client: string): void {
    this.refused?.({ kind: 'link', accountId, client });
  }

  private async admit(client: Client, username: string, password: Buffer): Promise<boolean> {
    const gateway = await this.gateways?.verify(username, password, client.id);
    if (gateway !== undefined) {
      this.gatewayClients.set(client, gateway);
      this.guards.get(client)?.allow(PACKET_LIMITS.gateway);
      return true;
    }
    const identity = await this.credentials.verify(username, password, client.id);
    if (identity === undefined) return false;
    const sight = await this.visibleTypes(identity);
    if (sight === undefined) return false;
    this.identities.set(client, identity);
    this.viewable.set(client, sight);
    this.guards.get(client)?.allow(PACKET_LIMITS.browser);
    return true;
  }

  /**
   * Live values of an asset (or `+`, every asset): for users who may view data streams, of an
   * asset they see (DESIGN.md §10).
   */
  private maySeeValues(client: Client, accountId: string, topic: string): boolean {
    const access = this.viewable.get(client)?.access;
    if (access?.types.has('datastream') !== true) return false;
    const assetId = topic.slice(topics.assetValues(accountId, '').length);
    return assetId === '+' || access.seesAsset(assetId);
  }

  /** The users an access-changed message names (parsed once per publish, like updates). */
  /** An upload progress as published (with its asset) and as forwarded (without). */
  private uploadNotice(
    packet: AedesPublishPacket,
  ): { assetId: string | null; payload: Buffer } | undefined {
    const key = packet.payload as object;
    if (this.uploadNotices.has(key)) return this.uploadNotices.get(key);
    let notice: { assetId: string | null; payload: Buffer } | undefined;
    try {
      const { asset_id: assetId, ...progress } = JSON.parse(packet.payload.toString()) as {
        asset_id?: unknown;
      };
      const valid = uploadProgressSchema.safeParse(progress);
      // null: a template's file (files/file.service.ts).
      if ((typeof assetId === 'string' || assetId === null) && valid.success) {
        notice = { assetId, payload: Buffer.from(JSON.stringify(valid.data)) };
      }
    } catch {
      notice = undefined;
    }
    this.uploadNotices.set(key, notice);
    return notice;
  }

  private accessChangedUsers(packet: AedesPublishPacket): ReadonlySet<string> {
    const key = packet.payload as object;
    let users = this.accessNotices.get(key);
    if (users === undefined) {
      try {
        const parsed = JSON.parse(packet.payload.toString()) as { users?: unknown };
        users = new Set(
          Array.isArray(parsed.users)
            ? parsed.users.filter((u): u is string => typeof u === 'string')
            : [],
        );
      } catch {
        users = new Set();
      }
      this.accessNotices.set(key, users);
    }
    return users;
  }

  private ringOf(packet: AedesPublishPacket): { to: string; payload: Buffer } | undefined {
    const key = packet.payload as object;
    if (this.rings.has(key)) return this.rings.get(key);
    let ring: { to: string; payload: Buffer } | undefined;
    try {
      const parsed = JSON.parse(packet.payload.toString()) as { to?: unknown };
      const valid = callRingSchema.safeParse(parsed);
      if (typeof parsed.to === 'string' && valid.success)
        ring = { to: parsed.to, payload: Buffer.from(JSON.stringify(valid.data)) };
    } catch {
      ring = undefined;
    }
    this.rings.set(key, ring);
    return ring;
  }

  private forwardInfo(packet: AedesPublishPacket): ForwardInfo {
    // By payload: aedes hands every subscriber the same packet and payload of one publish.
    const key = packet.payload as object;
    let info = this.forwards.get(key);
    if (info === undefined) {
      let update: ModelUpdate | undefined;
      try {
        update = JSON.parse(packet.payload.toString()) as ModelUpdate;
      } catch {
        update = undefined;
      }
      info = { subject: update === undefined ? '' : updateSubjectType(update), update };
      this.forwards.set(key, info);
    }
    return info;
  }

  /**
   * Publishes one upload's progress on the account's notify topic. Throws on a malformed one
   * (progress outside 0..1, …): that is a bug of the caller, not something to send browsers.
   */
  /**
   * Upload progress of a file of `assetId`: published with the asset, which the forward check
   * reads to reach only who sees it, and strips (spec 000 §7's message: id, message, progress).
   */
  publishUploadProgress(accountId: string, assetId: string | null, progress: UploadProgress): void {
    const valid = uploadProgressSchema.parse(progress);
    this.publish(topics.uploadProgress(accountId), JSON.stringify({ ...valid, asset_id: assetId }));
  }

  /**
   * Rings a call at its agent's browsers (those of this process and, in a cluster, the others'):
   * the forward check passes it to that user's links only.
   */
  ring(accountId: string, agentId: string, ring: CallRing): void {
    const valid = callRingSchema.parse(ring);
    this.publish(topics.callRing(accountId), JSON.stringify({ ...valid, to: agentId }));
  }

  private publishUpdates(accountId: string, updates: readonly ModelUpdate[]): void {
    for (const update of updates)
      this.publish(topics.modelUpdates(accountId), JSON.stringify(update));
  }

  /**
   * Publishes to one gateway agent (its down/ topics). `retain`: kept by the broker and given to
   * the agent when it subscribes (the configuration).
   */
  publishToGateway(topic: string, payload: string, retain = false): void {
    assert(!retain || mayRetain(topic), `retained publish on ${topic}`);
    this.publish(topic, payload, { qos: 1, retain });
  }

  /** Publishes an asset's live values to the browsers of the account that subscribed to them. */
  publishValues(topic: string, payload: string): void {
    this.publish(topic, payload);
  }

  /** Gateways connected now, by gateway id (a test's and the presence tracker's view). */
  connectedGateways(): Set<string> {
    return new Set([...this.gatewayClients.values()].map((g) => g.gatewayId));
  }

  /** The topics of the retained messages the broker holds (an operator's and a test's view). */
  async retainedTopics(): Promise<string[]> {
    const aedes = this.aedes as
      | { persistence: { createRetainedStream(pattern: string): AsyncIterable<{ topic: string }> } }
      | undefined;
    const topics: string[] = [];
    if (aedes === undefined) return topics;
    for await (const packet of aedes.persistence.createRetainedStream('#'))
      topics.push(packet.topic);
    return topics.sort();
  }

  private publish(
    topic: string,
    payload: string,
    options: { qos: 0 | 1; retain: boolean } = { qos: 0, retain: false },
  ): void {
    const aedes = this.aedes;
    if (aedes === undefined || aedes.closed) return;
    aedes.publish(
      { cmd: 'publish', topic, payload: Buffer.from(payload), dup: false, ...options },
      (err) => {
        // The log is the truth: a lost publish is caught up by the clients' missed-update poll.
        if (err) this.log.warn('broker publish failed', { topic, error: err.message });
      },
    );
  }

  /** Closes the connections that used revoked credentials (here, or told by another process). */
  disconnect(credentialIds: readonly string[]): void {
    const revoked = new Set(credentialIds);
    for (const [client, identity] of this.identities) {
      if (revoked.has(identity.credentialId)) this.close(client);
    }
    for (const [client, identity] of this.gatewayClients) {
      if (revoked.has(identity.credentialId)) this.close(client);
    }
  }

  /**
   * The periodic re-check of open connections: closes those whose credentials ended without a
   * revocation being told (expiry, a password reset's revoked tokens, a CONNECT that raced a
   * revocation) and those whose user left the account; refreshes what the others may view, so a
   * permission change reaches an open connection within one interval.
   */
  private async recheck(): Promise<void> {
    // A client closed while it was being admitted never gets clientDisconnect: forget it here.
    for (const client of this.identities.keys()) if (client.closed) this.forget(client);
    await this.recheckGateways();
    const open = [...this.identities];
    if (open.length === 0) return;
    const live = await this.credentials.liveAmong([
      ...new Set(open.map(([, identity]) => identity.credentialId)),
    ]);
    // Once per user and account, however many browsers it has open. A failed read keeps what
    // the connections had: it is no reason to close them, nor to widen what they see.
    const types = new Map<string, Promise<BrowserSight | undefined | 'keep'>>();
    const typesOf = (identity: BrokerIdentity) => {
      const key = `${identity.userId} ${identity.accountId}`;
      let answer = types.get(key);
      if (answer === undefined) {
        answer = this.visibleTypes(identity).catch((err: unknown) => {
          this.log.error('broker re-check of a user failed', { error: String(err) });
          return 'keep' as const;
        });
        types.set(key, answer);
      }
      return answer;
    };
    const changed = new Map<string, Set<string>>();
    await Promise.all(
      open.map(async ([client, identity]) => {
        const viewable = live.has(identity.credentialId) ? await typesOf(identity) : undefined;
        if (viewable === 'keep' || this.identities.get(client) !== identity) return;
        if (viewable === undefined) {
          this.close(client);
          return;
        }
        const before = this.viewable.get(client);
        this.viewable.set(client, viewable);
        if (before !== undefined && before.access.fingerprint !== viewable.access.fingerprint) {
          let users = changed.get(identity.accountId);
          if (users === undefined) changed.set(identity.accountId, (users = new Set()));
          users.add(identity.userId);
        }
      }),
    );
    // Their workers load the account again: what they may no longer see goes, what became
    // visible comes (DESIGN.md §10). Through the broker, so other processes' browsers of the
    // same users hear it too.
    for (const [accountId, users] of changed) {
      this.publish(topics.accessChanged(accountId), JSON.stringify({ users: [...users] }));
    }
  }

  /**
   * Re-checks every open connection now, instead of at the next interval: after a change of
   * roles, their assets or fields, so that browsers follow it at once.
   */
  refreshAccess(): Promise<void> {
    // One at a time: two overlapping re-checks would both tell the same change.
    const next = this.rechecking.then(() => this.recheck());
    this.rechecking = next.catch(() => undefined);
    return next;
  }

  private rechecking: Promise<void> = Promise.resolve();

  /** Gateways whose credentials ended without a revocation being told (another process). */
  private async recheckGateways(): Promise<void> {
    for (const client of this.gatewayClients.keys()) if (client.closed) this.forget(client);
    const open = [...this.gatewayClients];
    if (open.length === 0 || this.gateways === undefined) return;
    const live = await this.gateways.liveAmong(open.map(([, g]) => g.credentialId));
    for (const [client, identity] of open) if (!live.has(identity.credentialId)) this.close(client);
  }

  private close(client: Client): void {
    this.forget(client);
    client.close();
  }

  /**
   * Whether the identity may use the inbox of `inboxUser` in the call: its `own` inbox
   * (subscribe) or its `peer`'s (publish), of a call it is a party of that still lasts.
   */
  private async mayUseCall(
    identity: BrokerIdentity,
    callId: string,
    inboxUser: string,
    whose: 'own' | 'peer',
  ): Promise<boolean> {
    if (this.calls === undefined) return false;
    const parties = await this.calls.partiesOf(identity.accountId, callId);
    if (parties === undefined) return false;
    const peer = peerOf(parties, identity.userId);
    if (peer === undefined) return false;
    return whose === 'own' ? inboxUser === identity.userId : inboxUser === peer;
  }

  /** A browser's signalling message: to its peer's inbox, valid, within the rate; else refused. */
  private async callSignal(
    client: Client,
    identity: BrokerIdentity,
    inbox: { readonly callId: string; readonly userId: string },
    packet: { payload: Buffer | string },
  ): Promise<Error | null> {
    let rate = this.signalRates.get(client);
    if (rate === undefined) this.signalRates.set(client, (rate = new SignalRate()));
    if (!rate.take(Date.now())) return new Error('Too many call messages');
    if (!(await this.mayUseCall(identity, inbox.callId, inbox.userId, 'peer')))
      return new Error('Publishing is not allowed');
    const payload = signalToPass(Buffer.from(packet.payload), identity.userId);
    if (payload === undefined) return new Error('Not a call message');
    packet.payload = payload;
    return null;
  }

  /** The link a party listens or speaks on in a call: when it ends, the call ends (callLeft). */
  private linkHearsCall(client: Client, callId: string): void {
    let calls = this.callLinks.get(client);
    if (calls === undefined) this.callLinks.set(client, (calls = new Set()));
    calls.add(callId);
  }

  /** The users of the account with a live broker connection (agents' presence, issue 34). */
  onlineUsers(accountId: string): ReadonlySet<string> {
    const users = new Set<string>();
    for (const [client, identity] of this.identities)
      if (identity.accountId === accountId && !client.closed) users.add(identity.userId);
    return users;
  }

  private forget(client: Client): void {
    const identity = this.identities.get(client);
    this.identities.delete(client);
    this.viewable.delete(client);
    // The link a call was heard on: the call ends with it (the call page closed).
    if (identity !== undefined)
      for (const callId of this.callLinks.get(client) ?? [])
        this.callLeft?.(identity.accountId, callId);
    // The user's last link in the account: it is gone (its calls end, its agent is not online).
    if (
      identity !== undefined &&
      this.userGone !== undefined &&
      !this.onlineUsers(identity.accountId).has(identity.userId)
    )
      this.userGone(identity.accountId, identity.userId);
    const gateway = this.gatewayClients.get(client);
    if (gateway !== undefined) {
      this.gatewayClients.delete(client);
      this.gateways?.disconnected(gateway);
    }
  }

  async stop(): Promise<void> {
    await this.recheckLoop.stop();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
    const aedes = this.aedes;
    if (aedes !== undefined && !aedes.closed)
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
  }
}
