import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { activateLanguage } from './i18n/i18n';
import { router } from './router';
import { appUrlNow, reloadWhenStoredUserEmptied, resumeSession } from './session/session';
import { appStore } from './state/store';
import { languageAtom } from './state/preferences';
import { connectSyncBridge } from './sync/bridge';
import { syncWorker } from './sync/worker';
import { registerServiceWorker } from './pwa';

/*
 * Start: the worker's status first, the stored session at once from the local store (offline
 * first), the chosen language's catalogue, then the page. The current-account check of spec 000
 * §4 runs in the background of resumeSession.
 */
connectSyncBridge();
// Policy violations count in the account's threat overview (security insights): a lazy part,
// so no first visit carries it.
void import('./features/security-insights/csp-reporter').then((m) => m.reportCspViolations());
reloadWhenStoredUserEmptied();
const go = (to: string) => router.navigate({ to });
// Failure reports name the page the user is on (its path only: queries may carry tokens).
router.subscribe('onResolved', () => {
  void syncWorker().http.configure({ origin: location.origin, appUrl: appUrlNow() });
});
const resumed = resumeSession(go);
await activateLanguage(appStore.get(languageAtom));
const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
registerServiceWorker();
// Not awaited: this module's evaluation must end here. Every lazy chunk that imports from the
// entry chunk waits for the entry module to finish evaluating, and a top-level await of the
// session's start held back the app's layout and the page until the sync worker's bundle was
// compiled and its store open (the offline first paint: 300 to 700 ms on these 2 cores).
void resumed;
