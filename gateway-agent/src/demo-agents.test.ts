import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths, type LatestValues, type SyncedModel } from '@plant/shared-schema';
import { DEMO_USERS } from '../../server/src/seed/demo';

/*
 * `npm start` as a new user runs it (scripts/start.ts, with a prebuilt-client folder so that no
 * vite build runs): the demo gateways' agents start beside the server, connect through the
 * broker with their own credentials, and every demo machine's streams get values; SIGTERM stops
 * server and agents cleanly.
 */
const START = path.resolve(import.meta.dirname, '../../scripts/start.ts');
const dirs: string[] = [];
let child: ReturnType<typeof spawn>;
let out = '';
let origin = '';
const WAIT = { timeout: 50_000, interval: 100 };

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-start-'));
  const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-client-'));
  dirs.push(dataDir, clientDir);
  child = spawn(process.execPath, ['--import', 'tsx', START], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, CLIENT_DIR: clientDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  origin = await vi.waitFor(() => {
    const url = /"msg":"server listening","url":"([^"]+)"/.exec(out)?.[1];
    if (url === undefined) throw new Error(`not listening yet: ${out}`);
    return url;
  }, WAIT);
});
afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function signIn(): Promise<Record<string, string>> {
  const conf = (await (await fetch(`${origin}/staticconf`)).json()) as { client_id: string };
  const res = await fetch(`${origin}/api/v1/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      client_id: conf.client_id,
      username: DEMO_USERS.admin,
      password: 'demo-pass-1',
    }),
  });
  expect(res.status).toBe(200);
  const { access_token } = (await res.json()) as { access_token: string };
  return { Authorization: `Bearer ${access_token}`, 'X-Requested-With': 'XMLHttpRequest' };
}

async function get<T>(headers: Record<string, string>, apiPath: string): Promise<T> {
  const res = await fetch(`${origin}/api/v1/${apiPath}`, { headers });
  expect(res.status, apiPath).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

describe('npm start', () => {
  it("runs the demo gateways' agents: every demo machine's streams get values", async () => {
    await expect.poll(() => out, WAIT).toContain('"msg":"demo gateway agents started"');
    const headers = await signIn();
    const { models } = await get<{ models: SyncedModel[] }>(
      headers,
      apiPaths.snapshot(undefined, 2000),
    );
    const machines = models.filter((m) => m.type === 'asset' && m.attributes.gateway_id !== null);
    expect(machines.length).toBeGreaterThan(0);
    for (const machine of machines) {
      const streams = models
        .filter((m) => m.type === 'datastream' && m.attributes.asset_id === machine.id)
        .map((m) => m.id)
        .sort();
      expect(streams.length, String(machine.attributes.name)).toBeGreaterThan(0);
      await expect
        .poll(
          async () =>
            (await get<LatestValues>(headers, apiPaths.latestValues(machine.id)))
              .map((v) => v.stream)
              .sort(),
          WAIT,
        )
        .toEqual(streams);
    }
    // The machines' gateways show online, through the broker like a plant's.
    const gateways = new Set(machines.map((m) => m.attributes.gateway_id));
    await expect
      .poll(async () => {
        const now = await get<{ models: SyncedModel[] }>(
          headers,
          apiPaths.snapshot(undefined, 2000),
        );
        return now.models
          .filter((m) => m.type === 'gateway' && gateways.has(m.id))
          .map((m) => m.attributes.connection);
      }, WAIT)
      .toEqual([...gateways].map(() => 'online'));
  });

  it('stops the server and the agents on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('"msg":"server stopped"');
  });
});
