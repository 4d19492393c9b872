import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import type {
  LatestRow,
  Point,
  ReportContent,
  SeriesContent,
  WidgetContent,
} from './report-content';

/**
 * A report's PDF, made without a browser (issue 31 item 5): pdfkit draws A4 pages with the
 * account's title and the range in every page's header, each widget as vector graphics (charts
 * from the M4 points, so each bucket's min and max are drawn), tables and lists continued on the
 * next page. Text is in the PDF's standard Helvetica when WinAnsi writes all of it, else in DejaVu
 * Sans (Debian's fonts-dejavu-core: Latin, Greek, Cyrillic, embedded) when the machine has it.
 */

const FONT_DIR = '/usr/share/fonts/truetype/dejavu';
const FONTS = {
  regular: `${FONT_DIR}/DejaVuSans.ttf`,
  bold: `${FONT_DIR}/DejaVuSans-Bold.ttf`,
};
/** The font files, read once per process (each PDF embeds the glyphs it uses). */
const dejaVu =
  fs.existsSync(FONTS.regular) && fs.existsSync(FONTS.bold)
    ? { regular: fs.readFileSync(FONTS.regular), bold: fs.readFileSync(FONTS.bold) }
    : undefined;

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const HEADER_H = 46;
const FOOTER_H = 24;
const TOP = MARGIN + HEADER_H;
const BOTTOM = A4.height - MARGIN - FOOTER_H;
const WIDTH = A4.width - 2 * MARGIN;
const ROW_H = 15;

const PALETTE = [
  '#1c7ed6',
  '#e8590c',
  '#2f9e44',
  '#ae3ec9',
  '#f08c00',
  '#0c8599',
  '#c2255c',
  '#5c940d',
  '#6741d9',
  '#d9480f',
  '#1864ab',
  '#862e9c',
];
const GREY = '#868e96';
const INK = '#212529';

/** A formatter per time zone (making one costs more than using it many times). */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** A time in the report's zone: 2026-11-22 08:00. */
export function formatTime(ms: number, tz: string): string {
  let f = formatters.get(tz);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('sv-SE', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f.format(new Date(ms));
}

/** The range as the header writes it. */
export function formatRange(content: Pick<ReportContent, 'from' | 'to' | 'tz'>): string {
  return `${formatTime(content.from, content.tz)} – ${formatTime(content.to, content.tz)} (${content.tz})`;
}

function formatValue(value: number | string | null, unit: string): string {
  if (value === null) return '–';
  if (typeof value === 'string') return value;
  const abs = Math.abs(value);
  const text =
    abs !== 0 && (abs >= 1e6 || abs < 1e-3)
      ? value.toExponential(3)
      : String(Math.round(value * 1000) / 1000);
  return unit === '' ? text : `${text} ${unit}`;
}

const numeric = (points: readonly Point[]) =>
  points.filter((p): p is readonly [number, number] => typeof p[1] === 'number');

/** Drawing state: the document and where the next widget goes. */
class Pages {
  y = TOP;
  constructor(
    readonly doc: PDFKit.PDFDocument,
    private readonly content: ReportContent,
  ) {
    this.header();
    doc.on('pageAdded', () => {
      this.header();
      this.y = TOP;
    });
  }

  font(bold = false): PDFKit.PDFDocument {
    return this.doc.font(bold ? 'bold' : 'regular');
  }

  private header(): void {
    const { doc, content } = this;
    const y0 = MARGIN;
    this.font(true).fontSize(13).fillColor(INK);
    doc.text(content.title, MARGIN, y0, { width: WIDTH * 0.6, lineBreak: false, ellipsis: true });
    this.font().fontSize(9).fillColor(GREY);
    doc.text(content.reportName, MARGIN + WIDTH * 0.6, y0 + 2, {
      width: WIDTH * 0.4,
      align: 'right',
      lineBreak: false,
      ellipsis: true,
    });
    doc.text(formatRange(content), MARGIN, y0 + 20, { width: WIDTH, lineBreak: false });
    doc
      .moveTo(MARGIN, y0 + HEADER_H - 10)
      .lineTo(MARGIN + WIDTH, y0 + HEADER_H - 10)
      .lineWidth(0.5)
      .strokeColor('#ced4da')
      .stroke();
    doc.fillColor(INK);
  }

  /** Room for `h` more points on this page, else a new page. */
  need(h: number): void {
    if (this.y + h > BOTTOM) this.doc.addPage();
  }

  title(text: string): void {
    this.need(18 + ROW_H * 2);
    this.font(true).fontSize(11).fillColor(INK);
    this.doc.text(text, MARGIN, this.y, { width: WIDTH, lineBreak: false, ellipsis: true });
    this.y += 18;
  }

  note(text: string): void {
    this.need(ROW_H);
    this.font().fontSize(9).fillColor(GREY);
    this.doc.text(text, MARGIN, this.y, { width: WIDTH, lineBreak: false, ellipsis: true });
    this.y += ROW_H;
    this.doc.fillColor(INK);
  }

  /** Rows of cells at given column widths (fractions of the width), continued on new pages. */
  table(
    head: readonly string[],
    rows: readonly (readonly string[])[],
    cols: readonly number[],
  ): void {
    const line = (cells: readonly string[], bold: boolean) => {
      this.font(bold)
        .fontSize(9)
        .fillColor(bold ? GREY : INK);
      let x = MARGIN;
      cells.forEach((cell, i) => {
        const w = (cols[i] ?? 0) * WIDTH;
        this.doc.text(cell, x, this.y + 3, { width: w - 6, lineBreak: false, ellipsis: true });
        x += w;
      });
      this.y += ROW_H;
    };
    this.need(ROW_H * 2);
    line(head, true);
    for (const row of rows) {
      if (this.y + ROW_H > BOTTOM) {
        this.doc.addPage();
        line(head, true);
      }
      line(row, false);
    }
    this.doc.fillColor(INK);
  }

  gap(h = 14): void {
    this.y += h;
  }
}

/** The legend under a chart: each series' colour, name and unit, its min and max over the range. */
function legend(p: Pages, series: readonly SeriesContent[]): void {
  const { doc } = p;
  series.forEach((s, i) => {
    p.need(ROW_H);
    const values = numeric(s.points).map((q) => q[1]);
    const stats =
      values.length === 0
        ? 'no values in the range'
        : `min ${formatValue(Math.min(...values), s.unit)}   max ${formatValue(Math.max(...values), s.unit)}`;
    doc.rect(MARGIN, p.y + 4, 8, 8).fill(PALETTE[i % PALETTE.length] ?? INK);
    p.font().fontSize(9).fillColor(INK);
    const label = s.unit === '' ? s.name : `${s.name} (${s.unit})`;
    doc.text(label, MARGIN + 14, p.y + 3, {
      width: WIDTH * 0.55,
      lineBreak: false,
      ellipsis: true,
    });
    doc.fillColor(GREY).text(stats, MARGIN + WIDTH * 0.58, p.y + 3, {
      width: WIDTH * 0.42,
      align: 'right',
      lineBreak: false,
    });
    p.y += ROW_H;
  });
  doc.fillColor(INK);
}

interface Frame {
  x: number;
  y: number;
  w: number;
  h: number;
  lo: number;
  hi: number;
}

/** A plot's box with its time and value axes. */
function axes(p: Pages, content: ReportContent, height: number, values: readonly number[]): Frame {
  const { doc } = p;
  let lo = values.length === 0 ? 0 : Math.min(...values);
  let hi = values.length === 0 ? 1 : Math.max(...values);
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const pad = (hi - lo) * 0.05;
  lo -= pad;
  hi += pad;
  const f: Frame = { x: MARGIN + 48, y: p.y, w: WIDTH - 48, h: height - 16, lo, hi };
  doc.lineWidth(0.5).strokeColor('#dee2e6');
  p.font().fontSize(7).fillColor(GREY);
  for (let i = 0; i <= 4; i += 1) {
    const v = lo + ((hi - lo) * i) / 4;
    const y = f.y + f.h - (f.h * i) / 4;
    doc
      .moveTo(f.x, y)
      .lineTo(f.x + f.w, y)
      .stroke();
    doc.text(formatValue(v, ''), MARGIN, y - 4, { width: 44, align: 'right', lineBreak: false });
  }
  for (let i = 0; i <= 4; i += 1) {
    const t = content.from + ((content.to - content.from) * i) / 4;
    const x = f.x + (f.w * i) / 4;
    const label = formatTime(t, content.tz);
    const align = i === 0 ? 'left' : i === 4 ? 'right' : 'center';
    const left = i === 0 ? x : i === 4 ? x - 90 : x - 45;
    doc.text(label, left, f.y + f.h + 4, { width: 90, align, lineBreak: false });
  }
  doc.fillColor(INK);
  return f;
}

const xOf = (f: Frame, content: ReportContent, ts: number) =>
  f.x + ((ts - content.from) / Math.max(1, content.to - content.from)) * f.w;
const yOf = (f: Frame, v: number) => f.y + f.h - ((v - f.lo) / (f.hi - f.lo)) * f.h;

function lineChart(p: Pages, content: ReportContent, series: readonly SeriesContent[]): void {
  const height = 170;
  p.need(height + 4);
  const all = series.flatMap((s) => numeric(s.points).map((q) => q[1]));
  const f = axes(p, content, height, all);
  const { doc } = p;
  series.forEach((s, i) => {
    const pts = numeric(s.points);
    if (pts.length === 0) return;
    doc.save();
    doc.rect(f.x, f.y, f.w, f.h).clip();
    doc.lineWidth(0.8).strokeColor(PALETTE[i % PALETTE.length] ?? INK);
    pts.forEach(([ts, v], k) => {
      const x = xOf(f, content, ts);
      const y = yOf(f, v);
      if (k === 0) doc.moveTo(x, y);
      else doc.lineTo(x, y);
    });
    if (pts.length === 1) {
      const [ts, v] = pts[0] ?? [0, 0];
      doc.circle(xOf(f, content, ts), yOf(f, v), 1.5);
    }
    doc.stroke();
    doc.restore();
  });
  p.y += height + 2;
  legend(p, series);
}

/** Bars per hour, day or week (whichever gives at most 60), each the mean of its points. */
function barChart(p: Pages, content: ReportContent, series: readonly SeriesContent[]): void {
  const span = content.to - content.from;
  const bucket =
    span <= 60 * 3_600_000 ? 3_600_000 : span <= 60 * 86_400_000 ? 86_400_000 : 7 * 86_400_000;
  const buckets = Math.max(1, Math.ceil(span / bucket));
  const means = series.map((s) => {
    const sum = new Array<number>(buckets).fill(0);
    const count = new Array<number>(buckets).fill(0);
    for (const [ts, v] of numeric(s.points)) {
      const b = Math.min(buckets - 1, Math.max(0, Math.floor((ts - content.from) / bucket)));
      sum[b] = (sum[b] ?? 0) + v;
      count[b] = (count[b] ?? 0) + 1;
    }
    return sum.map((v, b) => ((count[b] ?? 0) === 0 ? null : v / (count[b] ?? 1)));
  });
  const height = 160;
  p.need(height + 4);
  const values = means.flat().filter((v): v is number => v !== null);
  const f = axes(p, content, height, [0, ...values]);
  const { doc } = p;
  const slot = f.w / buckets;
  const barW = Math.max(0.5, (slot * 0.8) / Math.max(1, series.length));
  means.forEach((list, i) => {
    doc.fillColor(PALETTE[i % PALETTE.length] ?? INK);
    list.forEach((v, b) => {
      if (v === null) return;
      const x = f.x + b * slot + slot * 0.1 + i * barW;
      const y0 = yOf(f, Math.max(f.lo, 0));
      const y1 = yOf(f, v);
      doc.rect(x, Math.min(y0, y1), barW, Math.max(0.5, Math.abs(y0 - y1))).fill();
    });
  });
  doc.fillColor(INK);
  p.y += height + 2;
  legend(p, series);
}

/** One band per stream, each stretch of one value in its own colour, the values named below. */
function stateTimeline(p: Pages, content: ReportContent, series: readonly SeriesContent[]): void {
  const { doc } = p;
  const colours = new Map<string, string>();
  const colourOf = (v: number | string) => {
    const key = String(v);
    if (!colours.has(key)) colours.set(key, PALETTE[colours.size % PALETTE.length] ?? INK);
    return colours.get(key) ?? INK;
  };
  for (const s of series) {
    p.need(34);
    p.font().fontSize(9).fillColor(INK);
    doc.text(s.unit === '' ? s.name : `${s.name} (${s.unit})`, MARGIN, p.y, {
      width: WIDTH,
      lineBreak: false,
      ellipsis: true,
    });
    const f: Frame = { x: MARGIN, y: p.y + 13, w: WIDTH, h: 14, lo: 0, hi: 1 };
    doc.rect(f.x, f.y, f.w, f.h).fill('#f1f3f5');
    s.points.forEach(([ts, v], k) => {
      const next = s.points[k + 1]?.[0] ?? content.to;
      const x0 = xOf(f, content, ts);
      const x1 = xOf(f, content, next);
      doc.rect(x0, f.y, Math.max(0.3, x1 - x0), f.h).fill(colourOf(v));
    });
    p.y += 32;
  }
  p.need(ROW_H);
  let x = MARGIN;
  p.font().fontSize(8);
  for (const [value, colour] of colours) {
    if (x > MARGIN + WIDTH - 60) break;
    doc.rect(x, p.y + 3, 8, 8).fill(colour);
    doc
      .fillColor(INK)
      .text(value, x + 11, p.y + 2, { width: 60, lineBreak: false, ellipsis: true });
    x += 76;
  }
  p.y += ROW_H;
  doc.fillColor(INK);
}

function valueTiles(p: Pages, rows: readonly LatestRow[]): void {
  const { doc } = p;
  const perRow = 3;
  const w = WIDTH / perRow;
  for (let i = 0; i < rows.length; i += perRow) {
    p.need(52);
    rows.slice(i, i + perRow).forEach((r, k) => {
      const x = MARGIN + k * w;
      p.font().fontSize(8).fillColor(GREY);
      doc.text(r.name, x, p.y, { width: w - 8, lineBreak: false, ellipsis: true });
      p.font(true).fontSize(18).fillColor(INK);
      doc.text(formatValue(r.value, r.unit), x, p.y + 12, {
        width: w - 8,
        lineBreak: false,
        ellipsis: true,
      });
    });
    p.y += 48;
  }
}

function gauges(p: Pages, rows: readonly LatestRow[], min: number, max: number): void {
  const { doc } = p;
  const perRow = 3;
  const w = WIDTH / perRow;
  const lo = Math.min(min, max);
  const hi = Math.max(min, max) === lo ? lo + 1 : Math.max(min, max);
  for (let i = 0; i < rows.length; i += perRow) {
    p.need(96);
    rows.slice(i, i + perRow).forEach((r, k) => {
      const cx = MARGIN + k * w + w / 2;
      const cy = p.y + 58;
      const radius = 40;
      const arc = (a0: number, a1: number, colour: string) => {
        doc.save();
        doc.lineWidth(8).strokeColor(colour);
        const steps = 24;
        for (let s = 0; s <= steps; s += 1) {
          const a = a0 + ((a1 - a0) * s) / steps;
          const x = cx + radius * Math.cos(a);
          const y = cy - radius * Math.sin(a);
          if (s === 0) doc.moveTo(x, y);
          else doc.lineTo(x, y);
        }
        doc.stroke();
        doc.restore();
      };
      arc(Math.PI, 0, '#e9ecef');
      if (typeof r.value === 'number') {
        const share = Math.min(1, Math.max(0, (r.value - lo) / (hi - lo)));
        if (share > 0) arc(Math.PI, Math.PI - Math.PI * share, PALETTE[0] ?? INK);
      }
      p.font(true).fontSize(12).fillColor(INK);
      doc.text(formatValue(r.value, r.unit), cx - w / 2, cy - 16, {
        width: w,
        align: 'center',
        lineBreak: false,
      });
      p.font().fontSize(7).fillColor(GREY);
      doc.text(formatValue(lo, ''), cx - radius - 20, cy + 6, {
        width: 40,
        align: 'center',
        lineBreak: false,
      });
      doc.text(formatValue(hi, ''), cx + radius - 20, cy + 6, {
        width: 40,
        align: 'center',
        lineBreak: false,
      });
      p.font().fontSize(8).fillColor(INK);
      doc.text(r.name, cx - w / 2 + 4, p.y, {
        width: w - 8,
        align: 'center',
        lineBreak: false,
        ellipsis: true,
      });
    });
    p.y += 84;
  }
  doc.fillColor(INK);
}

function widget(p: Pages, content: ReportContent, w: WidgetContent): void {
  p.title(w.title);
  switch (w.kind) {
    case 'series':
      if (w.series.length === 0) p.note('No data streams to show.');
      else if (w.type === 'line') lineChart(p, content, w.series);
      else if (w.type === 'bar') barChart(p, content, w.series);
      else stateTimeline(p, content, w.series);
      break;
    case 'latest':
      if (w.rows.length === 0) p.note('No data streams to show.');
      else if (w.type === 'value') valueTiles(p, w.rows);
      else if (w.type === 'gauge') gauges(p, w.rows, w.min, w.max);
      else
        p.table(
          ['Data stream', 'Latest value', 'At'],
          w.rows.map((r) => [
            r.name,
            formatValue(r.value, r.unit),
            r.ts === null ? '–' : formatTime(r.ts, content.tz),
          ]),
          [0.5, 0.25, 0.25],
        );
      break;
    case 'alarms':
      if (w.rows.length === 0) p.note('No alarms.');
      else
        p.table(
          ['Alarm', 'Asset', 'Severity', 'State'],
          w.rows.map((r) => [r.name, r.asset, r.severity, r.state]),
          [0.4, 0.3, 0.15, 0.15],
        );
      break;
    case 'map':
      if (w.rows.length === 0) p.note('No assets.');
      else
        p.table(
          ['Asset', 'Latitude', 'Longitude'],
          w.rows.map((r) => [
            r.name,
            r.position === null ? 'not placed' : r.position.lat.toFixed(5),
            r.position === null ? '' : r.position.lng.toFixed(5),
          ]),
          [0.5, 0.25, 0.25],
        );
      break;
    case 'text': {
      const text = w.text.trim();
      if (text === '') break;
      p.font().fontSize(10).fillColor(INK);
      for (const paragraph of text.split(/\n+/)) {
        const h = p.doc.heightOfString(paragraph, { width: WIDTH });
        p.need(Math.min(h, BOTTOM - TOP));
        p.doc.text(paragraph, MARGIN, p.y, { width: WIDTH });
        p.y = p.doc.y + 4;
      }
      break;
    }
  }
  p.gap();
}

/** The characters of WinAnsi (the standard fonts' encoding) beyond Latin-1. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Whether Helvetica (WinAnsi) can write every character of the text. */
function winAnsi(text: string): boolean {
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || c === 0x0a) continue;
    if (!WIN_ANSI_EXTRA.has(ch)) return false;
  }
  return true;
}

/** Every text the PDF writes that is not ours (ours are ASCII). */
function textsOf(content: ReportContent): string[] {
  const out = [content.title, content.reportName, content.tz];
  for (const w of content.widgets) {
    out.push(w.title);
    if (w.kind === 'series') for (const s of w.series) out.push(s.name, s.unit);
    else if (w.kind === 'latest')
      for (const r of w.rows) out.push(r.name, r.unit, typeof r.value === 'string' ? r.value : '');
    else if (w.kind === 'alarms')
      for (const r of w.rows) out.push(r.name, r.asset, r.severity, r.state);
    else if (w.kind === 'map') for (const r of w.rows) out.push(r.name);
    else out.push(w.text);
    if (w.kind === 'series' && w.type === 'state')
      for (const s of w.series)
        for (const p of s.points) if (typeof p[1] === 'string') out.push(p[1]);
  }
  return out;
}

/**
 * The fonts 'regular' and 'bold' for texts: Helvetica when it can write every one (three times
 * cheaper: nothing embedded), else DejaVu Sans (Cyrillic, Greek, …). The booklet's PDF uses it too.
 */
export function registerFonts(doc: PDFKit.PDFDocument, texts: readonly string[]): void {
  if (dejaVu !== undefined && !texts.every(winAnsi)) {
    doc.registerFont('regular', dejaVu.regular);
    doc.registerFont('bold', dejaVu.bold);
  } else {
    doc.registerFont('regular', 'Helvetica');
    doc.registerFont('bold', 'Helvetica-Bold');
  }
}

/** The report's PDF as bytes. */
export function renderPdf(content: ReportContent): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
      bufferPages: true,
      compress: true,
      info: {
        Title: `${content.title}: ${content.reportName}`,
        Producer: 'plant',
        Creator: 'plant',
      },
    });
    registerFonts(doc, textsOf(content));
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      const p = new Pages(doc, content);
      if (content.widgets.length === 0) p.note('This dashboard has no widgets.');
      for (const w of content.widgets) widget(p, content, w);
      // Page numbers, in the bottom margin (no new page for them).
      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i += 1) {
        doc.switchToPage(i);
        const bottom = doc.page.margins.bottom;
        doc.page.margins.bottom = 0;
        doc.font('regular').fontSize(8).fillColor(GREY);
        doc.text(`${i + 1} / ${range.count}`, MARGIN, A4.height - MARGIN, {
          width: WIDTH,
          align: 'right',
          lineBreak: false,
        });
        doc.page.margins.bottom = bottom;
      }
      doc.end();
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
