import { lazy, Suspense, useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Loader, Popover, Progress, Text, UnstyledButton } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { browserOnlineAtom, syncStateOf, syncStatusAtom } from '../../sync/status';

/** The details (last sync, offline readiness, the changes waiting): a chunk of their own. */
const SyncDetails = lazy(() => import('./sync-details').then((m) => ({ default: m.SyncDetails })));

/**
 * Always visible in the header: online, offline or syncing and the pending writes. A press opens
 * the details: when the local store last caught up, whether this device is ready for offline use,
 * and the list of changes waiting to be sent (issue 30 item 14). Test contract:
 * data-testid="sync-indicator" with data-state, data-pending and data-subscribed (live updates
 * arrive: "online" comes 2 s before that).
 */
export function SyncIndicator() {
  const { t } = useLingui();
  const status = useAtomValue(syncStatusAtom);
  const online = useAtomValue(browserOnlineAtom);
  const [opened, setOpened] = useState(false);
  const state = syncStateOf(status, online);
  const pending = status.pendingWrites;
  const color = state === 'online' ? 'green' : state === 'syncing' ? 'blue' : 'gray';
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" width={360}>
      <Popover.Target>
        <UnstyledButton
          onClick={() => setOpened((o) => !o)}
          aria-label={t`Sync details`}
          aria-haspopup="dialog"
          aria-expanded={opened}
          // The state must stay readable on a phone: the account name beside it gives way instead.
          style={{ flexShrink: 0 }}
          data-testid="sync-indicator"
          data-state={state}
          data-pending={pending}
          data-subscribed={String(
            status.connection.name === 'connected' && status.connection.subscribed,
          )}
        >
          <Group gap={6} wrap="nowrap" role="status" aria-live="polite">
            <Badge color={color} variant="light" style={{ cursor: 'pointer' }}>
              {state === 'online' ? (
                <Trans>Online</Trans>
              ) : state === 'syncing' ? (
                <Trans>Syncing</Trans>
              ) : (
                <Trans>Offline</Trans>
              )}
            </Badge>
            {pending > 0 ? (
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                <Plural value={pending} one="# pending" other="# pending" />
              </Text>
            ) : null}
          </Group>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-label={t`Sync details`}>
        {opened ? (
          <Suspense fallback={<Loader size="sm" />}>
            <SyncDetails />
          </Suspense>
        ) : null}
      </Popover.Dropdown>
    </Popover>
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
