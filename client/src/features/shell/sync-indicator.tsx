import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Progress, Text, Tooltip } from '@mantine/core';
import { useAtomValue } from 'jotai';
import type { SyncStatus } from '@plant/sync-worker/api';
import { browserOnlineAtom, syncStatusAtom } from '../../sync/status';

export type SyncState = 'online' | 'offline' | 'syncing';

/** What the indicator says: syncing while loading or sending, offline without the server. */
export function syncStateOf(status: SyncStatus, browserOnline: boolean): SyncState {
  if (!browserOnline) return 'offline';
  if (status.bootstrap.name === 'loading') return 'syncing';
  const c = status.connection;
  if (c.name === 'follower') return status.pendingWrites > 0 ? 'syncing' : 'online';
  if (c.name !== 'connected') return 'offline';
  return status.pendingWrites > 0 ? 'syncing' : 'online';
}

/**
 * Always visible in the header: online, offline or syncing, the pending writes and when the local
 * store last caught up. Test contract: data-testid="sync-indicator" with data-state,
 * data-pending and data-subscribed (live updates arrive: "online" comes 2 s before that).
 */
export function SyncIndicator() {
  const status = useAtomValue(syncStatusAtom);
  const online = useAtomValue(browserOnlineAtom);
  const state = syncStateOf(status, online);
  const pending = status.pendingWrites;
  const color = state === 'online' ? 'green' : state === 'syncing' ? 'blue' : 'gray';
  const last =
    status.lastSyncedAt === null ? null : new Date(status.lastSyncedAt).toLocaleTimeString();
  return (
    <Tooltip
      label={last === null ? <Trans>Not synced yet</Trans> : <Trans>Last synced at {last}</Trans>}
    >
      <Group
        gap={6}
        wrap="nowrap"
        // The state must stay readable on a phone: the account name beside it gives way instead.
        style={{ flexShrink: 0 }}
        data-testid="sync-indicator"
        data-state={state}
        data-pending={pending}
        data-subscribed={String(
          status.connection.name === 'connected' && status.connection.subscribed,
        )}
        role="status"
        aria-live="polite"
      >
        <Badge color={color} variant="light">
          {state === 'online' ? (
            <Trans>Online</Trans>
          ) : state === 'syncing' ? (
            <Trans>Syncing</Trans>
          ) : (
            <Trans>Offline</Trans>
          )}
        </Badge>
        {pending > 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>{pending} pending</Trans>
          </Text>
        ) : null}
      </Group>
    </Tooltip>
  );
}

/** The first load of an account as a progress bar (spec 000 §4 sync progress). */
export function BootstrapProgress() {
  const { t } = useLingui();
  const { bootstrap } = useAtomValue(syncStatusAtom);
  if (bootstrap.name !== 'loading') return null;
  return (
    <Progress
      value={bootstrap.progress}
      size="xs"
      radius={0}
      aria-label={t`Loading the account's data`}
      data-testid="bootstrap-progress"
      transitionDuration={500}
    />
  );
}
