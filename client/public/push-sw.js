/* global self */
/*
 * Web push in the service worker (issue 17 item 6). vite-plugin-pwa generates /sw.js (precache,
 * navigation fallback) and loads this file with importScripts, so push stays apart from the
 * offline behaviour. Plain script, no imports: it runs as it is, in the worker's global scope.
 *
 * A push carries JSON `{ title, body, url, tag, severity }` (url: the alarm's page on our origin).
 * Every push shows a notification (the subscription promised `userVisibleOnly`); a click opens the
 * page it names in a tab of ours, or in a new one.
 */

/** Where a notification without a usable link of our own leads. */
const ALARMS_PATH = '/app/alarms';

/** Only our own pages: a link to anywhere else becomes the alarms list. */
function ownUrl(value) {
  try {
    const url = new URL(String(value), self.location.origin);
    if (url.origin === self.location.origin) return url.href;
  } catch {
    // not a URL at all
  }
  return new URL(ALARMS_PATH, self.location.origin).href;
}

function textOf(value, fallback) {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

/** The push's JSON, or its text as the body when it is not JSON. */
function payloadOf(data) {
  if (data === null) return {};
  try {
    const parsed = data.json();
    return parsed !== null && typeof parsed === 'object' ? parsed : {};
  } catch {
    return { body: data.text() };
  }
}

self.addEventListener('push', (event) => {
  const message = payloadOf(event.data);
  const critical = message.severity === 'critical';
  const shown = self.registration.showNotification(textOf(message.title, 'Machine Platform'), {
    body: textOf(message.body, ''),
    // The same tag replaces the notification instead of adding another.
    ...(typeof message.tag === 'string' && message.tag !== '' ? { tag: message.tag } : {}),
    icon: '/icon.svg',
    // A critical alarm stays until someone acts on it.
    requireInteraction: critical,
    data: { url: ownUrl(message.url), severity: textOf(message.severity, 'warning') },
  });
  event.waitUntil(shown);
});

/**
 * Opens `url` in a tab of ours: the most recently used one that this worker may navigate, else
 * a new window. The click allows focusing and opening windows; focus is asked for at once,
 * alongside the navigation, while that allowance lasts.
 */
async function openPage(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) {
    if (new URL(client.url).origin !== self.location.origin) continue;
    const focusing = client.focus().catch(() => undefined);
    try {
      // Rejects for a tab this worker does not control (opened before it was installed).
      const navigated = await client.navigate(url);
      await focusing;
      if (navigated !== null) return;
    } catch {
      // try the next tab, then a new window
    }
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data;
  const url = ownUrl(data !== null && typeof data === 'object' ? data.url : undefined);
  event.waitUntil(openPage(url));
});
