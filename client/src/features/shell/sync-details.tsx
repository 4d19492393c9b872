import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import type { PendingWrite } from '@plant/sync-worker/api';
import { translateServerText } from '../../i18n/server-texts';
import { usePendingWrites } from '../../sync/pending';
import { offlineReadinessAtom, syncStatusAtom } from '../../sync/status';
import { syncWorker } from '../../sync/worker';
import { shownValue, writeTitle, writtenValues } from './write-texts';

/**
 * The sync indicator's details (issue 30 item 14): when the local store last caught up, whether
 * this device opens the app without a network, and every change waiting to be sent, each saying
 * what it changes; a refused one can be sent again or given up.
 */
export function SyncDetails() {
  const status = useAtomValue(syncStatusAtom);
  const readiness = useAtomValue(offlineReadinessAtom);
  const writes = usePendingWrites();
  const last =
    status.lastSyncedAt === null ? null : new Date(status.lastSyncedAt).toLocaleTimeString();
  return (
    <Stack gap="xs" data-testid="sync-details">
      <Text size="sm">
        {last === null ? <Trans>Not synced yet</Trans> : <Trans>Last synced at {last}</Trans>}
      </Text>
      <Text size="sm" c={readiness === 'ready' ? 'green' : 'dimmed'} data-offline={readiness}>
        {readiness === 'ready' ? (
          <Trans>This device is ready for offline use.</Trans>
        ) : readiness === 'preparing' ? (
          <Trans>Preparing this device for offline use…</Trans>
        ) : (
          <Trans>This browser cannot keep the app for offline use.</Trans>
        )}
      </Text>
      <Text size="sm" fw={600} id="pending-changes-title">
        <Trans>Changes waiting to be sent</Trans>
      </Text>
      {writes === null ? null : writes.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>Nothing is waiting: every change has been sent.</Trans>
        </Text>
      ) : (
        <ScrollArea.Autosize mah={300} type="auto">
          <Stack component="ul" gap="xs" p={0} m={0} aria-labelledby="pending-changes-title">
            {writes.map((w) => (
              <PendingWriteRow key={w.mutationId} write={w} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

function PendingWriteRow({ write }: { write: PendingWrite }) {
  const { i18n } = useLingui();
  const title = writeTitle(i18n, write);
  // The values as given: a refused change stays readable here until sent again or given up.
  const fields = writtenValues(write)
    .map(({ field, value }) => `${field} ${shownValue(value)}`)
    .join(', ');
  return (
    <li style={{ listStyle: 'none' }} data-testid="pending-write">
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Text>
          {write.kind === 'update' && fields !== '' ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              <Trans>Changes: {fields}</Trans>
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            {new Date(write.createdAt).toLocaleString()}
          </Text>
          {write.state === 'failed' && write.error !== null ? (
            <Text size="xs" c="red">
              {translateServerText(i18n, write.error)}
            </Text>
          ) : null}
        </Stack>
        <Badge
          variant="light"
          color={write.state === 'failed' ? 'red' : 'blue'}
          style={{ flexShrink: 0 }}
        >
          {write.state === 'failed' ? (
            <Trans>Refused</Trans>
          ) : write.state === 'sending' ? (
            <Trans>Sending</Trans>
          ) : (
            <Trans>Waiting</Trans>
          )}
        </Badge>
      </Group>
      {write.state === 'failed' ? (
        <Group gap="xs" mt={4}>
          <Button
            size="compact-xs"
            onClick={() => void syncWorker().writes.retry(write.mutationId)}
          >
            <Trans>Send again</Trans>
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            onClick={() => void syncWorker().writes.discard(write.mutationId)}
          >
            <Trans>Give up this change</Trans>
          </Button>
        </Group>
      ) : null}
    </li>
  );
}
