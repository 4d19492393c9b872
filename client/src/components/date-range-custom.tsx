import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useAtom } from 'jotai';
import {
  dateRangeAtom,
  historicRange,
  relativeRange,
  type RelativeUnit,
} from '../state/date-range';
import { localInput, UNITS } from './date-range-control';

/**
 * The custom range popover's form (its own chunk, loaded on the first opening): "the last N
 * hours, days, weeks or months", or a fixed range. Starts from the shared range each time.
 */
export function CustomRangeForm({ onDone }: { readonly onDone: () => void }) {
  const { t, i18n } = useLingui();
  const [range, setRange] = useAtom(dateRangeAtom);
  const [amount, setAmount] = useState<number | string>(range.relative?.amount ?? 2);
  const [unit, setUnit] = useState<RelativeUnit>(range.relative?.unit ?? 'hours');
  const [from, setFrom] = useState(localInput(range.from));
  const [to, setTo] = useState(localInput(range.to));
  const [error, setError] = useState<string | null>(null);
  // The popover traps focus when it opens, before this form has loaded: focus its first field.
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const applyRelative = () => {
    const n = Number(amount);
    if (!Number.isInteger(n) || n < 1 || n > 9999) {
      setError(t`Must be at least 1`);
      return;
    }
    setRange(relativeRange({ amount: n, unit }, Date.now()));
    setError(null);
    onDone();
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
    onDone();
  };

  return (
    <>
      {/* Each button on its own row, full width: a longer word (German, Russian) or a wider
        number field never pushes one past the edge (issue 30 item 8). */}
      <Stack gap="sm" w={300} maw="calc(100vw - 48px)">
        <Text size="sm" fw={600}>
          <Trans>The last</Trans>
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-end" grow preventGrowOverflow={false}>
          <NumberInput
            ref={first}
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
    </>
  );
}
