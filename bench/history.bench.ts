import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  openTimeSeriesStore,
  TIME_SERIES_FILE,
} from '../server/src/timeseries/sqlite-time-series-store';
import type { StoredPoint } from '../server/src/timeseries/time-series-store';
import { median } from './lib';

const DAYS = 30;
const EVERY_MS = 10_000;
const POINTS = (DAYS * 86_400_000) / EVERY_MS; // 259,200
const BATCH = 1_000;
const ROUNDS = Number(process.env.BENCH_HISTORY_ROUNDS ?? 3);
const READS = Number(process.env.BENCH_HISTORY_READS ?? 30);
const ASKED = 1_000;

/**
 * A believable machine temperature: a daily swing, a slow drift, noise, and now and then a spike
 * (the thing downsampling must not lose). Deterministic, so every run reads the same curve.
 */
function curve(start: number): [number, number][] {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const points: [number, number][] = [];
  for (let i = 0; i < POINTS; i++) {
    const ts = start + i * EVERY_MS;
    const day = (ts % 86_400_000) / 86_400_000;
    const spike = random() < 0.0005 ? 25 * (random() - 0.3) : 0;
    const value = 60 + 8 * Math.sin(2 * Math.PI * day) + i / 50_000 + random() - 0.5 + spike;
    points.push([ts, Math.round(value * 100) / 100]);
  }
  return points;
}

/** The baseline's downsampling: M4 over the raw rows, in JS (what a store without rollups does). */
function m4(rows: readonly [number, number][], from: number, to: number, asked: number) {
  const width = Math.ceil((to - from + 1) / Math.floor(asked / 4));
  const out: [number, number][] = [];
  let bucket = -1;
  let first: [number, number] = [0, 0];
  let last = first;
  let min = first;
  let max = first;
  const flush = () => {
    if (bucket < 0) return;
    const kept = [first, min, max, last].filter((p, i, all) => all.indexOf(p) === i);
    out.push(...kept.sort((a, b) => a[0] - b[0]));
  };
  for (const row of rows) {
    const b = Math.floor((row[0] - from) / width);
    if (b !== bucket) {
      flush();
      bucket = b;
      first = min = max = row;
    }
    if (row[1] < min[1]) min = row;
    if (row[1] > max[1]) max = row;
    last = row;
  }
  flush();
  return out;
}

/**
 * History reads and writes of the time-series store (DESIGN.md §8), each against a baseline in
 * the same run:
 * - append: 30 days of one stream at one point per 10 s (259,200 points) through
 *   `store.append` in batches of 1,000 (batch record, points, minute and hour rollups), against
 *   plain batched better-sqlite3 inserts of the same points into a bare WITHOUT ROWID
 *   (stream, ts) table; paired rounds, median;
 * - range: the 30 days downsampled to 1,000 points (read from the hour rollups), against a raw
 *   scan of the same rows through a prepared statement with M4 computed in JS; median of READS.
 */
export async function benchHistory(): Promise<string[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-history-'));
  const store = await openTimeSeriesStore(dir);
  const plain = new Database(path.join(dir, 'plain.sqlite'));
  try {
    plain.pragma('journal_mode = WAL');
    plain.pragma('synchronous = NORMAL');
    plain.exec(
      'CREATE TABLE points (stream TEXT NOT NULL, ts INTEGER NOT NULL, value, PRIMARY KEY (stream, ts)) WITHOUT ROWID',
    );
    const insert = plain.prepare('INSERT INTO points (stream, ts, value) VALUES (?, ?, ?)');
    const insertBatch = plain.transaction((stream: string, batch: readonly [number, number][]) => {
      for (const [ts, value] of batch) insert.run(stream, ts, value);
    });

    const from = Date.UTC(2026, 0, 1);
    const to = from + DAYS * 86_400_000 - 1;
    const points = curve(from);
    const batches: [number, number][][] = [];
    for (let i = 0; i < points.length; i += BATCH) batches.push(points.slice(i, i + BATCH));

    const oursRates: number[] = [];
    const plainRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const stream = `history-${round}`;
      let t = performance.now();
      for (const [seq, batch] of batches.entries()) {
        const stored: StoredPoint[] = batch.map(([ts, value]) => ({
          stream,
          account: 'bench',
          ts,
          value,
        }));
        await store.append({ source: `bench/${round}`, seq, points: stored });
      }
      oursRates.push((POINTS / (performance.now() - t)) * 1000);
      t = performance.now();
      for (const batch of batches) insertBatch(stream, batch);
      plainRates.push((POINTS / (performance.now() - t)) * 1000);
    }
    const appendRatios = oursRates.map((r, i) => r / (plainRates[i] ?? Number.NaN));

    // The baseline reads the store's own file and rows (a second connection, read only).
    const raw = new Database(path.join(dir, TIME_SERIES_FILE), { readonly: true });
    const seriesId = raw
      .prepare('SELECT id FROM ts_series WHERE stream = ?')
      .pluck()
      .get('history-0') as number;
    const scan = raw
      .prepare('SELECT ts, value FROM ts_points WHERE series = ? AND ts BETWEEN ? AND ?')
      .raw();
    const runOurs = async () => {
      const t = performance.now();
      const [answer] = await store.range(['history-0'], from, to, ASKED);
      return { ms: performance.now() - t, points: answer?.points.length ?? 0 };
    };
    const runScan = () => {
      const t = performance.now();
      const rows = scan.all(seriesId, from, to) as [number, number][];
      const answer = m4(rows, from, to, ASKED);
      return { ms: performance.now() - t, points: answer.length, rows: rows.length };
    };
    await runOurs(); // warm-up
    runScan();
    const ours: number[] = [];
    const scans: number[] = [];
    let answered = 0;
    let scanned = 0;
    for (let i = 0; i < READS; i++) {
      const o = await runOurs();
      const s = runScan();
      ours.push(o.ms);
      scans.push(s.ms);
      answered = o.points;
      scanned = s.rows;
    }
    raw.close();
    const oursMs = median(ours);
    const scanMs = median(scans);
    return [
      `history: range ${DAYS} d → ${answered} points ${oursMs.toFixed(2)} ms vs raw scan ` +
        `${scanMs.toFixed(2)} ms (${scanned} rows, M4 in JS): ratio ${(scanMs / oursMs).toFixed(1)}× ` +
        `(target ≥ 10×); median of ${READS}`,
      `history: append ${median(appendRatios).toFixed(2)} (ours/baseline) ` +
        `${median(oursRates).toFixed(0)} points/s through store.append (batch record, points, ` +
        `minute and hour rollups), ${median(plainRates).toFixed(0)} points/s plain batched inserts; ` +
        `batches of ${BATCH}, ${POINTS} points, median of ${ROUNDS} paired rounds`,
    ];
  } finally {
    plain.close();
    await store.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
