import { apiPaths } from '@plant/shared-schema';
import { syncWorker } from '../../sync/worker';

/** Reports one page load sends at most (a page in a loop must not flood the account's counts). */
const MOST_PER_LOAD = 20;

/** What was refused, as the report names it: an origin, 'inline', 'eval' or the like. */
function blockedOf(uri: string): string {
  try {
    return new URL(uri).origin;
  } catch {
    return uri.slice(0, 40);
  }
}

/**
 * Tells the server of Content-Security-Policy violations in this tab (issue 38 item 1: the threat
 * overview's CSP reports, counted in the active account). Through the worker's API client, with
 * the session's token, so the report lands in the account of whoever saw it; each kind of
 * violation once per page load, at most MOST_PER_LOAD. Started once by main.tsx.
 */
export function reportCspViolations(): void {
  const sent = new Set<string>();
  document.addEventListener('securitypolicyviolation', (event) => {
    const directive = event.effectiveDirective || event.violatedDirective;
    if (!/^[a-z-]{1,100}$/.test(directive) || sent.size >= MOST_PER_LOAD) return;
    const blocked = blockedOf(event.blockedURI);
    const key = `${directive} ${blocked}`;
    if (sent.has(key)) return;
    sent.add(key);
    void syncWorker().http.call(
      'POST',
      apiPaths.cspReports(),
      { directive, blocked },
      { quiet: true },
    );
  });
}
