import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { listenForInstallPrompt } from './features/banners/install-prompt';
import { i18n } from './i18n/i18n';
import { appStore } from './state/store';
import { msg } from '@lingui/core/macro';
import type { registerSW as RegisterSW } from 'virtual:pwa-register';

/**
 * The service worker (/sw.js, vite-plugin-pwa): precaches the app shell, so that after one online
 * visit the app opens with no network at all. A new release shows a notification that stays until
 * the user updates (spec 000 §4 "App update available": a persistent notification with an update
 * action). The action is a real button: reachable by keyboard and named for screen readers.
 */
export function registerServiceWorker(): void {
  // The install offer comes once per page, often before sign-in: kept for the banner.
  listenForInstallPrompt(appStore);
  if (!('serviceWorker' in navigator)) return;
  // Loaded beside the first screen, not before it: the registration (workbox-window, 2.3 KB gzip)
  // is no part of any page's first-visit budget, and the worker installs a moment later.
  // Should the chunk not load (the network went at that moment), the next page load tries again.
  import('virtual:pwa-register').then(
    ({ registerSW }) => register(registerSW),
    () => undefined,
  );
}

function register(registerSW: typeof RegisterSW): void {
  const update = registerSW({
    immediate: true,
    onNeedRefresh() {
      notifications.show({
        id: 'app-update',
        autoClose: false,
        title: i18n._(msg`A new version is available`),
        message: (
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{i18n._(msg`Reload to use it. Your unsent changes are kept.`)}</Text>
            <Button size="xs" onClick={() => void update(true)}>
              {i18n._(msg`Reload to update`)}
            </Button>
          </Stack>
        ),
      });
    },
  });
}
