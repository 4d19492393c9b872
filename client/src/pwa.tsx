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

/**
 * Pauses before the first new tries of a first install that failed, then `INSTALL_RETRY_EVERY_MS`:
 * one of the precached files may not have come (a flaky plant network), and the browser then
 * drops the worker and never tries again on its own until the next page load.
 */
const INSTALL_RETRY_MS: readonly number[] = [5_000, 15_000, 60_000];
const INSTALL_RETRY_EVERY_MS = 300_000;

function register(registerSW: typeof RegisterSW, attempt = 0): void {
  const again = () => {
    const pause = INSTALL_RETRY_MS[attempt] ?? INSTALL_RETRY_EVERY_MS;
    retryWhenOnline(pause, () => register(registerSW, attempt + 1));
  };
  const update = registerSW({
    immediate: true,
    onRegisteredSW(_url, registration) {
      if (registration) watchFirstInstall(registration, again);
    },
    onRegisterError(error) {
      if (navigator.serviceWorker.controller !== null) return;
      // Refused (a private window, a policy): the app works online, but not offline. Anything
      // else is the network failing the worker's script (or its loader): tried again.
      if (refused(error)) appStore.set(offlineReadinessAtom, 'unavailable');
      else again();
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

/** A registration the browser refuses outright, as opposed to one whose script did not load. */
function refused(error: unknown): boolean {
  return (
    error instanceof DOMException &&
    (error.name === 'SecurityError' || error.name === 'NotSupportedError')
  );
}

/**
 * Calls `retry` once the first install on this registration has failed while nothing controls
 * the page (the installing worker turned `redundant` with no worker left to take over). An update
 * that fails is left alone: the page already works offline with the worker it has.
 */
function watchFirstInstall(registration: ServiceWorkerRegistration, retry: () => void): void {
  let called = false;
  const failed = () => {
    if (called || navigator.serviceWorker.controller !== null) return;
    if (registration.installing || registration.waiting || registration.active) return;
    called = true;
    retry();
  };
  const watch = (worker: ServiceWorker | null) => {
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'redundant') failed();
    });
  };
  watch(registration.installing);
  registration.addEventListener('updatefound', () => watch(registration.installing));
  // The install may have failed before this callback ran.
  failed();
}

/** Runs `retry` after `pause`, and not before the browser says it is online again. */
function retryWhenOnline(pause: number, retry: () => void): void {
  setTimeout(() => {
    if (navigator.onLine) retry();
    else window.addEventListener('online', () => retry(), { once: true });
  }, pause);
}
