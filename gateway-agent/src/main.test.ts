import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type GatewayAttributes, type StreamValues } from '@plant/shared-schema';
import { DEMO_USERS } from '../../server/src/seed/demo';
import { demoGateway, makeGatewayCredentials } from '../../server/src/testing/gateway-client';
import { bundledEntry } from '../../server/src/testing/bundled-entry';
import { dataOf, startTestServer, type TestServer } from '../../server/src/testing/harness';

/*
 * The gateway agent as a user runs it (`npm run gateway -- …`): the real program in a child
 * process against the real server. It logs JSON lines, brings its gateway online and its
 * simulator's values into the store, stops cleanly on SIGTERM, and refuses bad input at once
 * with one line saying what is wrong. Its key never shows in its log.
 */
const MAIN = path.resolve(import.meta.dirname, 'main.ts');
/**
 * A child program starts slowly on a machine busy with a full run (the protocol libraries load):
 * once it was not online within 50 s beside two browser tests (under tsx then).
 */
const WAIT = { timeout: 120_000, interval: 100 };
/** A test that starts the program and waits for it several times. */
const PROGRAM_TEST_MS = 300_000;
/** The settings the program also reads from the environment: the tests give them explicitly. */
const AGENT_ENV = ['GATEWAY_SERVER', 'GATEWAY_ID', 'GATEWAY_KEY', 'GATEWAY_DATA', 'LOG_LEVEL'];

/** main.ts as one file, run with plain node (bundled-entry.ts: tsx's loading cost each start). */
let program: string;
let server: TestServer;
let admin: string;
let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;
const children: ChildProcess[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  program = await bundledEntry(MAIN);
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
  ids = await server.demoAccountIds();
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await closed;
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => {
  await server.close();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-agent-main-'));
  dirs.push(dir);
  return dir;
}

interface LogLine {
  readonly time: string;
  readonly level: string;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** The program, started as `npm run gateway -- ARGS` starts it (from its bundle). */
function runAgent(args: readonly string[]) {
  const env = { ...process.env };
  for (const name of AGENT_ENV) delete env[name];
  const child = spawn(process.execPath, [program, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // 'close': the process ended and all of its output was read.
  child.on('close', (code, signal) => (exit = { code, signal }));
  /** The lines of one stream, parsed: fails when one is not a JSON log line. */
  const parse = (text: string): LogLine[] =>
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((line) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          throw new Error(`not a JSON line: ${line}`);
        }
        const l = parsed as Partial<LogLine> | null;
        if (
          typeof l?.time !== 'string' ||
          !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(l.time) ||
          !['debug', 'info', 'warn', 'error'].includes(String(l.level)) ||
          typeof l.msg !== 'string' ||
          l.msg === ''
        ) {
          throw new Error(`not a log line (time, level, msg): ${line}`);
        }
        return l as LogLine;
      });
  /** Every line of both streams (stdout's, then stderr's: errors), each a JSON log line. */
  const log = (): LogLine[] => [...parse(out), ...parse(err)];
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit: () => exit,
    log,
    /** stdout's lines only, in order. */
    outLog: () => parse(out),
    messages: () => log().map((l) => l.msg),
  };
}
type RunningAgent = ReturnType<typeof runAgent>;

async function gatewayAttributes(id: string): Promise<GatewayAttributes> {
  const row = await server.db
    .selectFrom('models')
    .select('attributes')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.attributes) as GatewayAttributes;
}

/** How many points of a stream are stored, through the API a browser uses. */
async function storedCount(stream: string): Promise<number> {
  const answer = await server.call(
    'GET',
    apiPaths.streamValues(stream, 0, Date.now() + 60_000, 10_000),
    { token: admin },
  );
  expect(answer.status).toBe(200);
  return dataOf<StreamValues>(answer).points.length;
}

/** A demo gateway with a fresh key made as an admin makes it on the gateway page. */
async function gatewayWithKey(index: number) {
  const gw = await demoGateway(server, ids.root, index);
  const made = await makeGatewayCredentials(server, admin, gw.gatewayId);
  return { ...gw, key: made.secret };
}

/**
 * A started agent does its job: its gateway comes online, its simulator's values arrive, SIGTERM
 * stops it with 0 after 'gateway agent stopped', and the gateway goes offline.
 */
async function expectWorksAndStops(
  agent: RunningAgent,
  gw: Awaited<ReturnType<typeof gatewayWithKey>>,
  dataDir: string,
) {
  try {
    await expect
      .poll(async () => (await gatewayAttributes(gw.gatewayId)).connection, WAIT)
      .toBe('online');
  } catch (err) {
    // What the program said is what tells why (it waited for the server, was refused, …).
    throw new Error(
      `gateway ${gw.gatewayId} not online; the agent wrote:\n${agent.stdout()}${agent.stderr()}`,
      { cause: err },
    );
  }
  for (const stream of Object.values(gw.streams)) {
    await expect.poll(() => storedCount(stream), WAIT).toBeGreaterThan(0);
  }
  const latest = dataOf<{ stream: string }[]>(
    await server.call('GET', apiPaths.latestValues(gw.assetId), { token: admin }),
  );
  expect(latest.map((l) => l.stream).sort()).toEqual(Object.values(gw.streams).sort());
  await expect.poll(() => agent.messages(), WAIT).toContain('configuration applied');
  const started = agent.log().find((l) => l.msg === 'gateway agent started');
  expect(started).toMatchObject({ level: 'info', gateway: gw.gatewayId });
  // Its buffer and the configuration it was sent are in the data folder it was given.
  expect(fs.readdirSync(dataDir)).toEqual(
    expect.arrayContaining([`buffer-${gw.gatewayId}.sqlite`, `config-${gw.gatewayId}.json`]),
  );
  expect(agent.child.exitCode).toBeNull();

  agent.child.kill('SIGTERM');
  await expect.poll(() => agent.exit(), WAIT).toEqual({ code: 0, signal: null });
  const log = agent.log();
  expect(log.find((l) => l.msg === 'stopping')).toMatchObject({ signal: 'SIGTERM' });
  expect(agent.outLog().at(-1)).toMatchObject({ level: 'info', msg: 'gateway agent stopped' });
  expect(log.filter((l) => l.level === 'error')).toEqual([]);
  await expect
    .poll(async () => (await gatewayAttributes(gw.gatewayId)).connection, WAIT)
    .toBe('offline');
  expect((await gatewayAttributes(gw.gatewayId)).last_seen).not.toBeNull();

  // The key is in no line it wrote.
  expect(agent.stdout() + agent.stderr()).not.toContain(gw.key);
}

describe('the gateway agent program', () => {
  it(
    'runs from flags: JSON lines, the gateway online, values stored, a clean stop on SIGTERM',
    async () => {
      const gw = await gatewayWithKey(0);
      const dataDir = path.join(tempDir(), 'data');
      const agent = runAgent([
        '--server',
        server.url,
        '--gateway',
        gw.gatewayId,
        '--key',
        gw.key,
        '--data',
        dataDir,
      ]);
      await expectWorksAndStops(agent, gw, dataDir);
    },
    PROGRAM_TEST_MS,
  );

  it(
    'runs from a JSON config file the same way, a flag winning over the file',
    async () => {
      const gw = await gatewayWithKey(1);
      const dir = tempDir();
      const dataDir = path.join(dir, 'data');
      const file = path.join(dir, 'gateway.json');
      fs.writeFileSync(
        file,
        JSON.stringify({
          server: server.url,
          gateway: gw.gatewayId,
          key: gw.key,
          data: dataDir,
          // Overridden by --log-level info: otherwise 'gateway agent started' would not show.
          log_level: 'warn',
          batch_points: 100,
        }),
        { mode: 0o600 },
      );
      const agent = runAgent(['--config', file, '--log-level', 'info']);
      await expectWorksAndStops(agent, gw, dataDir);
    },
    PROGRAM_TEST_MS,
  );

  it(
    'keeps running with a wrong key, saying the server refused it, and stops on SIGTERM',
    async () => {
      const gw = await gatewayWithKey(4);
      const wrongKey = 'wrong-key-0123456789abcdefghijklmnop';
      const agent = runAgent([
        '--server',
        server.url,
        '--gateway',
        gw.gatewayId,
        '--key',
        wrongKey,
        '--data',
        path.join(tempDir(), 'data'),
      ]);
      await expect
        .poll(() => agent.log().filter((l) => l.level === 'error').length, WAIT)
        .toBeGreaterThan(0);
      // Said once, however often it tries again.
      const errors = agent.log().filter((l) => l.level === 'error');
      expect(errors.map((l) => l.msg)).toEqual([
        expect.stringMatching(/^The server refused the gateway credentials/),
      ]);
      expect(errors[0]?.gateway).toBe(gw.gatewayId);
      // An error goes to stderr; the program goes on (trying again, in case the key is renewed).
      expect(agent.stderr()).toContain('The server refused the gateway credentials');
      expect(agent.child.exitCode).toBeNull();
      expect((await gatewayAttributes(gw.gatewayId)).connection).toBe('offline');

      agent.child.kill('SIGTERM');
      await expect.poll(() => agent.exit(), WAIT).toEqual({ code: 0, signal: null });
      expect(agent.outLog().at(-1)).toMatchObject({ msg: 'gateway agent stopped' });
      expect(agent.stdout() + agent.stderr()).not.toContain(wrongKey);
      expect(agent.stdout() + agent.stderr()).not.toContain(gw.key);
    },
    PROGRAM_TEST_MS,
  );
});

describe('bad input stops the program at once with one line saying what is wrong', () => {
  const KEY = 'a-secret-that-must-not-show-0123456789';

  /** Runs with ARGS (made from a data folder that must stay untouched) and checks the refusal. */
  async function refused(args: (dataDir: string, dir: string) => string[], problem: RegExp) {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const agent = runAgent(args(dataDir, dir));
    await expect.poll(() => agent.exit(), WAIT).toEqual({ code: 1, signal: null });
    expect(agent.stdout()).toBe('');
    const lines = agent.stderr().split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1)).toEqual([expect.stringMatching(problem)]);
    expect(lines[0]).toMatch(/^The gateway agent cannot start: /);
    expect(agent.stderr()).not.toContain(KEY);
    // Nothing was started: not even the data folder was made.
    expect(fs.existsSync(dataDir)).toBe(false);
  }

  it('a missing --key', async () => {
    await refused(
      (data) => ['--server', server.url, '--gateway', 'gw-1', '--data', data],
      /--key is missing \(give --key, "key" in a config file, or GATEWAY_KEY\)/,
    );
  });

  it('a server URL that is not a URL', async () => {
    await refused(
      (data) => [
        '--server',
        'plant-server:3000',
        '--gateway',
        'gw-1',
        '--key',
        KEY,
        '--data',
        data,
      ],
      /--server: must be an http\(s\):\/\/ or ws\(s\):\/\/ URL/,
    );
  });

  it('an unknown flag', async () => {
    await refused(
      (data) => [
        '--server',
        server.url,
        '--gateway',
        'gw-1',
        '--key',
        KEY,
        '--data',
        data,
        '--sever',
        'x',
      ],
      /Unknown option '--sever'/,
    );
  });

  it('a config file that is not there, not JSON, or has an unknown key', async () => {
    await refused(
      (data, dir) => ['--config', path.join(dir, 'missing.json'), '--data', data],
      /config file .*missing\.json cannot be read \(no such file\)/,
    );
    await refused((data, dir) => {
      const file = path.join(dir, 'gateway.json');
      // Cut short: the error must not quote the file (it holds the key).
      fs.writeFileSync(file, `{"server": "${server.url}", "key": "${KEY}"`);
      return ['--config', file, '--data', data];
    }, /config file .*gateway\.json is not valid JSON/);
    await refused((data, dir) => {
      const file = path.join(dir, 'gateway.json');
      fs.writeFileSync(
        file,
        JSON.stringify({ sever: server.url, gateway: 'gw-1', key: KEY, data }),
      );
      return ['--config', file];
    }, /config file .*gateway\.json: unknown key "sever"/);
  });
});
