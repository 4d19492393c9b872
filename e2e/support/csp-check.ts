import { afterEach } from 'vitest';
import { takeCspViolations } from './csp';

/*
 * Every e2e test runs under the app's Content-Security-Policy (web.ts serves the pages with it):
 * a test in which a browser refused something fails with what it refused (csp.ts collects them).
 */
afterEach(() => {
  const violations = takeCspViolations();
  if (violations.length > 0) {
    throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
  }
});
