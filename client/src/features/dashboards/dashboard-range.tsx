import { lazy, Suspense, useState } from 'react';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Button, Group, Loader, Popover, SegmentedControl } from '@mantine/core';
import type { DashboardRange } from '@plant/shared-schema';
import { lastSpanText } from '../../components/last-span';

/** The quick picks: the spans a dashboard is most often looked at over. */
const QUICK = [
  { key: '2h', last: 2, unit: 'hours', label: msg`2 h` },
  { key: '24h', last: 24, unit: 'hours', label: msg`24 h` },
  { key: '7d', last: 7, unit: 'days', label: msg`7 d` },
  { key: '30d', last: 30, unit: 'days', label: msg`30 d` },
] as const;

/* The form of "the last N …" and a fixed range opens on a click: a chunk of its own. */
const RangeForm = lazy(() =>
  import('./dashboard-range-form').then((m) => ({ default: m.RangeForm })),
);

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
            {value.kind === 'relative'
              ? lastSpanText(i18n, value.last, value.unit)
              : `${fmt(props.resolved.from)} – ${fmt(props.resolved.to)}`}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          {open ? (
            <Suspense
              fallback={<Loader size="sm" role="status" aria-label={t`Loading the form…`} />}
            >
              <RangeForm
                value={value}
                resolved={props.resolved}
                onPick={(range) => {
                  props.onChange(range);
                  setOpen(false);
                }}
              />
            </Suspense>
          ) : null}
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}
