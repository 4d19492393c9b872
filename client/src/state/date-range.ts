import { atom } from 'jotai';
import { readString, STORAGE_KEYS, writeString } from './storage';

/**
 * The date range every time-based screen shares (spec 000 §3/§4 datepicker state), kept in the
 * spec's stored keys. Historic: a fixed from/to. Relative: the last `duration`, sliding with now.
 */
export type DateRangeMode = 'historic' | 'relative';

export interface DateRange {
  /** ms since the epoch */
  readonly from: number;
  readonly to: number;
  readonly mode: DateRangeMode;
  /** Relative ranges: their length in ms (months are calendar months at resolve time: 0 here). */
  readonly duration: number;
  /** Relative ranges: what the user chose, e.g. { amount: 3, unit: 'days' }. */
  readonly relative?: RelativeSpan;
}

export type RelativeUnit = 'hours' | 'days' | 'weeks' | 'months';
export interface RelativeSpan {
  readonly amount: number;
  readonly unit: RelativeUnit;
}

/** Spec 000 §4: the default range is the last 2 hours. */
export const DEFAULT_RELATIVE: RelativeSpan = { amount: 2, unit: 'hours' };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function startOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

function endOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(23, 59, 59, 0);
  return d.getTime();
}

/** Today, 00:00:00 to 23:59:59, historic, duration 0 (spec 000 §4's reset). */
export function todayRange(now: number): DateRange {
  return { from: startOfDay(now), to: endOfDay(now), mode: 'historic', duration: 0 };
}

/** The range for "last N hours/days/weeks/months" ending now. Months count calendar months. */
export function relativeRange(span: RelativeSpan, now: number): DateRange {
  if (!Number.isInteger(span.amount) || span.amount < 1) {
    throw new RangeError('A relative range needs a whole number of at least 1.');
  }
  let from: number;
  switch (span.unit) {
    case 'hours':
      from = now - span.amount * HOUR;
      break;
    case 'days':
      from = now - span.amount * DAY;
      break;
    case 'weeks':
      from = now - span.amount * 7 * DAY;
      break;
    case 'months': {
      const d = new Date(now);
      d.setMonth(d.getMonth() - span.amount);
      from = d.getTime();
      break;
    }
    default: {
      const never: never = span.unit;
      throw new Error(`unknown unit ${String(never)}`);
    }
  }
  return { from, to: now, mode: 'relative', duration: now - from, relative: span };
}

/** A historic range chosen by the user; from after to is refused. */
export function historicRange(from: number, to: number): DateRange {
  if (!Number.isFinite(from) || !Number.isFinite(to) || from > to) {
    throw new RangeError('The start of a date range must not be after its end.');
  }
  return { from, to, mode: 'historic', duration: 0 };
}

/** The range as of now: a relative range slides, a historic one stays. */
export function resolveRange(range: DateRange, now: number): DateRange {
  return range.mode === 'relative' && range.relative !== undefined
    ? relativeRange(range.relative, now)
    : range;
}

function parseSpan(raw: string | null): RelativeSpan | undefined {
  const m = /^(\d{1,4}) (hours|days|weeks|months)$/.exec(raw ?? '');
  if (m === null) return undefined;
  const amount = Number(m[1]);
  return amount >= 1 ? { amount, unit: m[2] as RelativeUnit } : undefined;
}

/**
 * The stored range, or today's when the stored one is missing, invalid or was set on an earlier
 * day than `now` (spec 000 §4). A reset is stored at once.
 */
export function loadDateRange(now: number): DateRange {
  const from = Number(readString(STORAGE_KEYS.dateFrom) ?? NaN);
  const to = Number(readString(STORAGE_KEYS.dateTo) ?? NaN);
  const setAt = Number(readString(STORAGE_KEYS.dateSetAt) ?? NaN);
  const mode = readString(STORAGE_KEYS.dateMode) ?? 'historic';
  const valid =
    Number.isFinite(from) &&
    Number.isFinite(to) &&
    Number.isFinite(setAt) &&
    from <= to &&
    (mode === 'historic' || mode === 'relative');
  if (!valid || setAt < startOfDay(now) || setAt > now + DAY) {
    const today = todayRange(now);
    saveDateRange(today, now);
    return today;
  }
  if (mode === 'relative') {
    const span = parseSpan(readString(STORAGE_KEYS.dateDuration));
    if (span === undefined) {
      const today = todayRange(now);
      saveDateRange(today, now);
      return today;
    }
    return relativeRange(span, now);
  }
  return { from, to, mode: 'historic', duration: 0 };
}

export function saveDateRange(range: DateRange, now: number): void {
  writeString(STORAGE_KEYS.dateFrom, String(range.from));
  writeString(STORAGE_KEYS.dateTo, String(range.to));
  writeString(STORAGE_KEYS.dateMode, range.mode);
  writeString(
    STORAGE_KEYS.dateDuration,
    range.relative === undefined ? '0' : `${range.relative.amount} ${range.relative.unit}`,
  );
  writeString(STORAGE_KEYS.dateSetAt, String(now));
}

const rangeValue = atom<DateRange | null>(null);

/**
 * The shared date range. Read: the stored one (checked as loadDateRange says) on first use.
 * Write: a new range, stored with the time it was set.
 */
export const dateRangeAtom = atom(
  (get) => get(rangeValue) ?? loadDateRange(Date.now()),
  (_get, set, next: DateRange) => {
    const now = Date.now();
    saveDateRange(next, now);
    set(rangeValue, next);
  },
);
