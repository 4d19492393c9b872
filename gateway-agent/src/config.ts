import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { idField } from '@plant/shared-schema';
import { LOG_LEVELS, type LogLevel } from './logger';

/** A bad command line or config file: every problem, one per line. */
export class AgentConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`The gateway agent cannot start:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'AgentConfigError';
  }
}

const schema = z.object({
  server: z
    .url({ protocol: /^(https?|wss?)$/, error: 'server must be an http(s):// or ws(s):// URL' })
    .transform((u) => u.replace(/\/+$/, '')),
  gateway: idField.describe('gateway'),
  key: z.string().min(16, 'key must be the secret made on the gateway page'),
  data: z.string().min(1).default('./gateway-data'),
  log_level: z.enum(LOG_LEVELS).default('info'),
  /** Points kept while the server cannot be reached; default: a week at the agent's rate. */
  buffer_max_points: z.coerce.number().int().min(1_000).max(500_000_000).optional(),
  /** Points per batch sent to the server. */
  batch_points: z.coerce.number().int().min(1).max(5_000).default(1_000),
});

/** The agent's configuration, parsed once at start. */
export interface AgentConfig {
  /** The broker's WebSocket address (`…/mqtt` on the server's port). */
  readonly brokerUrl: string;
  readonly gatewayId: string;
  readonly key: string;
  readonly dataDir: string;
  readonly logLevel: LogLevel;
  readonly bufferMaxPoints: number | undefined;
  readonly batchPoints: number;
}

const USAGE =
  'usage: npm run gateway -- --server <url> --gateway <id> --key <secret> [--data <dir>] [--log-level info] [--buffer-max-points N] | --config <file.json>';

/**
 * From the command line (`--server --gateway --key`, or `--config file.json` with the same keys,
 * snake_case), with GATEWAY_* environment variables as fallbacks (GATEWAY_SERVER, GATEWAY_ID,
 * GATEWAY_KEY, GATEWAY_DATA, LOG_LEVEL): a key on the command line shows in the process list, the
 * environment or a file of mode 600 does not.
 */
export function parseAgentConfig(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): AgentConfig {
  let args;
  try {
    args = parseArgs({
      args: [...argv],
      options: {
        server: { type: 'string' },
        gateway: { type: 'string' },
        key: { type: 'string' },
        data: { type: 'string' },
        'log-level': { type: 'string' },
        'buffer-max-points': { type: 'string' },
        'batch-points': { type: 'string' },
        config: { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (err) {
    throw new AgentConfigError([err instanceof Error ? err.message : String(err), USAGE]);
  }
  let file: Record<string, unknown> = {};
  if (args.config !== undefined) {
    try {
      file = JSON.parse(fs.readFileSync(args.config, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new AgentConfigError([`config file ${args.config}: ${String(err)}`]);
    }
  }
  const raw = {
    server: args.server ?? file.server ?? env.GATEWAY_SERVER,
    gateway: args.gateway ?? file.gateway ?? env.GATEWAY_ID,
    key: args.key ?? file.key ?? env.GATEWAY_KEY,
    data: args.data ?? file.data ?? env.GATEWAY_DATA,
    log_level: args['log-level'] ?? file.log_level ?? env.LOG_LEVEL,
    buffer_max_points: args['buffer-max-points'] ?? file.buffer_max_points,
    batch_points: args['batch-points'] ?? file.batch_points,
  };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new AgentConfigError([
      ...parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`),
      USAGE,
    ]);
  }
  const c = parsed.data;
  return Object.freeze({
    brokerUrl: brokerUrlOf(c.server),
    gatewayId: c.gateway,
    key: c.key,
    dataDir: c.data,
    logLevel: c.log_level,
    bufferMaxPoints: c.buffer_max_points,
    batchPoints: c.batch_points,
  });
}

/** http://host:3000 -> ws://host:3000/mqtt (the server's broker over WebSocket). */
export function brokerUrlOf(server: string): string {
  const url = new URL(server);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/mqtt';
  return url.toString();
}
