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
// Where the focus goes after a submit the page finds wrong and after a busy button: a lazy part.
void import('./components/focus-care').then((m) => m.installFocusCare(document));
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
// Every lazy chunk imports from this entry chunk, so the app's layout and pages wait for this
// module's evaluation to end: they render once the session's local start is done (the worker
// takes writes from then on). resumeSession's account check, which needs the server, is not part
// of it: awaited here, a server that took connections and never answered left the app blank.
await resumed;
