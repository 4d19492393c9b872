import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import type { SyncEvent } from '@plant/sync-worker/api';
import { refreshSignedInUser, signOut } from '../../session/session';
import { onSyncEvent } from '../../sync/bridge';
import { clearSession } from '../../state/storage';
import { translateServerText } from '../../i18n/server-texts';

/** A refused write's notice (what, with the user's text, and why): a chunk of its own. */
const RefusedWrite = lazy(() =>
  import('./refused-write').then((m) => ({ default: m.RefusedWrite })),
);

/** Opened only when the server sends checks: its dialog (Mantine's Modal) is a chunk of its own. */
const PermissionChecksDialog = lazy(() =>
  import('./permission-checks').then((m) => ({ default: m.PermissionChecksDialog })),
);

/**
 * The worker's one-off events as the user sees them: server messages as toasts (with their
 * translationParams), refused writes, a permission-check dialog for `_permissionChecks`, and the
 * forced sign-out of spec 000 §8: the stored user, role and token go at once, the sign-out and the
 * way home follow after 1 s.
 */

/** Spec 000 §8: from refused broker credentials to the home page. */
const SIGNED_OUT_DELAY_MS = 1_000;

export function SyncFeedback() {
  const navigate = useNavigate();
  const { i18n, t } = useLingui();
  const [checks, setChecks] = useState<readonly unknown[] | null>(null);
  // The dialog's code comes with the first checks and stays (so it closes with its transition).
  const [dialogNeeded, setDialogNeeded] = useState(false);
  if (!dialogNeeded && checks !== null) setDialogNeeded(true);
  // The one pending forced sign-out: more refusals while it waits add nothing.
  const signOutTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (signOutTimer.current !== null) clearTimeout(signOutTimer.current);
      signOutTimer.current = null;
    },
    [],
  );

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
              title: t`A change was not saved`,
              message: (
                <Suspense fallback={translateServerText(i18n, event.message)}>
                  <RefusedWrite
                    write={event.write}
                    reasons={[
                      translateServerText(i18n, event.message),
                      // The server's per-field reasons, each on its own line.
                      ...Object.values(event.fields ?? {}).flatMap((messages) =>
                        messages.map((m) => translateServerText(i18n, m)),
                      ),
                    ]}
                  />
                </Suspense>
              ),
              autoClose: false,
              closeButtonProps: { 'aria-label': t`Close` },
            });
            // A refusal may mean the user's access moved: its edit controls follow.
            void refreshSignedInUser();
            return;
          case 'upload-progress':
            return;
          case 'signed-out':
            // First the stored user, role and token (another tab sees it, a reload starts signed
            // out), then home after 1 s.
            clearSession();
            if (signOutTimer.current !== null) return;
            signOutTimer.current = setTimeout(() => {
              signOutTimer.current = null;
              void signOut().then(() => navigate({ to: '/' }));
            }, SIGNED_OUT_DELAY_MS);
            return;
          case 'resynced':
            // Loaded again after `_notify/access` (or a gap): what the user may change may have
            // moved too, and the stored user (its pencils) follows.
            void refreshSignedInUser();
            notifications.show({
              message: t`The local data was loaded again from the server.`,
            });
            return;
          default: {
            const never: never = event;
            return never;
          }
        }
      }),
    [i18n, t, navigate],
  );

  if (!dialogNeeded) return null;
  return (
    <Suspense fallback={null}>
      <PermissionChecksDialog checks={checks} onClose={() => setChecks(null)} />
    </Suspense>
  );
}
