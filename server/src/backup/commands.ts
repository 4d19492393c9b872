import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config';
import { runBackup, type BackupProgress } from './backup';
import { BackupError } from './backup-manifest';
import { runRestore, type RestoreProgress } from './restore';

/*
 * The two commands of DESIGN.md §16, `npm run backup -- --out DIR` and `npm run restore -- --from
 * DIR [--force]` (scripts/backup.ts, scripts/restore.ts): DATA_DIR and DATABASE_URL are read as
 * `npm start` reads them (loadConfig). Progress lines on stdout, problems on stderr; exit 0 done,
 * 1 refused or failed, 2 the command was not written right.
 */

export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

export const processOutput: CommandOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

const BACKUP_USAGE = 'usage: npm run backup -- --out DIR   (DIR: a new or empty folder)';
const RESTORE_USAGE = 'usage: npm run restore -- --from DIR [--force]';

/** Lines for the progress events: each step at once, a running step at most once a second. */
function progressPrinter(
  name: string,
  output: CommandOutput,
  now: () => number = Date.now,
): (event: BackupProgress | RestoreProgress) => void {
  let stage = '';
  let lastAt = 0;
  return (event) => {
    if (event.stage === 'warning') {
      output.err(`${name}: warning: ${event.message}`);
      return;
    }
    const t = now();
    const finished = event.fraction === undefined || event.fraction >= 1;
    if (event.stage !== stage || finished || t - lastAt >= 1000) {
      output.out(`${name}: ${event.message}`);
      stage = event.stage;
      lastAt = t;
    }
  };
}

/** A folder named on the command line: relative to where npm was run (INIT_CWD), not the root. */
function folderArg(value: string, env: NodeJS.ProcessEnv): string {
  return path.resolve(env.INIT_CWD ?? process.cwd(), value);
}

type Parsed<T> = { ok: true; values: T } | { ok: false; message: string };

function parse<T>(argv: readonly string[], options: Parameters<typeof parseArgs>[0]): Parsed<T> {
  try {
    return { ok: true, values: parseArgs({ ...options, args: [...argv] }).values as T };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

function configOf(env: NodeJS.ProcessEnv, output: CommandOutput): Config | undefined {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    output.err(err.message);
    return undefined;
  }
}

/** What a failure says: a BackupError its message, anything else its stack. */
function failure(name: string, err: unknown, output: CommandOutput): number {
  const text =
    err instanceof BackupError
      ? err.message
      : err instanceof Error
        ? (err.stack ?? err.message)
        : String(err);
  output.err(`${name} failed: ${text}`);
  return 1;
}

/** `npm run backup -- --out DIR`; answers the exit code. */
export async function backupCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  output: CommandOutput = processOutput,
): Promise<number> {
  const parsed = parse<{ out?: string }>(argv, {
    options: { out: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  if (!parsed.ok || parsed.values.out === undefined || parsed.values.out === '') {
    output.err(parsed.ok ? 'backup: --out DIR is missing' : `backup: ${parsed.message}`);
    output.err(BACKUP_USAGE);
    return 2;
  }
  const config = configOf(env, output);
  if (config === undefined) return 1;
  try {
    await runBackup({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      out: folderArg(parsed.values.out, env),
      progress: progressPrinter('backup', output),
    });
    return 0;
  } catch (err) {
    return failure('backup', err, output);
  }
}

/** Where this configuration's server would answer on this machine (a wildcard: loopback). */
function localServerUrl(config: Config): string | undefined {
  if (config.port === 0) return undefined;
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** `npm run restore -- --from DIR [--force]`; answers the exit code. */
export async function restoreCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  output: CommandOutput = processOutput,
): Promise<number> {
  const parsed = parse<{ from?: string; force?: boolean }>(argv, {
    options: { from: { type: 'string' }, force: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  if (!parsed.ok || parsed.values.from === undefined || parsed.values.from === '') {
    output.err(parsed.ok ? 'restore: --from DIR is missing' : `restore: ${parsed.message}`);
    output.err(RESTORE_USAGE);
    return 2;
  }
  const config = configOf(env, output);
  if (config === undefined) return 1;
  const serverUrl = localServerUrl(config);
  try {
    await runRestore({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      from: folderArg(parsed.values.from, env),
      force: parsed.values.force === true,
      ...(serverUrl === undefined ? {} : { serverUrl }),
      progress: progressPrinter('restore', output),
    });
    return 0;
  } catch (err) {
    return failure('restore', err, output);
  }
}
