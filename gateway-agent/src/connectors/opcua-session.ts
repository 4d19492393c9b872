import { OPCUACertificateManager } from 'node-opcua-certificate-manager';
import {
  AttributeIds,
  MessageSecurityMode,
  OPCUAClient,
  SecurityPolicy,
  UserTokenType,
  VariableIds,
  type ClientSession,
  type UserIdentityInfo,
} from 'node-opcua-client';
import { opcuaSettingsSchema, type OpcuaSettings } from '@plant/shared-schema';

/** A connected client with its session: what the reading and browsing parts work on. */
export interface OpcuaLink {
  readonly client: OPCUAClient;
  readonly session: ClientSession;
  readonly limits: OperationLimits;
  /**
   * Closes the session (deleting its subscriptions) and the client; never throws. A session
   * close the device does not answer within `timeoutMs` is given up (the client closes anyway).
   */
  close(timeoutMs: number): Promise<void>;
}

/** How many operations the device takes in one call (its OperationLimits, else our own caps). */
export interface OperationLimits {
  readonly nodesPerRead: number;
  readonly nodesPerBrowse: number;
  readonly monitoredItemsPerCall: number;
}

/** Our own caps: big enough to save round-trips, small enough for a modest PLC's buffers. */
const DEFAULT_LIMITS: OperationLimits = {
  nodesPerRead: 500,
  nodesPerBrowse: 100,
  monitoredItemsPerCall: 500,
};

const SECURITY = {
  none: { mode: MessageSecurityMode.None, policy: SecurityPolicy.None },
  // Basic256Sha256 encrypts with RSA-OAEP: it works on Node 20 without the PKCS#1 v1.5
  // revert (CVE-2023-46809) that Basic128Rsa15 would need.
  sign: { mode: MessageSecurityMode.Sign, policy: SecurityPolicy.Basic256Sha256 },
  'sign-and-encrypt': {
    mode: MessageSecurityMode.SignAndEncrypt,
    policy: SecurityPolicy.Basic256Sha256,
  },
} as const satisfies Record<OpcuaSettings['security_mode'], unknown>;

export function parseOpcuaSettings(
  settings: unknown,
): { ok: true; settings: OpcuaSettings } | { ok: false; error: string } {
  const parsed = opcuaSettingsSchema.safeParse(settings);
  if (parsed.success) return { ok: true, settings: parsed.data };
  const first = parsed.error.issues[0];
  return {
    ok: false,
    error: `Invalid OPC UA settings: ${first ? `${first.path.join('.')}: ${first.message}` : 'unknown'}`,
  };
}

/**
 * One certificate manager per PKI folder and process: several connections share the agent's
 * certificate, and two managers on one folder would race to create it.
 */
const certificateManagers = new Map<string, Promise<OPCUACertificateManager>>();

function certificateManager(pkiDir: string): Promise<OPCUACertificateManager> {
  let manager = certificateManagers.get(pkiDir);
  if (!manager) {
    const created = new OPCUACertificateManager({
      rootFolder: pkiDir,
      // Trust on first use, for now: a server certificate we have not seen is accepted and
      // stored under trusted/ (one moved to rejected/ by hand stays refused). So any new
      // certificate is accepted, not only the first one per endpoint: pinning per endpoint
      // and a way to approve certificates from the browser are still to come.
      automaticallyAcceptUnknownCertificate: true,
      // No live watching of the folders: it holds file handles and nothing edits them at run time.
      disableFileWatchers: true,
    });
    manager = created.initialize().then(() => created);
    // A failed initialisation (folder not writable) is tried again on the next connect.
    manager.catch(() => certificateManagers.delete(pkiDir));
    certificateManagers.set(pkiDir, manager);
  }
  return manager;
}

export interface OpenLinkOptions {
  readonly pkiDir: string;
  /** Names the session on the device (its diagnostics show it). */
  readonly clientName: string;
  readonly sessionTimeoutMs: number;
  /** Aborting it closes the client, even in the middle of connecting. */
  readonly signal: AbortSignal;
}

/**
 * Connects and opens a session with the settings' security mode and user. Connection losses
 * after this are repaired by node-opcua itself (channel, session, subscriptions, with backoff
 * 1 s doubling to 30 s); the caller watches the client's events.
 */
export async function openLink(
  settings: OpcuaSettings,
  options: OpenLinkOptions,
): Promise<OpcuaLink> {
  const security = SECURITY[settings.security_mode];
  const client = OPCUAClient.create({
    applicationName: 'PlantGatewayAgent',
    clientName: options.clientName,
    // Devices behind NAT or with several interfaces advertise endpoint URLs with other host
    // names than the one configured: take the configured one.
    endpointMustExist: false,
    securityMode: security.mode,
    securityPolicy: security.policy,
    clientCertificateManager: await certificateManager(options.pkiDir),
    // maxRetry 1: a first connect that fails is reported at once and retried by the connector's
    // own loop; a connection lost later is repaired by node-opcua without bound (it ignores
    // maxRetry there), with these delays.
    connectionStrategy: { maxRetry: 1, initialDelay: 1_000, maxDelay: 30_000 },
    requestedSessionTimeout: options.sessionTimeoutMs,
    // Without a subscription (polling), a periodic read is what notices a dead connection.
    keepSessionAlive: true,
  });
  const abort = () => void client.disconnect().catch(() => undefined);
  options.signal.addEventListener('abort', abort, { once: true });
  try {
    options.signal.throwIfAborted();
    await client.connect(settings.endpoint);
    const session = await client.createSession(identity(settings));
    const limits = await readLimits(session);
    options.signal.throwIfAborted();
    // From here the owner closes the link in order (session first), also when stopping.
    options.signal.removeEventListener('abort', abort);
    return {
      client,
      session,
      limits,
      async close(timeoutMs) {
        await settleWithin(session.close(true), timeoutMs);
        await client.disconnect().catch(() => undefined);
      },
    };
  } catch (err) {
    options.signal.removeEventListener('abort', abort);
    await client.disconnect().catch(() => undefined);
    throw err;
  }
}

/**
 * Waits for a request at most `ms`, ignoring its outcome: node-opcua queues requests while it
 * repairs a connection, so a goodbye to a device that is gone would otherwise wait for it.
 */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}

function identity(settings: OpcuaSettings): UserIdentityInfo {
  if (settings.username === undefined || settings.username === '') {
    return { type: UserTokenType.Anonymous };
  }
  return {
    type: UserTokenType.UserName,
    userName: settings.username,
    password: settings.password ?? '',
  };
}

async function readLimits(session: ClientSession): Promise<OperationLimits> {
  const ids = [
    VariableIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRead,
    VariableIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerBrowse,
    VariableIds.Server_ServerCapabilities_OperationLimits_MaxMonitoredItemsPerCall,
  ];
  // Optional nodes: a device without them (or refusing the read) gets our defaults.
  const values = await session
    .read(ids.map((id) => ({ nodeId: `i=${id}`, attributeId: AttributeIds.Value })))
    .catch(() => []);
  const limit = (index: number, fallback: number): number => {
    const value: unknown = values[index]?.value.value;
    // 0 means "no limit" in OPC UA: our own cap then.
    return typeof value === 'number' && value > 0 ? Math.min(value, fallback) : fallback;
  };
  return {
    nodesPerRead: limit(0, DEFAULT_LIMITS.nodesPerRead),
    nodesPerBrowse: limit(1, DEFAULT_LIMITS.nodesPerBrowse),
    monitoredItemsPerCall: limit(2, DEFAULT_LIMITS.monitoredItemsPerCall),
  };
}

/** An error of node-opcua in words a machine builder can act on (status texts stay visible). */
export function describeOpcuaError(err: unknown, endpoint: string): string {
  const message = err instanceof Error ? err.message : String(err);
  const flat = message.replace(/\s+/g, ' ').trim();
  const status = /\b(Bad[A-Za-z]+)\b/.exec(flat)?.[1];
  if (status === 'BadUserAccessDenied' || status?.startsWith('BadIdentityToken')) {
    return `The device refused the user name or password (${status})`;
  }
  if (status === 'BadCertificateUntrusted' || status === 'BadSecurityChecksFailed') {
    return `The device does not trust the gateway's certificate: trust it on the device (${status})`;
  }
  if (/Cannot find ANONYMOUS user token policy/i.test(flat)) {
    return 'The device accepts no anonymous sessions: set a user name and password';
  }
  if (/Cannot find USERNAME user token policy/i.test(flat)) {
    return 'The device accepts no user name and password: clear the user name';
  }
  if (/Cannot find an Endpoint matching/i.test(flat)) {
    return `The device offers no endpoint with this security mode (Basic256Sha256 for sign and sign-and-encrypt): ${flat}`;
  }
  if (/ECONNREFUSED/.test(flat)) return `Nothing answers at ${endpoint} (connection refused)`;
  if (/ENOTFOUND|EAI_AGAIN/.test(flat)) return `Unknown host in ${endpoint}`;
  if (/ETIMEDOUT|EHOSTUNREACH|ENETUNREACH/.test(flat)) {
    return `The device at ${endpoint} does not answer (${/E[A-Z]+/.exec(flat)?.[0] ?? 'timeout'})`;
  }
  return flat.slice(0, 500) || 'Unknown error';
}
