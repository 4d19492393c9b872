import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './local-postgres';

/**
 * A throwaway Redis for tests and benches (issue 14): Debian's `redis-server` on a free loopback
 * port, in a temp folder, without persistence; stopped and removed after.
 */
export interface LocalRedis {
  /** redis://127.0.0.1:port */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export const REDIS_SERVER = '/usr/bin/redis-server';

export function redisInstalled(): boolean {
  return (
    fs.existsSync(REDIS_SERVER) &&
    spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0
  );
}

/** Resolves once something accepts TCP connections on the port (or rejects after `limitMs`). */
function listening(port: number, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > end) reject(new Error(`nothing listens on port ${port}`));
        else setTimeout(attempt, 20);
      });
    };
    attempt();
  });
}

export async function startLocalRedis(): Promise<LocalRedis> {
  if (!redisInstalled()) {
    throw new Error("Redis is not installed: run `apt-get install -y redis-server` (Debian's).");
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-redis-'));
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'yes',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const up = await Promise.race([
      listening(port, 30_000).then(() => true),
      exited.then(() => false),
    ]);
    if (!up) {
      if (attempt < 3) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error('redis-server did not start');
    }
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      stop: async () => {
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          await exited;
        }
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}
