import { Outlet } from '@tanstack/react-router';
import { AccountSwitchOverlay } from './account-switch-overlay';
import { SyncFeedback } from './sync-feedback';

/** Around every route: the account-switch overlay and the worker's feedback (toasts, dialogs). */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <AccountSwitchOverlay />
      <SyncFeedback />
    </>
  );
}
