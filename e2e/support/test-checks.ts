import { afterEach, beforeEach, onTestFinished } from 'vitest';
import { testScope } from './browser';
import { takeCspViolations } from './csp';
import { describePages } from './witness';

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

/*
 * A failed test also says what its browsers' pages showed then (witness.ts): the error lands in
 * the run's summary, the one part of a long run's output that is sure to be read.
 */
beforeEach(() => {
  testScope.begin();
  // The last of a test's end handlers (they run last registered first): the pages are still open.
  onTestFinished(async ({ task }) => {
    try {
      if (task.result?.state !== 'fail') return;
      const pages = await describePages();
      if (pages !== '') throw new Error(`What the pages showed when the test failed:\n${pages}`);
    } finally {
      // Then the test's profiles close (browser.ts): a warm browser is wiped for the next test.
      await testScope.end();
    }
  });
});
