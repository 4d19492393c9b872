import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from './db/database';
import { DEMO_PASSWORD, DEMO_USERS } from './seed/demo';
import { readDemoAgentKeys } from './seed/demo-agents';
import { startServerProcess, type ServerProcess } from './testing/server-process';
import { testDatabase, testsOnPostgres, type TestDatabase } from './testing/test-database';

const databases: TestDatabase[] = [];
const started: ServerProcess[] = [];
afterEach(async () => {
  // A test that failed midway leaves its process running: ended before its database goes.
  for (const p of started.splice(0)) {
    if (p.child.exitCode === null) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  }
  for (const database of databases.splice(0)) await database.remove();
});

/**
 * The real entry point as `npm start` runs it, in a child process; on the project's database
 * (in `server-postgres`, DATABASE_URL names a new Postgres database).
 */
async function start(env: Record<string, string>, database?: TestDatabase): Promise<ServerProcess> {
  const url = database?.databaseUrl;
  const p = await startServerProcess({
    ...env,
    ...(url === undefined ? {} : { DATABASE_URL: url }),
  });
  started.push(p);
  return p;
}

/** A new empty database and a folder for it (the folder is where SQLite keeps it). */
async function newDatabase(): Promise<TestDatabase> {
  const database = await testDatabase();
  databases.push(database);
  return database;
}

// Each test starts whole processes (the bundled main.ts, migrations, the demo seed: on Postgres,
// up to 20 s each on a busy machine; server-process.ts waits 60 s for one), two in a row in one
// test.
describe('the server process', { timeout: 120_000 }, () => {
  it('fails fast on a bad value, saying which, before touching DATA_DIR', async () => {
    const dataDir = path.join(os.tmpdir(), `plant-never-${process.pid}-${Date.now()}`);
    const p = await start({ PORT: 'not-a-port', DATA_DIR: dataDir });
    expect(await p.exited).toBe(1);
    expect(p.errors()).toContain('PORT: PORT must be a whole number');
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('starts, migrates and seeds into DATA_DIR, serves, and stops cleanly on SIGTERM', async () => {
    const database = await newDatabase();
    const dataDir = database.dataDir;
    const p = await start({ PORT: '0', DATA_DIR: dataDir }, database);
    const url = await p.listening();
    const res = await fetch(`${url}/staticconf`);
    expect(res.status).toBe(200);
    const conf1 = (await res.json()) as { client_id: string };
    const sqlite = !testsOnPostgres();
    if (sqlite) expect(fs.existsSync(path.join(dataDir, `${DATABASE_FILE}-wal`))).toBe(true);

    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('"msg":"server stopped"');
    // The database was closed properly: SQLite folded the WAL back into the file and removed it.
    if (sqlite) expect(fs.existsSync(path.join(dataDir, `${DATABASE_FILE}-wal`))).toBe(false);
    expect(p.output()).toContain('demo data seeded');

    // A second start keeps the data: no second seeding, the same first-party client.
    const again = await start({ PORT: '0', DATA_DIR: dataDir }, database);
    const url2 = await again.listening();
    const conf2 = (await (await fetch(`${url2}/staticconf`)).json()) as { client_id: string };
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(again.output()).not.toContain('demo data seeded');
    expect(conf2.client_id).toBe(conf1.client_id);
  });

  it("makes a DATA_DIR that does not exist yet (on Postgres no database file makes it) and seeds the demo, its agents' keys in it", async () => {
    const database = await newDatabase();
    const dataDir = path.join(database.dataDir, 'not', 'yet');
    const p = await start({ PORT: '0', DATA_DIR: dataDir, SEED: 'demo' }, database);
    const url = await p.listening();
    expect(p.output()).toContain('demo data seeded');
    expect(readDemoAgentKeys(dataDir).length).toBeGreaterThan(0);
    const conf = (await (await fetch(`${url}/staticconf`)).json()) as { client_id: string };
    const res = await fetch(`${url}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        client_id: conf.client_id,
        username: DEMO_USERS.admin,
        password: DEMO_PASSWORD,
      }),
    });
    expect(res.status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('SEED=none starts empty: nobody can sign in', async () => {
    const database = await newDatabase();
    const p = await start({ PORT: '0', DATA_DIR: database.dataDir, SEED: 'none' }, database);
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
