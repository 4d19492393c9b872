import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import mqtt, { type MqttClient } from 'mqtt';
import nodemailer from 'nodemailer';
import {
  gatewayBrokerLogin,
  gatewayTopics,
  type GatewayConfig,
  type GatewayCredentialsMade,
} from '@plant/shared-schema';
import { startSmtp } from '../server/src/testing/smtp';
import { wholePathIngest } from './ingest.bench';
import { median, signInDemoAdmin, startChild } from './lib';

const ROOT = path.resolve(import.meta.dirname, '..');

const POINTS = Number(process.env.BENCH_ALARM_POINTS ?? 50_000);
const RULES = Number(process.env.BENCH_ALARM_RULES ?? 1_000);
const ROUNDS = 2;

/** One rule in this many has its limit inside the values' range, and fires. */
const FIRING_EVERY = 50;

/**
 * Makes `RULES` alarms on the gateway's number streams through the API, as users would. The
 * bench's values swing between 30 and 70: one rule in `FIRING_EVERY` has its limit in that range
 * and is raised and cleared with every swing (each transition is a write of the alarm's status,
 * logged and published); the others watch limits the values never reach, as most rules of a
 * plant do most of the time. Some have a delay, all a hysteresis.
 */
async function makeRules(
  origin: string,
  dataDir: string,
  config: GatewayConfig,
  firing: boolean,
): Promise<void> {
  const streams = config.connections
    .flatMap((c) => c.datapoints)
    .filter((dp) => dp.stream_type === 'number')
    .map((dp) => dp.datastream_id);
  if (streams.length === 0) throw new Error('the demo gateway feeds no number stream');
  const db = new Database(path.join(dataDir, 'platform.sqlite'), { readonly: true });
  const assetOf = new Map<string, string>();
  try {
    for (const id of streams) {
      const row = db.prepare('SELECT attributes FROM models WHERE id = ?').get(id) as
        { attributes: string } | undefined;
      if (row === undefined) throw new Error(`stream ${id} not found`);
      assetOf.set(id, (JSON.parse(row.attributes) as { asset_id: string }).asset_id);
    }
  } finally {
    db.close();
  }
  const { headers } = await signInDemoAdmin(origin);
  const make = async (i: number) => {
    const stream = streams[i % streams.length] ?? '';
    const res = await fetch(`${origin}/api/v1/alarms`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        asset_id: assetOf.get(stream),
        datastream_id: stream,
        name: `Rule ${i}`,
        upper_limit: firing && i % FIRING_EVERY === 0 ? 50 + ((i / FIRING_EVERY) % 20) : 100 + i,
        hysteresis: 1,
        delay_s: i % 3 === 0 ? 1 : 0,
        severity: i % 10 === 0 ? 'critical' : 'warning',
      }),
    });
    if (res.status !== 201) throw new Error(`alarm ${i}: ${res.status} ${await res.text()}`);
  };
  for (let i = 0; i < RULES; i += 25) {
    await Promise.all(Array.from({ length: Math.min(25, RULES - i) }, (_, k) => make(i + k)));
  }
}

/**
 * Issue 17: what alarm evaluation costs per ingested point. The whole ingest path (agent buffer,
 * MQTT, ingest, store, live values; wholePathIngest) with `RULES` alarm rules in the account
 * against the same path with none, in the same run, rounds alternated; the ratio is the time
 * per point with rules over the time without (target at most 1.3).
 */
export async function benchAlarms(): Promise<string[]> {
  const none: number[] = [];
  const quiet: number[] = [];
  const firing: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    none.push((await wholePathIngest({}, { points: POINTS })).perSecond);
    const prepareQuiet = (o: string, d: string, c: GatewayConfig) => makeRules(o, d, c, false);
    quiet.push((await wholePathIngest({}, { points: POINTS, prepare: prepareQuiet })).perSecond);
    const prepareFiring = (o: string, d: string, c: GatewayConfig) => makeRules(o, d, c, true);
    firing.push((await wholePathIngest({}, { points: POINTS, prepare: prepareFiring })).perSecond);
  }
  const base = median(none);
  const ours = median(quiet);
  const storm = median(firing);
  const fired = Math.ceil(RULES / FIRING_EVERY);
  return [
    `alarm-eval: ${(base / ours).toFixed(2)} (time per point with ${RULES} alarm rules / with none, ` +
      `target <= 1.3) ${POINTS} points, median of ${ROUNDS}; no rule reaches its limit`,
    `alarm-eval-firing: ${(base / storm).toFixed(2)} (the same with ${fired} of the rules raised ` +
      `and cleared with every swing of the values: each transition writes the alarm's status)`,
    `  ingest with ${RULES} quiet rules:  ${ours.toFixed(0)} points/s`,
    `  ingest with ${fired} rules firing:  ${storm.toFixed(0)} points/s`,
    `  ingest with none:             ${base.toFixed(0)} points/s`,
  ];
}

/** The p-th percentile (0..1) of the values. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

const MAILS = Number(process.env.BENCH_ALARM_MAILS ?? 20);

/**
 * Issue 17: a value over its limit at the gateway to the mail accepted by the SMTP server
 * (p50/p95 over `MAILS` raises), through the whole server: the gateway's MQTT publish, ingest,
 * evaluation, the dispatcher woken by the transition, the mail channel, SMTP on loopback.
 * Baseline in the same run: the same mail handed by nodemailer straight to the same SMTP server.
 */
export async function benchAlarmMail(): Promise<string[]> {
  const smtp = await startSmtp();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-alarm-mail-'));
  const server = await startChild(
    path.join(ROOT, 'server/src/main.ts'),
    { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', SEED: 'demo', SMTP_URL: smtp.url },
    /"msg":"server listening","url":"([^"]+)"/,
  );
  let agent: MqttClient | undefined;
  try {
    const { headers } = await signInDemoAdmin(server.url);
    const me = (await (await fetch(`${server.url}/api/v1/user`, { headers })).json()) as {
      data: { id: string };
    };
    const db = new Database(path.join(dataDir, 'platform.sqlite'), { readonly: true });
    const found = db
      .prepare(
        `select g.id as gateway, a.id as asset, s.id as stream from models g
           join models a on a.type = 'asset' and json_extract(a.attributes, '$.gateway_id') = g.id
           join models s on s.type = 'datastream'
                        and json_extract(s.attributes, '$.asset_id') = a.id
          where g.type = 'gateway' and json_extract(s.attributes, '$.name') = 'Spindle speed'
          order by g.id limit 1`,
      )
      .get() as { gateway: string; asset: string; stream: string } | undefined;
    db.close();
    if (found === undefined) throw new Error('no demo gateway with a spindle');
    const made = await fetch(`${server.url}/api/v1/alarms`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        asset_id: found.asset,
        datastream_id: found.stream,
        name: 'Bench overspeed',
        upper_limit: 5_000,
        // Info: only raises are mailed, so every mail is one raise.
        severity: 'info',
        recipients: [{ user_id: me.data.id, channels: ['mail'] }],
      }),
    });
    if (made.status !== 201) throw new Error(`alarm: ${made.status} ${await made.text()}`);
    const creds = await fetch(`${server.url}/api/v1/gateways/${found.gateway}/credentials`, {
      method: 'POST',
      headers,
    });
    const { data } = (await creds.json()) as { data: GatewayCredentialsMade };
    const login = gatewayBrokerLogin(found.gateway);
    agent = await mqtt.connectAsync(`${server.url.replace('http', 'ws')}/mqtt`, {
      protocolVersion: 4,
      clientId: login.clientId,
      username: login.username,
      password: data.secret,
      reconnectPeriod: 0,
    });
    const ours: number[] = [];
    let seq = 0;
    const publish = (value: number) => {
      seq += 1;
      return agent?.publishAsync(
        gatewayTopics.data(found.gateway),
        JSON.stringify({
          gateway: found.gateway,
          buffer: 'bench-alarm-mail',
          seq,
          points: [{ stream: found.stream, ts: Date.now(), value }],
        }),
        { qos: 1 },
      );
    };
    for (let i = 0; i < MAILS; i += 1) {
      const before = smtp.inbox.length;
      const started = performance.now();
      await publish(6_000);
      await waitFor(() => smtp.inbox.length > before, 30_000);
      ours.push(performance.now() - started);
      await publish(4_000);
      // The clear is recorded before the next raise (a later point; nothing is mailed for it).
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const plain: number[] = [];
    const transport = nodemailer.createTransport(smtp.url);
    for (let i = 0; i < MAILS; i += 1) {
      const started = performance.now();
      await transport.sendMail({
        from: 'bench@plant.local',
        to: 'admin@demo.local',
        subject: 'Bench overspeed',
        text: 'A value over its limit.',
      });
      plain.push(performance.now() - started);
    }
    transport.close();
    const [p50, p95, b50, b95] = [
      percentile(ours, 0.5),
      percentile(ours, 0.95),
      percentile(plain, 0.5),
      percentile(plain, 0.95),
    ];
    return [
      `alarm-mail: p50 ${(p50 / b50).toFixed(2)}, p95 ${(p95 / b95).toFixed(2)} (value over the ` +
        `limit at the gateway to mail accepted / a mail sent straight, ${MAILS} raises)`,
      `  value -> mail accepted: p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms`,
      `  nodemailer straight to the same SMTP server: p50 ${b50.toFixed(1)} ms, p95 ${b95.toFixed(1)} ms`,
    ];
  } finally {
    await agent?.endAsync(true);
    await server.stop();
    await smtp.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

function waitFor(check: () => boolean, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const end = Date.now() + ms;
    const tick = () => {
      if (check()) resolve();
      else if (Date.now() > end) reject(new Error('timed out'));
      else setTimeout(tick, 2);
    };
    tick();
  });
}
