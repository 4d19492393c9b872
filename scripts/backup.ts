/**
 * `npm run backup -- --out DIR` (DESIGN.md §16): a consistent copy of DATA_DIR, and of the
 * Postgres database when DATABASE_URL is set, while the server runs (server/src/backup/). Reads
 * DATA_DIR and DATABASE_URL as `npm start` does.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { backupCommand } from '../server/src/backup/commands';

/** Set in the copy of this program that does the work, at the lower priority. */
const LOWERED = 'PLANT_BACKUP_LOWERED';

if (process.env[LOWERED] === '1') {
  process.exitCode = await backupCommand(process.argv.slice(2), process.env);
} else {
  // The running server comes first: the backup gets the CPU the server leaves. It runs in a
  // process started from a lowered thread, because on Linux a priority set in a running process
  // lowers only the thread that sets it, and Node's thread pool (every read and write of the copy,
  // and its hashing) was already running at the normal priority. pg_dump inherits it too.
  try {
    os.setPriority(os.constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not allowed here: the backup runs at the normal priority.
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [LOWERED]: '1' },
  });
  // Ctrl-C reaches both (one process group); a SIGTERM sent to this one is passed on.
  process.once('SIGTERM', () => child.kill('SIGTERM'));
  process.exitCode = await new Promise<number>((resolve) => {
    child.once('exit', (code) => resolve(code ?? 1));
    child.once('error', () => resolve(1));
  });
}
