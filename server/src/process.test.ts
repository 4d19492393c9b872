import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from './db/database';
import { startServerProcess } from './testing/server-process';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The real entry point as `npm start` runs it, in a child process. */
const start = startServerProcess;

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
