import path from 'node:path';
import Database from 'better-sqlite3';
import type { GatewayConfig } from '@plant/shared-schema';
import { wholePathIngest } from './ingest.bench';
import { median, signInDemoAdmin } from './lib';

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
