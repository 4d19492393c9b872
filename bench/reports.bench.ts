import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import PDFDocument from 'pdfkit';
import type { DashboardWidget, GatewayConfig } from '@plant/shared-schema';
import { renderPdf } from '../server/src/reports/pdf';
import {
  CHART_POINTS,
  contentFor,
  type Point,
  type ReportData,
  type StreamMeta,
} from '../server/src/reports/report-content';
import { openTimeSeriesStore } from '../server/src/timeseries/sqlite-time-series-store';
import { wholePathIngest } from './ingest.bench';
import { median, signInDemoAdmin } from './lib';

const WIDGETS = 12;
const DAYS = 30;
/** One point every this many ms: 30 days of 10 s data is 259,200 points per stream. */
const STEP_MS = Number(process.env.BENCH_REPORT_STEP_MS ?? 10_000);
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 20);

/** The p-th percentile (0..1) of the values. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

/**
 * The baseline: pdfkit alone drawing the same polylines (the same M4 points, already in memory)
 * on A4 pages, with no read, no layout of ours, no text but a title per chart.
 */
function plainPdf(
  series: readonly (readonly Point[])[],
  from: number,
  to: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 40 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    let y = 40;
    series.forEach((points, i) => {
      if (y + 180 > 800) {
        doc.addPage();
        y = 40;
      }
      doc.fontSize(11).text(`Chart ${i + 1}`, 40, y);
      const values = points.map((p) => Number(p[1]));
      const lo = Math.min(...values);
      const hi = Math.max(...values);
      points.forEach(([ts, v], k) => {
        const x = 40 + ((ts - from) / (to - from)) * 515;
        const yy = y + 170 - ((Number(v) - lo) / Math.max(1e-9, hi - lo)) * 150;
        if (k === 0) doc.moveTo(x, yy);
        else doc.lineTo(x, yy);
      });
      doc.stroke();
      y += 200;
    });
    doc.end();
  });
}

/**
 * Issue 31: a report's PDF of 12 line widgets over 30 days of data (p50/p95 of `RUNS`), each run
 * the real work of one recipient's PDF: the M4 reads of the SQLite store (the same `range` the
 * screen's values read uses), the recipient's content, the drawing. Target: p95 under 5 s.
 * Baseline in the same run: pdfkit alone drawing the same points, already read.
 */
export async function benchReportPdf(): Promise<string[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-report-pdf-'));
  const store = await openTimeSeriesStore(dataDir);
  try {
    const to = Date.parse('2026-11-23T07:00:00Z');
    const from = to - DAYS * 86_400_000;
    const streams: StreamMeta[] = Array.from({ length: WIDGETS }, (_, i) => ({
      id: `stream-${i}`,
      name: `Motor temperature ${i + 1}`,
      unit: '°C',
      type: 'number',
      assetId: `asset-${i}`,
      assetName: `Press line ${i + 1}`,
    }));
    let seq = 0;
    for (const s of streams) {
      const points = [];
      for (let ts = from; ts <= to; ts += STEP_MS) {
        points.push({
          stream: s.id,
          account: 'bench',
          ts,
          value: 50 + 10 * Math.sin(ts / 3_600_000) + (ts % 7_777_000 === 0 ? 40 : 0),
        });
        if (points.length === 50_000) {
          seq += 1;
          await store.append({ source: 'bench', seq, points: points.splice(0) });
        }
      }
      seq += 1;
      if (points.length > 0) await store.append({ source: 'bench', seq, points });
    }
    const widgets: DashboardWidget[] = streams.map((s, i) => ({
      id: `w${i}`,
      type: 'line',
      x: 0,
      y: i * 8,
      w: 24,
      h: 8,
      title: `Widget ${i + 1}`,
      streams: [s.id],
      options: {},
    }));
    const ids = streams.map((s) => s.id);
    const ours: number[] = [];
    const plain: number[] = [];
    let bytes = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const t0 = performance.now();
      const [ranges, latest] = await Promise.all([
        store.range(ids, from, to, CHART_POINTS),
        store.latest(ids),
      ]);
      const data: ReportData = {
        title: 'Demo Machine Builder',
        reportName: 'Monthly plant overview',
        from,
        to,
        tz: 'Europe/Berlin',
        widgets,
        streams: new Map(streams.map((s) => [s.id, s])),
        series: new Map(ranges.map((r) => [r.stream, r.points])),
        latest,
        alarms: [],
        assets: [],
        assetId: null,
      };
      const content = contentFor(data, {
        seesAsset: () => true,
        streams: true,
        alarms: true,
        assets: true,
      });
      if (content === null) throw new Error('the bench report shows nothing');
      const pdf = await renderPdf(content);
      ours.push(performance.now() - t0);
      bytes = pdf.length;
      const t1 = performance.now();
      await plainPdf(
        ranges.map((r) => r.points),
        from,
        to,
      );
      plain.push(performance.now() - t1);
    }
    const p95 = percentile(ours, 0.95);
    return [
      `report-pdf: ${(median(ours) / median(plain)).toFixed(2)} (a PDF of ${WIDGETS} line widgets ` +
        `over ${DAYS} days, read and drawn / pdfkit alone drawing the same points, medians of ${RUNS})`,
      `report-pdf-p95: ${(p95 / 5_000).toFixed(2)} (p95 ${p95.toFixed(0)} ms / the 5 s target, ` +
        `target <= 1) p50 ${median(ours).toFixed(0)} ms, ${(bytes / 1024).toFixed(0)} KiB, ` +
        `one point every ${STEP_MS / 1000} s`,
      `  pdfkit alone: p50 ${median(plain).toFixed(0)} ms`,
    ];
  } finally {
    await store.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const DUE_REPORTS = Number(process.env.BENCH_REPORTS_DUE ?? 100);
const INGEST_POINTS = Number(process.env.BENCH_REPORT_INGEST_POINTS ?? 200_000);
const ROUNDS = 2;

/**
 * Makes a dashboard of four line widgets over the gateway's number streams and `DUE_REPORTS`
 * reports of it to the admin through the API, then makes them all due as the timed ingest starts
 * (their next time written in the database: the scheduler looks every second here).
 */
/** When the bench's reports fell due (epoch ms). */
let dueAt = 0;

async function dueReports(origin: string, dataDir: string, config: GatewayConfig): Promise<void> {
  const streams = config.connections
    .flatMap((c) => c.datapoints)
    .filter((dp) => dp.stream_type === 'number')
    .map((dp) => dp.datastream_id);
  const { headers } = await signInDemoAdmin(origin);
  const me = (await (await fetch(`${origin}/api/v1/user`, { headers })).json()) as {
    data: { id: string };
  };
  const made = await fetch(`${origin}/api/v1/dashboards`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Bench dashboard',
      range: { kind: 'relative', last: 1, unit: 'days' },
      widgets: Array.from({ length: 4 }, (_, i) => ({
        id: `w${i}`,
        type: 'line',
        x: 0,
        y: i * 8,
        w: 24,
        h: 8,
        streams: streams.slice(i, i + 2),
      })),
    }),
  });
  if (made.status !== 201) throw new Error(`dashboard: ${made.status} ${await made.text()}`);
  const dashboard = ((await made.json()) as { data: { id: string } }).data.id;
  for (let i = 0; i < DUE_REPORTS; i += 1) {
    const res = await fetch(`${origin}/api/v1/reports`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: `Bench report ${i}`,
        dashboard_id: dashboard,
        interval_ms: 3_600_000,
        recipients: [{ user_id: me.data.id }],
      }),
    });
    if (res.status !== 201) throw new Error(`report ${i}: ${res.status} ${await res.text()}`);
  }
  const db = new Database(path.join(dataDir, 'platform.sqlite'));
  try {
    db.prepare(
      `UPDATE models SET attributes = json_set(attributes, '$.next_at', ?) WHERE type = 'report'`,
    ).run((dueAt = Date.now() - 1_000));
    // The timed ingest starts once the scheduler has begun on them.
    const started = Date.now();
    const runs = db.prepare('SELECT count(*) AS n FROM report_runs');
    while ((runs.get() as { n: number }).n === 0) {
      if (Date.now() - started > 30_000) throw new Error('no report run began');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    db.close();
  }
}

/**
 * Issue 31: what reports falling due cost the server's ingest. The whole ingest path
 * (wholePathIngest) while `DUE_REPORTS` reports are made and mailed (each a PDF of four charts)
 * against the same path with none, in the same run, rounds alternated; the ratio is points per
 * second with the reports over without (target at least 0.9).
 */
export async function benchReportIngest(): Promise<string[]> {
  const none: number[] = [];
  const due: number[] = [];
  const sent: number[] = [];
  const env = { REPORT_TICK_MS: '1000' };
  /** How many reports had been made and mailed when the ingest ended (written as .eml). */
  const allSent: number[] = [];
  const mailed = async (_origin: string, dataDir: string) => {
    const db = new Database(path.join(dataDir, 'platform.sqlite'), { readonly: true });
    try {
      const count = db.prepare(
        `SELECT count(*) AS n, max(finished_at) AS last FROM report_runs WHERE state = 'sent'`,
      );
      sent.push((count.get() as { n: number }).n);
      // Then every report out: how long after their time the last one was mailed.
      const until = Date.now() + 150_000;
      for (;;) {
        const { n, last } = count.get() as { n: number; last: number | null };
        if (n >= DUE_REPORTS) {
          allSent.push((last ?? 0) - dueAt);
          break;
        }
        if (Date.now() > until) throw new Error(`only ${n} reports mailed in 150 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      db.close();
    }
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    none.push((await wholePathIngest(env, { points: INGEST_POINTS })).perSecond);
    due.push(
      (await wholePathIngest(env, { points: INGEST_POINTS, prepare: dueReports, after: mailed }))
        .perSecond,
    );
  }
  const base = median(none);
  const ours = median(due);
  return [
    `report-ingest: ${(ours / base).toFixed(2)} (ingest points/s with ${DUE_REPORTS} reports ` +
      `due / with none, target >= 0.9) ${INGEST_POINTS} points, median of ${ROUNDS}`,
    `  with ${DUE_REPORTS} reports due: ${ours.toFixed(0)} points/s; reports mailed by the ` +
      `ingest's end: ${sent.join(', ')}`,
    `  with none:             ${base.toFixed(0)} points/s`,
    `report-due-all: ${(Math.max(...allSent) / 120_000).toFixed(2)} (the last of ${DUE_REPORTS} ` +
      `reports due at once mailed ${allSent.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} ` +
      `after their time / spec 001 §9's 2 minutes, target <= 1)`,
  ];
}
