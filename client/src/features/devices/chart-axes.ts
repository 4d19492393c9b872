import type { I18n } from '@lingui/core';

/*
 * What the stream page's chart (stream-chart.tsx) and the dashboard's line chart share on their
 * axes: the font (set so labels can be measured as drawn) and the tick labels. The formatters are
 * made once per locale: one made per tick (i18n.date, i18n.number) was most of a chart's redraw.
 */

export const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

const DAY_S = 86_400;

/** The locales a formatter uses: lingui's (the Plain language formats as English). */
function localesOf(i18n: I18n): string[] {
  const locales = i18n.locales ?? i18n.locale;
  return Array.isArray(locales) ? locales : [locales];
}

const timeFormats = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/**
 * The time axis's label of a tick (uPlot's seconds and step): the day ('29 Nov') when the ticks
 * are a day or more apart or at a midnight, else the time of day ('14:00').
 */
export function timeTickLabel(i18n: I18n): (ts: number, step: number) => string {
  const locales = localesOf(i18n);
  const key = locales.join(',');
  let made = timeFormats.get(key);
  if (made === undefined) {
    made = {
      day: new Intl.DateTimeFormat(locales, { day: 'numeric', month: 'short' }),
      time: new Intl.DateTimeFormat(locales, { hour: '2-digit', minute: '2-digit' }),
    };
    timeFormats.set(key, made);
  }
  const { day, time } = made;
  return (ts, step) => {
    const date = new Date(ts * 1000);
    const midnight = date.getHours() === 0 && date.getMinutes() === 0;
    return step >= DAY_S || (midnight && step < DAY_S) ? day.format(date) : time.format(date);
  };
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A value axis's number format with at most `digits` decimals. */
export function axisNumberFormat(i18n: I18n, digits: number): Intl.NumberFormat {
  const locales = localesOf(i18n);
  const key = `${locales.join(',')}|${digits}`;
  let made = numberFormats.get(key);
  if (made === undefined) {
    made = new Intl.NumberFormat(locales, { maximumFractionDigits: digits });
    numberFormats.set(key, made);
  }
  return made;
}
