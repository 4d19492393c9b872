import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { listenForInstallPrompt } from './features/banners/install-prompt';
import { i18n } from './i18n/i18n';
import { appStore } from './state/store';
import { offlineReadinessAtom } from './sync/status';
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
  if (!('serviceWorker' in navigator)) {
    appStore.set(offlineReadinessAtom, 'unavailable');
    return;
  }
  watchOfflineReadiness(navigator.serviceWorker);
  // Loaded beside the first screen, not before it: the registration (workbox-window, 2.3 KB gzip)
  // is no part of any page's first-visit budget, and the worker installs a moment later.
  // Should the chunk not load (the network went at that moment), the next page load tries again.
  import('virtual:pwa-register').then(
    ({ registerSW }) => register(registerSW),
    () => undefined,
  );
}

/**
 * Ready for offline use once a service worker controls the page: it activates only after the whole
 * app is precached, and takes the page that installed it (workbox `clientsClaim`, vite.config.ts).
 * The moment it does on this page (the first visit), the user is told once.
 */
function watchOfflineReadiness(container: ServiceWorkerContainer): void {
  if (container.controller !== null) {
    appStore.set(offlineReadinessAtom, 'ready');
    return;
  }
  container.addEventListener('controllerchange', () => {
    if (container.controller === null || appStore.get(offlineReadinessAtom) === 'ready') return;
    appStore.set(offlineReadinessAtom, 'ready');
    notifications.show({
      id: 'offline-ready',
      color: 'green',
      title: i18n._(msg`Ready for offline use`),
      message: i18n._(msg`This device now opens the app and every screen without a network.`),
    });
  });
}

function register(registerSW: typeof RegisterSW): void {
  const update = registerSW({
    immediate: true,
    onRegisterError() {
      // Refused (a private window, a policy): the app works online, but not offline.
      if (navigator.serviceWorker.controller === null) {
        appStore.set(offlineReadinessAtom, 'unavailable');
      }
    },
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
