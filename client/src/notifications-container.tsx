import { Notifications } from '@mantine/notifications';

/** The toasts' container (notifications-host.tsx loads it with the first toast). */
export default function NotificationsContainer() {
  return <Notifications position="top-right" />;
}
