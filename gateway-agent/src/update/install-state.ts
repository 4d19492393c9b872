import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/*
 * What the launcher (launcher.ts) and the agent share on the disk about installed versions
 * (DESIGN.md §15): `<data>/versions/state.json`. The launcher starts `current` (none: the agent it
 * was installed with); an agent that installed a new version writes it as `current` on `trial`,
 * the one it ran as `previous`, and asks for a restart (exit code RESTART_CODE); the new version,
 * once healthy, ends the trial. A version that stops or stays unhealthy during its trial is rolled
 * back by the launcher: `previous` runs again and reports `rolled_back`.
 */

/** The agent's exit code that asks its launcher to start `current` (EX_TEMPFAIL). */
export const RESTART_CODE = 75;

const installedSchema = z.object({ version: z.string(), entry: z.string() });
export type Installed = z.infer<typeof installedSchema>;

export const installStateSchema = z.object({
  current: installedSchema.nullable().default(null),
  previous: installedSchema.nullable().default(null),
  /** The version on trial since it was installed: healthy ends it, else it is rolled back. */
  trial: z
    .object({ deployment_id: z.string(), version: z.string(), since: z.number() })
    .nullable()
    .default(null),
  /** A rollout's outcome the running version still reports (its words). */
  outcome: z
    .object({
      deployment_id: z.string(),
      state: z.enum(['failed', 'rolled_back']),
      message: z.string(),
    })
    .nullable()
    .default(null),
  /** Rollouts that failed here: never tried again. */
  failed: z.array(z.string()).max(100).default([]),
});
export type InstallState = z.infer<typeof installStateSchema>;

export function versionsDir(dataDir: string): string {
  return path.join(dataDir, 'versions');
}

function stateFile(dataDir: string): string {
  return path.join(versionsDir(dataDir), 'state.json');
}

/** The state as on the disk (an unreadable file counts as none: the built-in version runs). */
export function readInstallState(dataDir: string): InstallState {
  try {
    return installStateSchema.parse(JSON.parse(fs.readFileSync(stateFile(dataDir), 'utf8')));
  } catch {
    return installStateSchema.parse({});
  }
}

/** Written whole, then renamed: never half a state. */
export function writeInstallState(dataDir: string, state: InstallState): void {
  fs.mkdirSync(versionsDir(dataDir), { recursive: true });
  const file = stateFile(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
  fs.renameSync(tmp, file);
}
