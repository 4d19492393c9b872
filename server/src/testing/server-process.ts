import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { bundledEntry } from './bundled-entry';

/** The real entry point as `npm start` runs it (from a bundle of it: bundled-entry.ts). */
const MAIN = path.resolve(import.meta.dirname, '..', 'main.ts');

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  /** The URL it listens on, once its log says so (fails if it exits first). */
  listening(): Promise<string>;
  output(): string;
  errors(): string;
}

/** Starts the server in a child process with this environment added to the test's own. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [await bundledEntry(MAIN)], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = async (): Promise<string> => {
    // Waits for the line, not for a time: up to 60 s on a busy machine.
    for (let i = 0; i < 1200; i++) {
      const m = /"msg":"server listening","url":"([^"]+)"/.exec(out);
      if (m?.[1]) return m[1];
      if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`server did not start: ${out}${err}`);
  };
  return { child, exited, listening, output: () => out, errors: () => err };
}
