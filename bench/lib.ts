import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

export interface Child {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts a TypeScript entry in its own process (so that load generator and server do not share
 * a core's event loop) and waits for the line that carries its URL.
 */
export async function startChild(
  entry: string,
  env: Record<string, string>,
  urlPattern: RegExp,
): Promise<Child> {
  // BENCH_PROF=<folder>: the child writes a CPU profile there (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`]
    : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = urlPattern.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${out}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface Load {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
}

export async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  options: { connections?: number; method?: 'GET' | 'POST'; body?: string } = {},
): Promise<Load> {
  const result = await autocannon({
    url,
    headers,
    connections: options.connections ?? 16,
    duration: seconds,
    ...(options.method === undefined ? {} : { method: options.method }),
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Signs in as the demo admin; answers the headers for API calls and the active account id. */
export function signInDemoAdmin(origin: string) {
  return signInDemo(origin, 'admin@demo.local');
}

/** Signs a demo user in (password grant): its API headers and its active account. */
export async function signInDemo(origin: string, email: string) {
  const conf = (await (await fetch(`${origin}/staticconf`)).json()) as { client_id: string };
  const tokenRes = await fetch(`${origin}/api/v1/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      client_id: conf.client_id,
      username: email,
      password: 'demo-pass-1',
    }),
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const headers = {
    Authorization: `Bearer ${access_token}`,
    'X-Requested-With': 'XMLHttpRequest',
    'Content-Type': 'application/json',
  };
  const me = (await (await fetch(`${origin}/api/v1/user`, { headers })).json()) as {
    data: { account: string };
  };
  return { headers, account: me.data.account };
}
