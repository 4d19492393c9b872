import type { BrowserContext, ConsoleMessage } from 'playwright-core';

/**
 * Content-Security-Policy violations seen by the browsers of this test file (the e2e pages are
 * served with the server's policy: web.ts). Every profile from `launchProfile` reports here:
 * each document's `securitypolicyviolation` events and the console lines Chromium writes for a
 * page's refusal, and the reports the policy's `report-uri` brings (workers' refusals too).
 * `test-checks.ts` fails the test in which any arrived; a test that provokes one on purpose takes it
 * with `takeCspViolations()`.
 */
const seen: string[] = [];

/** Where the e2e pages' policy sends its reports (web.ts adds `report-uri` and answers it). */
export const CSP_REPORT_PATH = '/__e2e/csp-report';

/**
 * A report the browser posted to CSP_REPORT_PATH: the only way a worker's refusals (the sync
 * worker's, MapLibre's) reach the test, since they fire no event in a document and Chromium
 * gives no console line for them to Playwright.
 */
export function recordCspReport(body: string): void {
  try {
    const report = (JSON.parse(body) as { 'csp-report'?: Record<string, unknown> })['csp-report'];
    const field = (name: string) => {
      const value = report?.[name];
      return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    };
    seen.push(
      `${field('document-uri')}: ${field('effective-directive')} refused ${field('blocked-uri')} at ${field('source-file')}:${field('line-number')} (report)`,
    );
  } catch {
    seen.push(`an unreadable CSP report: ${body.slice(0, 200)}`);
  }
}

/** What arrived since the last take, and forgets it. */
export function takeCspViolations(): string[] {
  return seen.splice(0);
}

const REFUSAL =
  /Content Security Policy|Refused to (load|execute|evaluate|connect|create|frame|apply|display|send)/;

function fromConsole(where: string) {
  return (message: ConsoleMessage) => {
    const text = message.text();
    if (REFUSAL.test(text)) seen.push(`${where}: ${text}`);
  };
}

/** Reports `context`'s violations (call once per context, before its first page). */
export async function watchContentSecurity(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__e2eCspViolation', ({ frame }, text: string) => {
    seen.push(`${frame.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    const report = (globalThis as unknown as { __e2eCspViolation?: (text: string) => void })
      .__e2eCspViolation;
    document.addEventListener('securitypolicyviolation', (e) => {
      const what = e.blockedURI || e.sample || '(inline)';
      report?.(`${e.effectiveDirective} refused ${what} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  // Workers' refusals come by report-uri only: Chromium gives Playwright no console line for them.
  context.on('console', fromConsole('page'));
}
