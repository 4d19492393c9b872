import { lazy, Suspense, useState } from 'react';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Button, Group, Loader, Popover, SegmentedControl } from '@mantine/core';
import { useAtom } from 'jotai';
import { lastSpanText } from './last-span';
import {
  dateRangeAtom,
  relativeRange,
  type DateRange,
  type RelativeUnit,
} from '../state/date-range';

/* The custom range's form opens on a click: its chunk after the page. */
const CustomRangeForm = lazy(() =>
  import('./date-range-custom').then((m) => ({ default: m.CustomRangeForm })),
);

/** `datetime-local` text for a time, in the browser's zone. */
export function localInput(ts: number): string {
  const d = new Date(ts - new Date(ts).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/**
 * The shared date range (spec 000 §4) as a control: quick choices, "last N hours, days, weeks or
 * months", or a fixed range; every time-based screen reads the same range.
 */
export const UNITS: readonly { value: RelativeUnit; label: ReturnType<typeof msg> }[] = [
  { value: 'hours', label: msg`hours` },
  { value: 'days', label: msg`days` },
  { value: 'weeks', label: msg`weeks` },
  { value: 'months', label: msg`months` },
];

const QUICK = [
  { key: '2h', span: { amount: 2, unit: 'hours' }, label: msg`2 h` },
  { key: '24h', span: { amount: 24, unit: 'hours' }, label: msg`24 h` },
  { key: '7d', span: { amount: 7, unit: 'days' }, label: msg`7 d` },
  { key: '30d', span: { amount: 30, unit: 'days' }, label: msg`30 d` },
] as const;

export function describeRange(i18n: ReturnType<typeof useLingui>['i18n'], range: DateRange) {
  const fmt = (ts: number) => i18n.date(new Date(ts), { dateStyle: 'medium', timeStyle: 'short' });
  return `${fmt(range.from)} – ${fmt(range.to)}`;
}

export function DateRangeControl() {
  const { t, i18n } = useLingui();
  const [range, setRange] = useAtom(dateRangeAtom);
  const [open, setOpen] = useState(false);
  const quick = QUICK.find(
    (q) =>
      range.mode === 'relative' &&
      range.relative?.amount === q.span.amount &&
      range.relative.unit === q.span.unit,
  );

  const last = range.mode === 'relative' ? range.relative : undefined;

  return (
    <Group gap="xs" wrap="wrap" data-testid="date-range">
      <SegmentedControl
        size="xs"
        aria-label={t`Time range`}
        value={quick?.key ?? ''}
        onChange={(key) => {
          const q = QUICK.find((x) => x.key === key);
          if (q !== undefined) setRange(relativeRange(q.span, Date.now()));
        }}
        data={QUICK.map((q) => ({ value: q.key, label: i18n._(q.label) }))}
      />
      <Popover opened={open} onChange={setOpen} position="bottom-end" withArrow trapFocus>
        <Popover.Target>
          <Button size="xs" variant="default" onClick={() => setOpen((o) => !o)}>
            {last !== undefined
              ? lastSpanText(i18n, last.amount, last.unit)
              : describeRange(i18n, range)}
          </Button>
        </Popover.Target>
        <Popover.Dropdown data-testid="date-range-custom">
          {/* Its fields (NumberInput, Select: about 9 KB) load on the first opening: the stream
              page's first visit stays within its budget. */}
          <Suspense fallback={<Loader size="sm" role="status" aria-label={t`Loading the form…`} />}>
            <CustomRangeForm onDone={() => setOpen(false)} />
          </Suspense>
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}
