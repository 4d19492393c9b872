import { afterEach, describe, expect, it, vi } from 'vitest';
import { widgetOptionsSchemas, WIDGET_OPTION_TEXTS } from '@plant/shared-schema';
import type { HistoryResult } from '@plant/sync-worker/api';
import { Chunk } from './chunks';
import { coverageOf } from './coverage';
import { gaugeAngle, gaugeBounds } from './gauge-math';
import { parseMarkdown, safeHref } from './markdown';
import { barsFromHours, barsOf, bucketStart, segmentsOf } from './segments';
import { settingsProblems, type SettingsDraft } from './settings-rules';
import { SharedStore } from './shared-store';

/* The widgets' pure parts (issue 31 item 2, 3). */

afterEach(() => {
  vi.useRealTimers();
});

describe('shared widget reads', () => {
  it('opens one read per key however many widgets follow it, and closes it after the last', () => {
    vi.useFakeTimers();
    const closed: string[] = [];
    const pushes = new Map<string, (v: unknown) => void>();
    const store = new SharedStore((key, onValue) => {
      pushes.set(key, onValue);
      return () => closed.push(key);
    }, 1000);
    let heard = 0;
    const stopA = store.follow('s1|2h', () => (heard += 1));
    const stopB = store.follow('s1|2h', () => (heard += 1));
    const stopC = store.follow('s2|2h', () => undefined);
    expect(store.opened).toBe(2);
    pushes.get('s1|2h')?.(42);
    expect(heard).toBe(2);
    expect(store.get('s1|2h').value).toBe(42);
    stopA();
    stopB();
    // A widget that comes back within the moment finds the read still open.
    const again = store.follow('s1|2h', () => undefined);
    vi.advanceTimersByTime(2000);
    expect(closed).toEqual([]);
    expect(store.opened).toBe(2);
    again();
    stopC();
    vi.advanceTimersByTime(2000);
    expect(closed.sort()).toEqual(['s1|2h', 's2|2h']);
    expect(store.size).toBe(0);
  });

  it('opens a key touched while a widget renders; its follower takes it over, else it closes', () => {
    vi.useFakeTimers();
    const closed: string[] = [];
    const store = new SharedStore((key, onValue) => {
      onValue(`value of ${key}`);
      return () => closed.push(key);
    }, 1000);
    store.touch('s1|2h');
    store.touch('s1|2h');
    store.touch('s2|2h');
    expect(store.opened).toBe(2);
    // The widget's effect subscribes later and finds the read open, its value there.
    const stop = store.follow('s1|2h', () => undefined);
    expect(store.opened).toBe(2);
    expect(store.get('s1|2h').value).toBe('value of s1|2h');
    vi.advanceTimersByTime(1500);
    // Followed: still open; touched only: closed after the linger.
    expect(closed).toEqual(['s2|2h']);
    stop();
    vi.advanceTimersByTime(1500);
    expect(closed).toEqual(['s2|2h', 's1|2h']);
  });
});

describe("the dashboard's chunks", () => {
  it('loads a chunk once, holds its module for renders, and tries a failed load again', async () => {
    let calls = 0;
    let fail = true;
    const chunk = new Chunk(() => {
      calls += 1;
      return fail ? Promise.reject(new Error('no network')) : Promise.resolve({ made: calls });
    });
    await expect(chunk.load()).rejects.toThrow('no network');
    expect(chunk.module).toBeUndefined();
    fail = false;
    // Asked for twice while loading: one import.
    const [a, b] = await Promise.all([chunk.load(), chunk.load()]);
    expect(a).toBe(b);
    expect(calls).toBe(2);
    expect(chunk.module).toEqual({ made: 2 });
    await chunk.load();
    expect(calls).toBe(2);
  });
});

describe('what a widget holds offline', () => {
  const result = (held: { from: number; to: number }[][]): HistoryResult => ({
    from: 0,
    to: 1_000_000,
    loading: false,
    offline: true,
    series: held.map((h, i) => ({
      stream: `s${i}`,
      ts: [],
      values: [],
      downsampled: false,
      held: h,
    })),
  });
  it('says full, part (from the earliest to the latest held time) or none', () => {
    expect(coverageOf([result([[{ from: 0, to: 1_000_000 }]])], 1000)).toEqual({ kind: 'full' });
    expect(coverageOf([result([[{ from: 300_000, to: 800_000 }]])], 1000)).toEqual({
      kind: 'part',
      from: 300_000,
      to: 800_000,
    });
    expect(
      coverageOf(
        [result([[{ from: 0, to: 500_000 }]]), result([[{ from: 100_000, to: 900_000 }]])],
        1000,
      ),
    ).toEqual({ kind: 'part', from: 0, to: 900_000 });
    // A gap inside counts as not full.
    expect(
      coverageOf(
        [
          result([
            [
              { from: 0, to: 400_000 },
              { from: 600_000, to: 1_000_000 },
            ],
          ]),
        ],
        1000,
      ).kind,
    ).toBe('part');
    expect(coverageOf([result([[]])], 1000)).toEqual({ kind: 'none' });
    expect(coverageOf([undefined], 1000)).toEqual({ kind: 'full' });
    // The live lag at the end is within the slack.
    expect(coverageOf([result([[{ from: 0, to: 999_500 }]])], 1000)).toEqual({ kind: 'full' });
  });
});

describe('the text widget markdown', () => {
  it('parses headings, paragraphs, lists and inline marks; never HTML', () => {
    expect(
      parseMarkdown('# Plant\nLine one\nline **two**\n\n- a\n- *b*\n1. c\n\n<b>x</b> `y`'),
    ).toEqual([
      { kind: 'heading', level: 1, children: [{ kind: 'text', text: 'Plant' }] },
      {
        kind: 'paragraph',
        children: [
          { kind: 'text', text: 'Line one line ' },
          { kind: 'strong', children: [{ kind: 'text', text: 'two' }] },
        ],
      },
      {
        kind: 'list',
        ordered: false,
        items: [
          [{ kind: 'text', text: 'a' }],
          [{ kind: 'em', children: [{ kind: 'text', text: 'b' }] }],
        ],
      },
      { kind: 'list', ordered: true, items: [[{ kind: 'text', text: 'c' }]] },
      {
        kind: 'paragraph',
        children: [
          { kind: 'text', text: '<b>x</b> ' },
          { kind: 'code', text: 'y' },
        ],
      },
    ]);
  });
  it('links only to http(s), mailto and this site', () => {
    expect(parseMarkdown('[a](https://example.com/x)')[0]).toEqual({
      kind: 'paragraph',
      children: [
        { kind: 'link', href: 'https://example.com/x', children: [{ kind: 'text', text: 'a' }] },
      ],
    });
    expect(parseMarkdown('[a](javascript:alert(1))')[0]).toEqual({
      kind: 'paragraph',
      children: [{ kind: 'text', text: '[a](javascript:alert(1))' }],
    });
    expect(safeHref('/app/devices/list')).toBe('/app/devices/list');
    expect(safeHref('//evil.example')).toBeNull();
    expect(safeHref('/\\evil.example')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
  });
});

describe('states and bars', () => {
  it('turns points into spans of one value, each holding until the next', () => {
    expect(segmentsOf([10, 20, 30, 40], [1, 1, 2, 1], 0, 100, 50)).toEqual([
      { from: 10, to: 30, value: 1 },
      { from: 30, to: 40, value: 2 },
      { from: 40, to: 50, value: 1 },
    ]);
    expect(segmentsOf([10], ['run'], 20, 100)).toEqual([{ from: 20, to: 100, value: 'run' }]);
  });
  it('sums points up per hour, day or week', () => {
    const h = 3_600_000;
    const start = bucketStart(Date.UTC(2026, 10, 24, 10, 30), 'hour');
    const ts = [start + 1000, start + 2000, start + h + 1000];
    const bars = barsOf(ts, [1, 3, 10], start, start + 2 * h - 1, 'hour', 'avg');
    expect(bars.map((b) => b.value)).toEqual([2, 10]);
    expect(
      barsOf(ts, [1, 3, 10], start, start + 2 * h - 1, 'hour', 'max').map((b) => b.value),
    ).toEqual([3, 10]);
    // A bucket without points has no bar; texts are not counted.
    expect(barsOf([start + 1], ['x'], start, start + h - 1, 'hour', 'min')).toEqual([
      { from: start, to: start + h, value: null },
    ]);
    // From the server's hourly rollups: exact, the average is the sum over the count.
    const fromHours = barsFromHours(
      [
        [start, 2, 4, 1, 3],
        [start + h, 1, 10, 10, 10],
        [start + 2 * h, 3, 3, 0, 2],
      ],
      start,
      start + 3 * h - 1,
      'hour',
      'avg',
    );
    expect(fromHours.map((b) => b.value)).toEqual([2, 10, 1]);
    // Hours fold into their week: one bar, the sum over the count of all three.
    const week = barsFromHours(
      [
        [start, 2, 4, 1, 3],
        [start + h, 1, 10, 10, 10],
      ],
      start,
      start + 2 * h - 1,
      'week',
      'avg',
    );
    expect(week.at(-1)?.value).toBe(14 / 3);
    expect(
      barsFromHours([[start, 2, 4, 1, 3]], start, start + h - 1, 'hour', 'max').map((b) => b.value),
    ).toEqual([3]);
    const monday = bucketStart(Date.UTC(2026, 10, 26, 12), 'week');
    expect(new Date(monday).getDay()).toBe(1);
    expect(new Date(bucketStart(Date.UTC(2026, 10, 26, 12), 'day')).getHours()).toBe(0);
  });
});

describe('the gauge', () => {
  it("takes the widget's bounds, else the stream's, else 0 to 100", () => {
    expect(gaugeBounds({ min: null, max: null }, { vis_min: 10, vis_max: 90 })).toEqual({
      min: 10,
      max: 90,
    });
    expect(gaugeBounds({ min: 0, max: 200 }, { vis_min: 10, vis_max: 90 })).toEqual({
      min: 0,
      max: 200,
    });
    expect(gaugeBounds({ min: null, max: null }, { vis_min: null, vis_max: null })).toEqual({
      min: 0,
      max: 100,
    });
    expect(gaugeBounds({ min: 50, max: null }, { vis_min: null, vis_max: 20 }).max).toBeGreaterThan(
      50,
    );
    expect(gaugeAngle(50, 0, 200)).toBe(0.25);
    expect(gaugeAngle(500, 0, 200)).toBe(1);
    expect(gaugeAngle(-5, 0, 200)).toBe(0);
  });
});

describe('the settings form check', () => {
  const draft: SettingsDraft = {
    title: '',
    streams: ['s1'],
    min: '',
    max: '',
    decimals: '',
    bucket: 'hour',
    aggregate: 'avg',
    raisedOnly: false,
    text: '',
  };
  it('turns the fields into options, each problem under its field', () => {
    expect(
      settingsProblems('gauge', { ...draft, min: '0', max: '120' }, 0, widgetOptionsSchemas.gauge),
    ).toEqual({
      options: { min: 0, max: 120, decimals: null },
      problems: {},
    });
    expect(
      settingsProblems('gauge', { ...draft, min: '9', max: '3' }, 0, widgetOptionsSchemas.gauge),
    ).toEqual({
      options: null,
      problems: { max: WIDGET_OPTION_TEXTS.minBelowMax },
    });
    expect(
      settingsProblems(
        'value',
        { ...draft, streams: [], decimals: '8' },
        0,
        widgetOptionsSchemas.value,
      ),
    ).toEqual({
      options: null,
      problems: { streams: 'choose-stream', decimals: WIDGET_OPTION_TEXTS.decimals },
    });
    // A stream the user may not see counts: a value widget keeps its one stream.
    expect(
      settingsProblems('value', { ...draft, streams: ['s2'] }, 1, widgetOptionsSchemas.value)
        .problems,
    ).toEqual({
      streams: WIDGET_OPTION_TEXTS.oneStream,
    });
    expect(
      settingsProblems(
        'text',
        { ...draft, streams: [], text: '# hi' },
        0,
        widgetOptionsSchemas.text,
      ).options,
    ).toEqual({
      text: '# hi',
    });
  });
});
