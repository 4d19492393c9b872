import { useState } from 'react';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  Group,
  NumberInput,
  Popover,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useAtom } from 'jotai';
import {
  dateRangeAtom,
  historicRange,
  relativeRange,
  type DateRange,
  type RelativeUnit,
} from '../state/date-range';

/**
 * The shared date range (spec 000 §4) as a control: quick choices, "last N hours, days, weeks or
 * months", or a fixed range; every time-based screen reads the same range.
 */
const UNITS: readonly { value: RelativeUnit; label: ReturnType<typeof msg> }[] = [
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

/** `datetime-local` text for a time, in the browser's zone. */
function localInput(ts: number): string {
  const d = new Date(ts - new Date(ts).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

export function describeRange(i18n: ReturnType<typeof useLingui>['i18n'], range: DateRange) {
  const fmt = (ts: number) => i18n.date(new Date(ts), { dateStyle: 'medium', timeStyle: 'short' });
  return `${fmt(range.from)} – ${fmt(range.to)}`;
}

export function DateRangeControl() {
  const { t, i18n } = useLingui();
  const [range, setRange] = useAtom(dateRangeAtom);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState<number | string>(range.relative?.amount ?? 2);
  const [unit, setUnit] = useState<RelativeUnit>(range.relative?.unit ?? 'hours');
  const [from, setFrom] = useState(localInput(range.from));
  const [to, setTo] = useState(localInput(range.to));
  const [error, setError] = useState<string | null>(null);
  const quick = QUICK.find(
    (q) =>
      range.mode === 'relative' &&
      range.relative?.amount === q.span.amount &&
      range.relative.unit === q.span.unit,
  );

  const lastAmount = range.mode === 'relative' ? range.relative?.amount : undefined;
  const unitLabel = UNITS.find((u) => u.value === range.relative?.unit)?.label;
  const lastUnit = unitLabel === undefined ? '' : i18n._(unitLabel);

  const applyRelative = () => {
    const n = Number(amount);
    if (!Number.isInteger(n) || n < 1 || n > 9999) {
      setError(t`Must be at least 1`);
      return;
    }
    setRange(relativeRange({ amount: n, unit }, Date.now()));
    setError(null);
    setOpen(false);
  };
  const applyHistoric = () => {
    const a = new Date(from).getTime();
    const b = new Date(to).getTime();
    if (!Number.isFinite(a) || !Number.isFinite(b) || a >= b) {
      setError(t`The start must be before the end`);
      return;
    }
    setRange(historicRange(a, b));
    setError(null);
    setOpen(false);
  };

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
            {lastAmount !== undefined ? (
              <Trans>
                Last {lastAmount} {lastUnit}
              </Trans>
            ) : (
              describeRange(i18n, range)
            )}
          </Button>
        </Popover.Target>
        <Popover.Dropdown data-testid="date-range-custom">
          {/* Each button on its own row, full width: a longer word (German, Russian) or a wider
              number field never pushes one past the edge (issue 30 item 8). */}
          <Stack gap="sm" w={300} maw="calc(100vw - 48px)">
            <Text size="sm" fw={600}>
              <Trans>The last</Trans>
            </Text>
            <Group gap="xs" wrap="nowrap" align="flex-end" grow preventGrowOverflow={false}>
              <NumberInput
                label={t`Amount`}
                min={1}
                max={9999}
                value={amount}
                onChange={setAmount}
                miw={0}
              />
              <Select
                label={t`Unit`}
                value={unit}
                allowDeselect={false}
                onChange={(v) => {
                  const picked = UNITS.find((u) => u.value === v);
                  if (picked !== undefined) setUnit(picked.value);
                }}
                data={UNITS.map((u) => ({ value: u.value, label: i18n._(u.label) }))}
                miw={0}
              />
            </Group>
            <Button size="sm" onClick={applyRelative} fullWidth>
              <Trans>Show</Trans>
            </Button>
            <Text size="sm" fw={600}>
              <Trans>A fixed range</Trans>
            </Text>
            <TextInput
              type="datetime-local"
              label={t`From`}
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
            />
            <TextInput
              type="datetime-local"
              label={t`To`}
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
            />
            <Button size="sm" variant="light" onClick={applyHistoric} fullWidth>
              <Trans>Show this range</Trans>
            </Button>
            {error === null ? null : (
              <Text size="sm" c="red" role="alert">
                {error}
              </Text>
            )}
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}
