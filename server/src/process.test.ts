import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from './db/database';

/** The real entry point as `npm start` runs it, in a child process. */
const MAIN = path.resolve(import.meta.dirname, 'main.ts');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = async (): Promise<string> => {
    for (let i = 0; i < 300; i++) {
      const m = /"msg":"server listening","url":"([^"]+)"/.exec(out);
      if (m?.[1]) return m[1];
      if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`server did not start: ${out}${err}`);
  };
  return { child, exited, listening, output: () => out, errors: () => err };
}

describe('the server process', () => {
  it('fails fast on a bad value, saying which, before touching DATA_DIR', async () => {
    const dataDir = path.join(os.tmpdir(), `plant-never-${process.pid}-${Date.now()}`);
    const p = start({ PORT: 'not-a-port', DATA_DIR: dataDir });
    expect(await p.exited).toBe(1);
    expect(p.errors()).toContain('PORT: PORT must be a whole number');
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('starts, migrates and seeds into DATA_DIR, serves, and stops cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-proc-'));
    dirs.push(dataDir);
    const p = start({ PORT: '0', DATA_DIR: dataDir });
    const url = await p.listening();
    const res = await fetch(`${url}/staticconf`);
    expect(res.status).toBe(200);
    const conf1 = (await res.json()) as { client_id: string };
    expect(fs.existsSync(path.join(dataDir, `${DATABASE_FILE}-wal`))).toBe(true);

    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('"msg":"server stopped"');
    // The database was closed properly: SQLite folded the WAL back into the file and removed it.
    expect(fs.existsSync(path.join(dataDir, `${DATABASE_FILE}-wal`))).toBe(false);
    expect(p.output()).toContain('demo data seeded');

    // A second start keeps the data: no second seeding, the same first-party client.
    const again = start({ PORT: '0', DATA_DIR: dataDir });
    const url2 = await again.listening();
    const conf2 = (await (await fetch(`${url2}/staticconf`)).json()) as { client_id: string };
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(again.output()).not.toContain('demo data seeded');
    expect(conf2.client_id).toBe(conf1.client_id);
  });

  it('SEED=none starts empty: nobody can sign in', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-proc-'));
    dirs.push(dataDir);
    const p = start({ PORT: '0', DATA_DIR: dataDir, SEED: 'none' });
    const url = await p.listening();
    const conf = (await (await fetch(`${url}/staticconf`)).json()) as { client_id: string };
    const res = await fetch(`${url}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        client_id: conf.client_id,
        username: 'admin@demo.local',
        password: 'demo-pass-1',
      }),
    });
    expect(res.status).toBe(401);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });
});
