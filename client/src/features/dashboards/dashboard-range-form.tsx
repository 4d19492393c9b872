import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  dashboardRangeSchema,
  RANGE_UNITS,
  type DashboardRange,
  type RangeUnit,
} from '@plant/shared-schema';
import { localInput, UNITS } from '../../components/date-range-control';

/** The range popover's form (its own chunk): the last N hours … months, or a fixed range. */
export function RangeForm(props: {
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
