import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { idField } from '@plant/shared-schema';
import { LOG_LEVELS, type LogLevel } from './logger';

const USAGE =
  'usage: npm run gateway -- --server <url> --gateway <id> --key <secret> [--data <dir>] [--log-level info] [--buffer-max-points N] [--batch-points N] | --config <file.json>';

/**
 * A bad command line or config file. Its message is one line naming every problem (and the usage
 * when the command line is at fault): what the process prints before it exits with 1. It never
 * holds the key or the config file's text.
 */
export class AgentConfigError extends Error {
  constructor(
    readonly problems: readonly string[],
    usage = true,
  ) {
    super(`The gateway agent cannot start: ${problems.join('; ')}${usage ? ` (${USAGE})` : ''}`);
    this.name = 'AgentConfigError';
  }
}

const schema = z.object({
  server: z
    .url({ protocol: /^(https?|wss?)$/, error: 'must be an http(s):// or ws(s):// URL' })
    .transform((u) => u.replace(/\/+$/, '')),
  gateway: idField.describe('gateway'),
  key: z.string().min(16, 'must be the key made on the gateway page (it is shown once there)'),
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
  /** The server's HTTP origin and path (a rollout's downloads); default: the broker's. */
  readonly serverUrl?: string;
  readonly gatewayId: string;
  readonly key: string;
  readonly dataDir: string;
  readonly logLevel: LogLevel;
  readonly bufferMaxPoints: number | undefined;
  readonly batchPoints: number;
}

/**
 * The settings: each a key of the config file (snake_case), a flag, and maybe an environment
 * variable; a flag wins over the file, the file over the environment.
 */
const FIELDS = {
  server: { flag: 'server', env: 'GATEWAY_SERVER', required: true },
  gateway: { flag: 'gateway', env: 'GATEWAY_ID', required: true },
  key: { flag: 'key', env: 'GATEWAY_KEY', required: true },
  data: { flag: 'data', env: 'GATEWAY_DATA', required: false },
  log_level: { flag: 'log-level', env: 'LOG_LEVEL', required: false },
  buffer_max_points: { flag: 'buffer-max-points', env: undefined, required: false },
  batch_points: { flag: 'batch-points', env: undefined, required: false },
} as const;
type Field = keyof typeof FIELDS;
const FIELD_NAMES = Object.keys(FIELDS) as Field[];

/**
 * A config file: a JSON object with the keys of FIELDS, nothing else. Its text never goes into
 * a message (it holds the key): a JSON error says where, not what.
 */
function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'not allowed to read it'
          : code === 'EISDIR'
            ? 'a folder, not a file'
            : String(code ?? err);
    throw new AgentConfigError([`config file ${file} cannot be read (${why})`], false);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const at = /at position (\d+)/.exec(err instanceof Error ? err.message : '')?.[1];
    throw new AgentConfigError(
      [`config file ${file} is not valid JSON${at === undefined ? '' : ` (at character ${at})`}`],
      false,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AgentConfigError(
      [`config file ${file} must hold a JSON object ({"server": …, "gateway": …, "key": …})`],
      false,
    );
  }
  const unknown = Object.keys(parsed).filter((k) => !Object.hasOwn(FIELDS, k));
  if (unknown.length > 0) {
    throw new AgentConfigError(
      [
        `config file ${file}: unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: ${FIELD_NAMES.join(', ')})`,
      ],
      false,
    );
  }
  return parsed as Record<string, unknown>;
}

const OPTIONS = {
  server: { type: 'string' },
  gateway: { type: 'string' },
  key: { type: 'string' },
  data: { type: 'string' },
  'log-level': { type: 'string' },
  'buffer-max-points': { type: 'string' },
  'batch-points': { type: 'string' },
  config: { type: 'string' },
} as const;

/**
 * A gateway key is base64url, so one in 64 begins with a dash: `--key -Xy…` would be refused by
 * parseArgs as ambiguous. Every option here takes a value, so the word after one is its value
 * unless it is itself one of our options: such pairs become `--key=-Xy…`.
 */
function joinDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (
      name !== undefined &&
      Object.hasOwn(OPTIONS, name) &&
      next !== undefined &&
      next.startsWith('-') &&
      !(next.startsWith('--') && Object.hasOwn(OPTIONS, next.slice(2).split('=')[0]!))
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * From the command line (`--server --gateway --key`, or `--config file.json` with the same keys,
 * snake_case), with GATEWAY_* environment variables as fallbacks (GATEWAY_SERVER, GATEWAY_ID,
 * GATEWAY_KEY, GATEWAY_DATA, LOG_LEVEL): a key on the command line shows in the process list, the
 * environment or a file of mode 600 does not. A flag wins over the file, the file over the
 * environment. Throws AgentConfigError (one line, every problem) for anything wrong.
 */
export function parseAgentConfig(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): AgentConfig {
  let args;
  try {
    args = parseArgs({ args: joinDashValues(argv), options: OPTIONS, strict: true }).values;
  } catch (err) {
    throw new AgentConfigError([err instanceof Error ? err.message : String(err)]);
  }
  const file = args.config === undefined ? {} : readConfigFile(args.config);
  const raw: Partial<Record<Field, unknown>> = {};
  /** Where each value came from, for messages. */
  const from: Partial<Record<Field, string>> = {};
  const problems: string[] = [];
  for (const name of FIELD_NAMES) {
    const { flag, env: envName, required } = FIELDS[name];
    if (args[flag] !== undefined) {
      raw[name] = args[flag];
      from[name] = `--${flag}`;
    } else if (file[name] !== undefined) {
      raw[name] = file[name];
      from[name] = `"${name}" in ${args.config ?? 'the config file'}`;
    } else if (envName !== undefined && env[envName] !== undefined) {
      raw[name] = env[envName];
      from[name] = envName;
    } else if (required) {
      problems.push(
        `--${flag} is missing (give --${flag}, "${name}" in a config file, or ${envName})`,
      );
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = issue.path[0] as Field;
      if (raw[name] === undefined && FIELDS[name]?.required) continue; // said above
      problems.push(`${from[name] ?? name}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) throw new AgentConfigError(problems);
  const c = parsed.data;
  return Object.freeze({
    brokerUrl: brokerUrlOf(c.server),
    serverUrl: serverUrlOf(c.server),
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

/** ws://host:3000/mqtt or http://host:3000 -> http://host:3000 (the server's API origin). */
export function serverUrlOf(server: string): string {
  const url = new URL(server);
  if (url.protocol === 'ws:') url.protocol = 'http:';
  if (url.protocol === 'wss:') url.protocol = 'https:';
  if (url.pathname.endsWith('/mqtt')) url.pathname = url.pathname.slice(0, -'/mqtt'.length);
  return url.toString().replace(/\/+$/, '');
}
