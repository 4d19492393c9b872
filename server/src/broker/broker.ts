import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { topics, updateSubjectType, type ModelUpdate } from '@plant/shared-schema';
import type { Logger } from '../logger';
import type {
  BrokerIdentity,
  BrowserCredentialService,
} from '../services/browser-credential.service';
import type { ChangeFeed } from '../services/change-feed';

/** Path of MQTT over WebSocket on the HTTP port. */
export const MQTT_PATH = '/mqtt';

/** CONNACK return code 4 (MQTT 3.1.1): bad user name or password. */
const BAD_USERNAME_OR_PASSWORD = 4;

/** Upload progress (spec 000 §3): progress from 0 to 1. */
export interface UploadProgress {
  readonly id: string;
  readonly message: string;
  readonly progress: number;
}

function authError(message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: BAD_USERNAME_OR_PASSWORD });
}

/**
 * A browser may subscribe to its own account's model updates and notify topics, nothing wider:
 * no `#` at the root, no `+` in place of the account.
 */
export function mayBrowserSubscribe(accountId: string, topic: string): boolean {
  if (topic === topics.modelUpdates(accountId)) return true;
  const notify = `account/${accountId}/_notify/`;
  if (!topic.startsWith(notify)) return false;
  const rest = topic.slice(notify.length);
  return rest === '+' || rest === '#' || /^[A-Za-z0-9_-]{1,64}$/.test(rest);
}

/**
 * The embedded broker: aedes on the HTTP server's port at /mqtt (MQTT 3.1.1 over WebSocket).
 * Browsers connect with the credentials of GET user/browser/mqtt; the server publishes as an
 * internal client (aedes.publish), after commit, what the change feed tells it.
 */
export class EmbeddedBroker {
  private aedes: Aedes | undefined;
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    handleProtocols: (protocols) => (protocols.has('mqtt') ? 'mqtt' : false),
  });
  /**
   * Per client object, not per client id: a browser reconnecting with its id is admitted before
   * aedes drops its old connection, and that old connection's disconnect must not forget the new.
   */
  private readonly identities = new Map<Client, BrokerIdentity>();
  /** Per connected client: the model types its user may view, read when it connected. */
  private readonly viewable = new Map<Client, ReadonlySet<string>>();
  /** The subject type of each published update, parsed once for all subscribers. */
  private readonly subjects = new WeakMap<object, string>();
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly http: Server,
    private readonly credentials: BrowserCredentialService,
    private readonly feed: ChangeFeed,
    private readonly log: Logger,
    private readonly visibleTypes: (identity: BrokerIdentity) => Promise<ReadonlySet<string>>,
  ) {}

  async start(): Promise<void> {
    const aedes = await Aedes.createBroker({
      authenticate: (client, username, password, done) => {
        if (username === undefined || password === undefined) {
          done(authError('Credentials required'), false);
          return;
        }
        this.admit(client, username, password).then(
          (admitted) => done(admitted ? null : authError('Bad credentials'), admitted),
          (err: unknown) => {
            this.log.error('broker authentication failed', { error: String(err) });
            done(authError('Authentication failed'), false);
          },
        );
      },
      authorizeSubscribe: (client, subscription, done) => {
        const identity = this.identities.get(client);
        if (
          identity === undefined ||
          !mayBrowserSubscribe(identity.accountId, subscription.topic)
        ) {
          // A null subscription is refused in the SUBACK (0x80); the connection stays up.
          done(null, null);
          return;
        }
        done(null, subscription);
      },
      // Model updates reach a browser only for types its user may view, as mqttlogs filters them.
      authorizeForward: (client, packet) => {
        if (!packet.topic.endsWith('/_modelupdates')) return packet;
        const types = this.viewable.get(client);
        return types !== undefined && types.has(this.subjectOf(packet)) ? packet : null;
      },
      // Browsers publish nothing yet; the server publishes through aedes.publish (client null).
      authorizePublish: (client, _packet, done) => {
        done(client === null ? null : new Error('Publishing is not allowed'));
      },
    });
    this.aedes = aedes;
    aedes.on('clientDisconnect', (client: Client) => {
      this.identities.delete(client);
      this.viewable.delete(client);
    });
    aedes.on('clientError', (client: Client, err: Error) =>
      this.log.debug('broker client error', { client: client.id, error: err.message }),
    );

    const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (path !== MQTT_PATH) {
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        const stream = createWebSocketStream(ws);
        stream.on('error', () => stream.destroy());
        aedes.handle(stream, req);
      });
    };
    this.http.on('upgrade', onUpgrade);
    this.cleanups.push(() => this.http.off('upgrade', onUpgrade));
    this.cleanups.push(
      this.feed.subscribe((accountId, updates) => this.publishUpdates(accountId, updates)),
    );
    this.cleanups.push(this.credentials.onRevoked((ids) => this.disconnect(ids)));
  }

  /** Checks a CONNECT's credentials and notes who the client is and what it may see. */
  private async admit(client: Client, username: string, password: Buffer): Promise<boolean> {
    const identity = await this.credentials.verify(username, password, client.id);
    if (identity === undefined) return false;
    const types = await this.visibleTypes(identity);
    this.identities.set(client, identity);
    this.viewable.set(client, types);
    return true;
  }

  private subjectOf(packet: { payload: string | Buffer }): string {
    const key = packet.payload as object;
    let subject = this.subjects.get(key);
    if (subject === undefined) {
      try {
        subject = updateSubjectType(JSON.parse(packet.payload.toString()) as ModelUpdate);
      } catch {
        subject = '';
      }
      this.subjects.set(key, subject);
    }
    return subject;
  }

  /** Publishes one upload's progress on the account's notify topic. */
  publishUploadProgress(accountId: string, progress: UploadProgress): void {
    this.publish(topics.uploadProgress(accountId), JSON.stringify(progress));
  }

  private publishUpdates(accountId: string, updates: readonly ModelUpdate[]): void {
    for (const update of updates)
      this.publish(topics.modelUpdates(accountId), JSON.stringify(update));
  }

  private publish(topic: string, payload: string): void {
    const aedes = this.aedes;
    if (aedes === undefined || aedes.closed) return;
    aedes.publish(
      { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 0, retain: false, dup: false },
      (err) => {
        // The log is the truth: a lost publish is caught up by the clients' missed-update poll.
        if (err) this.log.warn('broker publish failed', { topic, error: err.message });
      },
    );
  }

  /** Closes the connections that used revoked credentials. */
  private disconnect(credentialIds: readonly string[]): void {
    const revoked = new Set(credentialIds);
    for (const [client, identity] of this.identities) {
      if (!revoked.has(identity.credentialId)) continue;
      this.identities.delete(client);
      this.viewable.delete(client);
      client.close();
    }
  }

  async stop(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
    const aedes = this.aedes;
    if (aedes !== undefined && !aedes.closed)
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
  }
}
