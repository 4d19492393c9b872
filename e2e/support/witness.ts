import type { BrowserContext, Page } from 'playwright-core';

/*
 * What the browsers showed when a test failed, put into the failure itself (test-checks.ts): a full
 * run prints only its summary at the end, and a failure that happens only on a busy machine
 * must say there what the pages showed and what they and their workers wrote to the console.
 */
const contexts = new Set<BrowserContext>();
const lines = new WeakMap<Page, string[]>();
const KEPT_LINES = 25;
const KEPT_TEXT = 1_500;

/** Keeps `context`'s pages and their console lines for a failure's report (once per context). */
export function witnessPages(context: BrowserContext): void {
  contexts.add(context);
  context.on('close', () => contexts.delete(context));
  const keep = (page: Page | null, line: string) => {
    if (page === null) return;
    const kept = lines.get(page) ?? [];
    kept.push(line);
    if (kept.length > KEPT_LINES) kept.splice(0, kept.length - KEPT_LINES);
    lines.set(page, kept);
  };
  context.on('console', (message) => keep(message.page(), `${message.type()}: ${message.text()}`));
  // An uncaught error is no console line for Playwright: a page that crashed says it here.
  context.on('weberror', (e) => keep(e.page(), `pageerror: ${e.error().message}`));
}

/** Each open page: its address, the end of its text, and its last console lines. */
export async function describePages(): Promise<string> {
  const parts: string[] = [];
  for (const context of contexts) {
    for (const page of context.pages()) {
      if (page.isClosed() || (page.url() === 'about:blank' && !lines.has(page))) continue;
      const text = await page
        .locator('body')
        .innerText({ timeout: 3_000 })
        .then((t) => t.replace(/\n{2,}/g, '\n').trim())
        .catch(
          (e: unknown) => `(no text: ${e instanceof Error ? e.message.split('\n')[0] : String(e)})`,
        );
      // A page whose main thread hangs must not hold the report up: its focus is left out then.
      const focus = await Promise.race([
        page.evaluate(focusedRegion, KEPT_TEXT).catch(() => null),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 3_000).unref()),
      ]);
      parts.push(
        [
          `--- ${page.url()}`,
          text.length > KEPT_TEXT ? `…${text.slice(-KEPT_TEXT)}` : text,
          ...(focus === null ? [] : ['--- around the focus:', focus]),
          '--- console:',
          ...(lines.get(page) ?? ['(nothing)']),
        ].join('\n'),
      );
    }
  }
  return parts.join('\n');
}

/**
 * In the page: the focused element and the text of the form, dialog or section around it (what
 * the test last clicked or typed into, usually), or null when nothing has the focus.
 */
function focusedRegion(kept: number): string | null {
  const focused = document.activeElement;
  if (focused === null || focused === document.body) return null;
  const region =
    focused.closest('form, [role="dialog"], section, [role="region"], main') ?? focused;
  const tag = focused.outerHTML.slice(0, 300);
  const text = region instanceof HTMLElement ? region.innerText.slice(0, kept) : '';
  return `${tag}\n${text}`;
}
