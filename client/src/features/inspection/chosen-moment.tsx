import './catalogues';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Text } from '@mantine/core';
import { InspectButton } from './inspect-button';

/**
 * Below a stream's chart (devices/stream-page.tsx): how to pick a moment on it, the moment picked,
 * and its event inspection (issue 37 item 5: "any moment chosen on a diagram"). A chunk of the
 * inspection's, with its catalogue: the stream page's first visit carries neither.
 */
export default function ChosenMoment(props: {
  readonly assetId: string;
  /** The moment picked on the chart (ms), or none. */
  readonly moment: number | null;
  /** The hint's id, which the chart names as its description. */
  readonly hintId: string;
}) {
  const { i18n } = useLingui();
  const { moment } = props;
  return (
    <Group gap="sm" mt="xs" justify="space-between" data-testid="stream-moment">
      <Stack gap={0}>
        <Text size="sm" c="dimmed" id={props.hintId}>
          <Trans>
            Click the chart, or use the arrow keys on it, to choose a moment to inspect.
          </Trans>
        </Text>
        <Text size="sm" aria-live="polite" data-testid="stream-moment-chosen">
          {moment === null ? null : (
            <Trans>
              Chosen moment:{' '}
              {i18n.date(new Date(moment), { dateStyle: 'medium', timeStyle: 'medium' })}
            </Trans>
          )}
        </Text>
      </Stack>
      {moment === null ? null : (
        <InspectButton assetId={props.assetId} at={moment} alarmId={null} />
      )}
    </Group>
  );
}
