import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Table, Text } from '@mantine/core';

/** One day's figure. */
export interface DayFigure {
  /** UTC day, YYYY-MM-DD. */
  readonly day: string;
  readonly value: number;
}

const WIDTH = 360;
const HEIGHT = 48;

/** A UTC day as the reader's short date. */
export function dayLabel(locale: string, day: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/**
 * A small bar chart of figures per day (the trend, a threat's days): a picture with a summary for
 * screen readers, and the figures as a table behind a disclosure for anyone who wants them.
 */
export function DayBars(props: {
  readonly days: readonly DayFigure[];
  /** What the figures are ("Failing checks"), the picture's name. */
  readonly label: string;
  readonly color: string;
  /** Places on the axis (the period's days): the bars stand at its right end. Default: one per day. */
  readonly slots?: number;
  readonly testId?: string;
}) {
  const { t, i18n } = useLingui();
  const { days, label } = props;
  const max = Math.max(1, ...days.map((d) => d.value));
  const total = days.reduce((n, d) => n + d.value, 0);
  const first = days[0];
  const last = days.at(-1);
  const slots = Math.max(days.length, props.slots ?? days.length, 1);
  const width = WIDTH / slots;
  const offset = slots - days.length;
  const summary =
    first === undefined || last === undefined
      ? label
      : t`${label}: ${total} in ${days.length} days, ${last.value} on the last day (${dayLabel(i18n.locale, last.day)}), at most ${max}.`;
  return (
    <Box data-testid={props.testId}>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        height={HEIGHT}
        preserveAspectRatio="none"
        style={{ display: 'block', maxWidth: WIDTH * 2 }}
      >
        <line
          x1={0}
          y1={HEIGHT - 0.5}
          x2={WIDTH}
          y2={HEIGHT - 0.5}
          stroke="currentColor"
          opacity={0.3}
        />
        {days.map((d, i) => {
          const h = d.value === 0 ? 0 : Math.max(2, (d.value / max) * (HEIGHT - 2));
          return (
            <rect
              key={d.day}
              x={(offset + i) * width + width * 0.1}
              y={HEIGHT - h}
              width={Math.max(0.5, width * 0.8)}
              height={h}
              fill={props.color}
            >
              <title>{`${dayLabel(i18n.locale, d.day)}: ${d.value}`}</title>
            </rect>
          );
        })}
      </svg>
      <details>
        <summary>
          <Text component="span" size="xs" c="dimmed">
            <Trans>Show as a table</Trans>
          </Text>
        </summary>
        <Table aria-label={label} withTableBorder={false} verticalSpacing={2}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Day</Trans>
              </Table.Th>
              <Table.Th scope="col">{label}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...days].reverse().map((d) => (
              <Table.Tr key={d.day}>
                <Table.Th scope="row" fw="normal">
                  {dayLabel(i18n.locale, d.day)}
                </Table.Th>
                <Table.Td>{d.value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </details>
    </Box>
  );
}
