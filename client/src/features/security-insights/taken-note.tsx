import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Text } from '@mantine/core';
import { absoluteTime } from '../../components/time-ago';

/**
 * When the figures shown were taken ("As of …"), and, when they are the ones this device kept
 * because the server did not answer, why, with a way to ask again.
 */
export function TakenNote(props: {
  readonly takenAt: number;
  readonly fromDevice: boolean;
  readonly pending: boolean;
  readonly error: string | null;
  readonly onRetry: () => void;
}) {
  const { i18n } = useLingui();
  const time = absoluteTime(i18n, props.takenAt);
  return (
    <>
      <Text size="sm" c="dimmed" data-testid="insights-taken" aria-live="polite">
        <Trans>
          As of <time dateTime={new Date(props.takenAt).toISOString()}>{time}</time>
        </Trans>
        {props.pending ? (
          <>
            {' · '}
            <Trans>asking the server…</Trans>
          </>
        ) : null}
      </Text>
      {props.fromDevice && !props.pending ? (
        <Alert color="yellow" data-testid="insights-kept">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Text size="sm">
              <Trans>This is the last state this device kept: the server could not be asked.</Trans>{' '}
              {props.error ?? ''}
            </Text>
            <Button size="xs" variant="default" onClick={props.onRetry}>
              <Trans>Try again</Trans>
            </Button>
          </Group>
        </Alert>
      ) : null}
    </>
  );
}
