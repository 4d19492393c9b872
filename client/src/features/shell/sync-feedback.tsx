import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Code, Modal, ScrollArea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { t } from '@lingui/core/macro';
import type { SyncEvent } from '@plant/sync-worker/api';
import { signOut } from '../../session/session';
import { onSyncEvent } from '../../sync/bridge';
import { translateServerText } from '../../i18n/server-texts';

/**
 * The worker's one-off events as the user sees them: server messages as toasts (with their
 * translationParams), refused writes, a permission-check dialog for `_permissionChecks`, and the
 * forced sign-out of spec 000 §8 (home after 1 s).
 */
export function SyncFeedback() {
  const navigate = useNavigate();
  const { i18n } = useLingui();
  const [checks, setChecks] = useState<readonly unknown[] | null>(null);

  useEffect(
    () =>
      onSyncEvent((event: SyncEvent) => {
        switch (event.name) {
          case 'feedback':
            notifications.show({
              color: event.feedback.kind === 'error' ? 'red' : 'green',
              message: translateServerText(
                i18n,
                event.feedback.message,
                event.feedback.translationParams,
              ),
            });
            return;
          case 'permission-checks':
            setChecks(event.checks);
            return;
          case 'write-rejected':
            notifications.show({
              color: 'red',
              title: t(i18n)`A change was not saved`,
              message: translateServerText(i18n, event.message),
              autoClose: false,
            });
            return;
          case 'upload-progress':
            return;
          case 'signed-out':
            setTimeout(() => {
              void signOut().then(() => navigate({ to: '/' }));
            }, 1_000);
            return;
          case 'resynced':
            notifications.show({
              message: t(i18n)`The local data was loaded again from the server.`,
            });
            return;
          default: {
            const never: never = event;
            return never;
          }
        }
      }),
    [i18n, navigate],
  );

  return (
    <Modal
      opened={checks !== null}
      onClose={() => setChecks(null)}
      title={t(i18n)`Please check`}
      size="lg"
    >
      <ScrollArea.Autosize mah={400}>
        <Code block data-testid="permission-checks">
          {JSON.stringify(checks, null, 2)}
        </Code>
      </ScrollArea.Autosize>
    </Modal>
  );
}
