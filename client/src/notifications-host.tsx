import { lazy, Suspense, useState } from 'react';
import { useNotifications } from '@mantine/notifications';

/** Mantine's container with its transitions: its own chunk, loaded with the first toast. */
const Container = lazy(() => import('./notifications-container'));

/**
 * Where toasts appear. `notifications.show` only writes Mantine's store (small, in the start);
 * the container that draws them comes with the first toast and then stays, so a first visit
 * without one does not download it (issue 29 item 6). The container reads the store when it
 * mounts, so a toast shown before it arrived is drawn too.
 */
export function NotificationsHost() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Container />
    </Suspense>
  );
}
