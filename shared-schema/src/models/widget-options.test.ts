import { describe, expect, it } from 'vitest';
import { dashboardAttributesSchema } from './dashboard';
import { WIDGET_OPTION_TEXTS, widgetOptions, widgetOptionsSchemas } from './widget-options';

/*
 * Each widget type's options (issue 31 item 2): checked by the type's schema inside the
 * dashboard's (the server's write and the browser's form), each problem under its option.
 */
const widget = (over: Record<string, unknown>) => ({
  id: 'w1',
  type: 'gauge',
  x: 0,
  y: 0,
  w: 6,
  h: 6,
  streams: ['s1'],
  options: {},
  ...over,
});

function issuesOf(widgets: unknown[]) {
  const parsed = dashboardAttributesSchema.safeParse({ name: 'Plant', widgets });
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => ({ path: i.path, message: i.message }));
}

describe('widget options', () => {
  it('accepts every type with no options, and good options', () => {
    for (const type of Object.keys(widgetOptionsSchemas)) {
      const streams = ['alarms', 'map', 'text'].includes(type) ? [] : ['s1'];
      expect(issuesOf([widget({ type, streams })])).toEqual([]);
    }
    expect(
      issuesOf([
        widget({ options: { min: 0, max: 120, decimals: 1 } }),
        widget({ id: 'w2', type: 'bar', options: { bucket: 'day', aggregate: 'max' } }),
        widget({ id: 'w3', type: 'text', streams: [], options: { text: '# Plant\n**ok**' } }),
        widget({ id: 'w4', type: 'alarms', streams: [], options: { raised_only: true } }),
      ]),
    ).toEqual([]);
  });

  it("refuses a bad option at its field in the dashboard's widgets", () => {
    expect(issuesOf([widget({ options: { min: 10, max: 5 } })])).toEqual([
      { path: ['widgets', 0, 'options', 'max'], message: WIDGET_OPTION_TEXTS.minBelowMax },
    ]);
    expect(issuesOf([widget({ type: 'value', options: { decimals: 9 } })])).toEqual([
      { path: ['widgets', 0, 'options', 'decimals'], message: WIDGET_OPTION_TEXTS.decimals },
    ]);
    // An option another type has, or none at all, is refused (strict per type).
    expect(issuesOf([widget({ type: 'line', options: { decimals: 2 } })])[0]?.path).toEqual([
      'widgets',
      0,
      'options',
    ]);
    expect(issuesOf([widget({ type: 'bar', options: { bucket: 'minute' } })])[0]?.path).toEqual([
      'widgets',
      0,
      'options',
      'bucket',
    ]);
    expect(
      issuesOf([widget({ type: 'text', streams: [], options: { text: 'x'.repeat(2001) } })]),
    ).toEqual([
      { path: ['widgets', 0, 'options', 'text'], message: WIDGET_OPTION_TEXTS.textTooLong },
    ]);
  });

  it('limits the streams per type', () => {
    expect(issuesOf([widget({ type: 'value', streams: ['a', 'b'] })])).toEqual([
      { path: ['widgets', 0, 'streams'], message: WIDGET_OPTION_TEXTS.oneStream },
    ]);
    expect(issuesOf([widget({ type: 'text', streams: ['a'] })])).toEqual([
      { path: ['widgets', 0, 'streams'], message: WIDGET_OPTION_TEXTS.noStreams },
    ]);
  });

  it('reads defaults for options left out, and for options that do not pass', () => {
    expect(widgetOptions('bar', {})).toEqual({ bucket: 'hour', aggregate: 'avg' });
    expect(widgetOptions('bar', { bucket: 'week' })).toEqual({ bucket: 'week', aggregate: 'avg' });
    expect(widgetOptions('gauge', { min: 5, max: 1 })).toEqual({
      min: null,
      max: null,
      decimals: null,
    });
    expect(widgetOptions('text', { text: 'hi' })).toEqual({ text: 'hi' });
  });
});
