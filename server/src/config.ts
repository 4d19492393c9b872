import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { iceServersSchema, type IceServer } from '@plant/shared-schema';
import { parseRelyingParty } from './auth/relying-party';

/**
 * The server's configuration, parsed once from the environment at start into a frozen object.
 * Bad values fail fast with one line per problem, before anything is opened or listened on.
 */
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const intInRange = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, `${name} must be at least ${min}`)
        .max(max, `${name} must be at most ${max}`),
    );

const envSchema = z.object({
  PORT: intInRange('PORT', 0, 65535).default(3000),
  HOST: z.string().min(1, 'HOST must not be empty').default('127.0.0.1'),
  DATA_DIR: z.string().min(1, 'DATA_DIR must not be empty').default('./data'),
  SEED: z.enum(['demo', 'none'], { error: "SEED must be 'demo' or 'none'" }).default('demo'),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
  TOKEN_TTL_DAYS: intInRange('TOKEN_TTL_DAYS', 1, 3650).default(30),
  LOG_RETENTION_DAYS: intInRange('LOG_RETENTION_DAYS', 1, 3650).default(14),
  GATEWAY_POINTS_PER_S: intInRange('GATEWAY_POINTS_PER_S', 1, 100_000_000).default(5_000),
  CLUSTER_HEARTBEAT_MS: intInRange('CLUSTER_HEARTBEAT_MS', 100, 60_000).default(5_000),
  REPORT_TICK_MS: intInRange('REPORT_TICK_MS', 100, 60_000).default(15_000),
  TASK_TICK_MS: intInRange('TASK_TICK_MS', 100, 3_600_000).default(60_000),
  INSIGHTS_EVENTS_MS: intInRange('INSIGHTS_EVENTS_MS', 100, 60_000).default(15_000),
  INSIGHTS_TICK_MS: intInRange('INSIGHTS_TICK_MS', 100, 3_600_000).default(60_000),
  PUSH_SUBSCRIBE_TIMEOUT_S: intInRange('PUSH_SUBSCRIBE_TIMEOUT_S', 1, 300).default(20),
  WEBHOOK_RETRY_BASE_MS: intInRange('WEBHOOK_RETRY_BASE_MS', 10, 3_600_000).default(10_000),
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['off', 'on'], { error: "WEBHOOK_ALLOW_PRIVATE must be 'on' or 'off'" })
    .default('off'),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'SMTP_URL must be an smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z.string().min(3).default('Machine Platform <no-reply@localhost>'),
  APP_URL: z.url({ protocol: /^https?$/, error: 'APP_URL must be an http(s) URL' }).optional(),
  CLIENT_DIR: z.string().min(1, 'CLIENT_DIR must not be empty').optional(),
  DATABASE_URL: z
    .url({
      protocol: /^postgres(ql)?$/,
      error: 'DATABASE_URL must be a postgres:// or postgresql:// URL',
    })
    .optional(),
  TRUSTED_PROXIES: z
    .string()
    .regex(
      /^[0-9A-Fa-f:.]+(,[0-9A-Fa-f:.]+)*$/,
      'TRUSTED_PROXIES must be IP addresses separated by commas',
    )
    .optional(),
  ICE_SERVERS: z.string().max(8000).optional(),
  WEBAUTHN_RP_ID: z.string().max(253).optional(),
  WEBAUTHN_ORIGINS: z.string().max(4000).optional(),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'REDIS_URL must be a redis:// or rediss:// URL' })
    .optional(),
  HELPCENTER_HOST: z
    .string()
    .toLowerCase()
    .regex(
      /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/,
      'HELPCENTER_HOST must be a host name (help.example.com)',
    )
    .optional(),
  HELPCENTER_ACCOUNT: z
    .string()
    .regex(/^[0-9a-f-]{36}$/i, 'HELPCENTER_ACCOUNT must be an account id')
    .optional(),
  MAP_TILES_URL: z
    .url({ protocol: /^https?$/, error: 'MAP_TILES_URL must be an http(s) URL' })
    .refine(
      (url) => ['{z}', '{x}', '{y}'].every((part) => url.includes(part)),
      'MAP_TILES_URL must name the tile with {z}, {x} and {y}',
    )
    .optional(),
  SMS_URL: z.url({ protocol: /^https?$/, error: 'SMS_URL must be an http(s) URL' }).optional(),
  SMS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]+$/, 'SMS_TOKEN must be printable characters without spaces')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(
      /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/,
      'VAPID_SUBJECT must be a mailto: address or an https:// URL',
    )
    .optional(),
});

/** The built web client (`vite build` writes it; `npm start` builds it when it is missing). */
const DEFAULT_CLIENT_DIR = fileURLToPath(new URL('../../client/dist', import.meta.url));

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly seed: 'demo' | 'none';
  readonly logLevel: LogLevel;
  readonly tokenTtlMs: number;
  /** How long model updates stay in the log (mqttlogs); older asks are told to resync. */
  readonly logRetentionMs: number;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** Public address of the app, used in links sent by e-mail. */
  readonly appUrl: string;
  /** The built web client served at the origin (index.html for every app path). */
  readonly clientDir: string;
  /** Postgres instead of the SQLite file in dataDir (DESIGN.md §11); undefined: SQLite. */
  readonly databaseUrl: string | undefined;
  /**
   * Points a second one gateway may send, steadily (ingest's token bucket, gateways/batch-rate.ts;
   * over it, batches are deferred and the agent sends them again later).
   */
  readonly gatewayPointsPerSecond: number;
  /** Load balancers whose X-Forwarded-For names the client (rate limits per address). */
  readonly trustedProxies: readonly string[];
  /** Links this process with the others on the same Redis (DESIGN.md §11); undefined: alone. */
  readonly redisUrl: string | undefined;
  /**
   * The STUN/TURN servers browsers use for calls (issue 34; ICE_SERVERS, a JSON list as
   * RTCPeerConnection takes it); empty: the browsers' own addresses only (one network).
   */
  readonly iceServers: readonly IceServer[];
  /**
   * The pace of a cluster's liveness (DESIGN.md §11): each process renews its alive key every
   * heartbeat (the key lives three), the leader looks for gateways left online by a dead process
   * every two, and a process not leading tries the leader lock every one. So a dead process's
   * gateways go offline within five heartbeats (25 s at the default 5 s), a dead leader is replaced
   * within one. two-processes.test shortens it to 1 s; production keeps the default.
   */
  readonly clusterHeartbeatMs: number;
  /**
   * How often the cluster's leader looks for reports due (issue 31: mailed within 2 minutes of
   * their time; the default 15 s leaves the rest for making and sending). Tests shorten it.
   */
  readonly reportTickMs: number;
  /** How often the leader weighs dated tasks (issue 37): due within a tick of their time. */
  readonly taskTickMs: number;
  /**
   * How often each process writes the security events it counted (issue 38 item 1): the checks
   * are evaluated on every read, so an event moves its check within this time (at most 60 s).
   */
  readonly insightsEventsMs: number;
  /** How often the leader looks for security insights' daily snapshots and weekly digests. */
  readonly insightsTickMs: number;
  /**
   * Raster tiles (`https://…/{z}/{x}/{y}.png`) the asset map draws over its shipped base layer
   * for detail (/staticconf tells the client); undefined: the base layer alone.
   */
  readonly mapTilesUrl: string | undefined;
  /** HELPCENTER_HOST: requests for this host get the help centre's own page only (issue 33). */
  readonly helpcenterHost: string | undefined;
  /** HELPCENTER_ACCOUNT: whose help centre that host shows (else the first top-level account). */
  readonly helpcenterAccount: string | undefined;
  /**
   * The SMS provider's HTTP endpoint (POST `{ to, text }` with `Authorization: Bearer SMS_TOKEN`);
   * undefined: each SMS is appended to DATA_DIR/sms/outbox.jsonl and logged.
   */
  readonly smsUrl: string | undefined;
  readonly smsToken: string | undefined;
  /** The `sub` of web push's VAPID claims: how push services reach the operator. */
  readonly vapidSubject: string;
  /**
   * How long a browser waits for its push service to answer a subscription before it tells the
   * user that subscribing failed (GET push/key tells the browser).
   */
  readonly pushSubscribeTimeoutMs: number;
  /**
   * A webhook delivery's first retry comes this long after a failed try, each next one twice as
   * long after the last (integrations/webhook-sender.ts). Tests make it small.
   */
  readonly webhookRetryBaseMs: number;
  /**
   * Whether webhooks may post to private, loopback and other special addresses (the plant's own
   * network, the cloud's metadata service). Off by default: an integration is written by any
   * account's admin. Tests and a receiver inside the plant's network turn it on.
   */
  readonly webhookPrivateAddresses: boolean;
  /**
   * Passkeys' relying party (issue 38 item 2): WEBAUTHN_RP_ID (default APP_URL's host) and the
   * origins whose pages may use them, WEBAUTHN_ORIGINS (default APP_URL's; auth/relying-party.ts).
   */
  readonly webauthn: { readonly id: string; readonly origins: readonly string[] };
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The host part of the default APP_URL. A wildcard address is where the server listens, not an
 * address anyone can open: links then name localhost (set APP_URL for links that work elsewhere).
 */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** `mailto:` and the address in MAIL_FROM (`Name <address>` or a bare address), if it has one. */
function mailtoOf(mailFrom: string): string | undefined {
  const address = /<([^<>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return /^[^\s@<>]+@[^\s@<>]+$/.test(address) ? `mailto:${address}` : undefined;
}

/** Reads the environment. Empty values count as unset, so `PORT= npm start` uses the default. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .map((key) => [key, env[key]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  if (e.REDIS_URL !== undefined && e.DATABASE_URL === undefined) {
    // Processes linked by Redis must share one database: SQLite files are each process's own.
    throw new ConfigError(['REDIS_URL: REDIS_URL needs DATABASE_URL (processes share Postgres)']);
  }
  const problems: string[] = [];
  if (e.SMS_URL !== undefined && e.SMS_TOKEN === undefined) {
    problems.push("SMS_TOKEN: SMS_URL needs SMS_TOKEN (the provider's bearer token)");
  }
  if (e.SMS_URL === undefined && e.SMS_TOKEN !== undefined) {
    // Likely a typo in SMS_URL's name: without it, SMS would only be written to a file.
    problems.push('SMS_URL: SMS_TOKEN is set but SMS_URL is not');
  }
  const vapidSubject = e.VAPID_SUBJECT ?? mailtoOf(e.MAIL_FROM);
  if (vapidSubject === undefined) {
    problems.push('VAPID_SUBJECT: MAIL_FROM names no address, so VAPID_SUBJECT must be set');
  }
  const iceServers = parseIceServers(e.ICE_SERVERS);
  if (iceServers === undefined) {
    problems.push(
      'ICE_SERVERS: must be a JSON list like [{"urls":"turn:turn.example.com:3478","username":"u","credential":"p"}]',
    );
  }
  const appUrl = (e.APP_URL ?? `http://${urlHost(e.HOST)}:${e.PORT}`).replace(/\/+$/, '');
  const webauthn = parseRelyingParty(e.WEBAUTHN_RP_ID, e.WEBAUTHN_ORIGINS, appUrl);
  if ('problems' in webauthn) problems.push(...webauthn.problems);
  if (
    problems.length > 0 ||
    vapidSubject === undefined ||
    iceServers === undefined ||
    'problems' in webauthn
  )
    throw new ConfigError(problems);
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    seed: e.SEED,
    logLevel: e.LOG_LEVEL,
    tokenTtlMs: e.TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000,
    logRetentionMs: e.LOG_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    gatewayPointsPerSecond: e.GATEWAY_POINTS_PER_S,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    appUrl,
    clientDir: path.resolve(e.CLIENT_DIR ?? DEFAULT_CLIENT_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    clusterHeartbeatMs: e.CLUSTER_HEARTBEAT_MS,
    reportTickMs: e.REPORT_TICK_MS,
    taskTickMs: e.TASK_TICK_MS,
    insightsEventsMs: e.INSIGHTS_EVENTS_MS,
    insightsTickMs: e.INSIGHTS_TICK_MS,
    mapTilesUrl: e.MAP_TILES_URL,
    helpcenterHost: e.HELPCENTER_HOST,
    helpcenterAccount: e.HELPCENTER_ACCOUNT,
    smsUrl: e.SMS_URL,
    smsToken: e.SMS_TOKEN,
    vapidSubject,
    pushSubscribeTimeoutMs: e.PUSH_SUBSCRIBE_TIMEOUT_S * 1000,
    webhookRetryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
    webhookPrivateAddresses: e.WEBHOOK_ALLOW_PRIVATE === 'on',
    trustedProxies: (e.TRUSTED_PROXIES ?? '').split(',').filter((x) => x !== ''),
    iceServers,
    webauthn: webauthn.relyingParty,
  });
}

/** ICE_SERVERS as RTCPeerConnection's list; undefined when it is not one. */
function parseIceServers(raw: string | undefined): IceServer[] | undefined {
  if (raw === undefined || raw.trim() === '') return [];
  try {
    const parsed = iceServersSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
