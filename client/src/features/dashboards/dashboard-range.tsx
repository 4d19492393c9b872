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
import {
  dashboardRangeSchema,
  RANGE_UNITS,
  type DashboardRange,
  type RangeUnit,
} from '@plant/shared-schema';
import { UNITS } from '../../components/date-range-control';

/** The quick picks: the spans a dashboard is most often looked at over. */
const QUICK = [
  { key: '2h', last: 2, unit: 'hours', label: msg`2 h` },
  { key: '24h', last: 24, unit: 'hours', label: msg`24 h` },
  { key: '7d', last: 7, unit: 'days', label: msg`7 d` },
  { key: '30d', last: 30, unit: 'days', label: msg`30 d` },
] as const;

/** `datetime-local` text for a time, in the browser's zone. */
function localInput(ts: number): string {
  const d = new Date(ts - new Date(ts).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/**
 * A dashboard's time range (spec 001 §2, default the last 2 hours): quick picks, the last N
 * hours, days, weeks or months, or a fixed range between two dates. Who may edit the dashboard
 * stores it in the model; anyone else keeps it for this visit (the page decides: `onChange`).
 */
export function DashboardRangeControl(props: {
  readonly value: DashboardRange;
  readonly resolved: { readonly from: number; readonly to: number };
  readonly onChange: (range: DashboardRange) => void;
}) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const { value } = props;
  const quick = QUICK.find(
    (q) => value.kind === 'relative' && value.last === q.last && value.unit === q.unit,
  );
  const unitLabel =
    value.kind === 'relative' ? UNITS.find((u) => u.value === value.unit)?.label : undefined;
  const fmt = (ts: number) => i18n.date(new Date(ts), { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Group gap="xs" wrap="wrap" data-testid="dashboard-range">
      <SegmentedControl
        size="xs"
        aria-label={t`Time range`}
        value={quick?.key ?? ''}
        onChange={(key) => {
          const q = QUICK.find((x) => x.key === key);
          if (q !== undefined) props.onChange({ kind: 'relative', last: q.last, unit: q.unit });
        }}
        data={QUICK.map((q) => ({ value: q.key, label: i18n._(q.label) }))}
      />
      <Popover opened={open} onChange={setOpen} position="bottom-end" withArrow trapFocus>
        <Popover.Target>
          <Button
            size="xs"
            variant="default"
            onClick={() => setOpen((o) => !o)}
            data-testid="dashboard-range-button"
          >
            {value.kind === 'relative' && unitLabel !== undefined ? (
              <Trans>
                Last {value.last} {i18n._(unitLabel)}
              </Trans>
            ) : (
              `${fmt(props.resolved.from)} – ${fmt(props.resolved.to)}`
            )}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          {open ? (
            <RangeForm
              value={value}
              resolved={props.resolved}
              onPick={(range) => {
                props.onChange(range);
                setOpen(false);
              }}
            />
          ) : null}
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}

function RangeForm(props: {
  readonly value: DashboardRange;
  readonly resolved: { readonly from: number; readonly to: number };
  readonly onPick: (range: DashboardRange) => void;
}) {
  const { t, i18n } = useLingui();
  const relative = props.value.kind === 'relative' ? props.value : null;
  const [last, setLast] = useState<number | string>(relative?.last ?? 2);
  const [unit, setUnit] = useState<RangeUnit>(relative?.unit ?? 'hours');
  const [from, setFrom] = useState(localInput(props.resolved.from));
  const [to, setTo] = useState(localInput(props.resolved.to));
  const [error, setError] = useState<{ field: 'last' | 'to'; text: string } | null>(null);

  const pickRelative = () => {
    const parsed = dashboardRangeSchema.safeParse({ kind: 'relative', last: Number(last), unit });
    if (!parsed.success || last === '') {
      setError({ field: 'last', text: t`Between 1 and 1,000.` });
      return;
    }
    props.onPick(parsed.data);
  };
  const pickFixed = () => {
    const parsed = dashboardRangeSchema.safeParse({
      kind: 'fixed',
      from: new Date(from).getTime(),
      to: new Date(to).getTime(),
    });
    if (!parsed.success) {
      setError({ field: 'to', text: t`The start of the range must be before its end.` });
      return;
    }
    props.onPick(parsed.data);
  };

  return (
    <Stack gap="sm" w={300} maw="calc(100vw - 48px)" data-testid="dashboard-range-form">
      <Text size="sm" fw={600}>
        <Trans>The last</Trans>
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start" grow preventGrowOverflow={false}>
        <NumberInput
          label={t`Amount`}
          min={1}
          max={1000}
          value={last}
          onChange={setLast}
          error={error?.field === 'last' ? error.text : undefined}
          miw={0}
          data-autofocus
        />
        <Select
          label={t`Unit`}
          value={unit}
          allowDeselect={false}
          onChange={(v) => {
            const picked = RANGE_UNITS.find((u) => u === v);
            if (picked !== undefined) setUnit(picked);
          }}
          data={UNITS.map((u) => ({ value: u.value, label: i18n._(u.label) }))}
          miw={0}
        />
      </Group>
      <Button size="sm" onClick={pickRelative} fullWidth>
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
        error={error?.field === 'to' ? error.text : undefined}
      />
      <Button size="sm" variant="light" onClick={pickFixed} fullWidth>
        <Trans>Show this range</Trans>
      </Button>
    </Stack>
  );
}
