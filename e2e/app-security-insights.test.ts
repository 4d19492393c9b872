import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, appPaths, isolate, type PersonalTokenCreated } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { takeCspViolations } from './support/csp';
import { E2e } from './support/fixture';
import { AccessTokensPage } from './support/pages/developer';
import { ShellPage } from './support/pages/shell';

/*
 * Security insights in the browser (issue 38 item 1): the admin opens /app/security-insights
 * (redirected to the overview), sees a check fail (a token without expiry), fixes it (revokes
 * the token on the developer page) and sees the check pass; a policy violation in the page shows
 * in the threat overview; offline, the overview opens with the last state it showed and says
 * when that was taken.
 */
let e2e: E2e;

beforeAll(async () => {
  // Counted events are written every half second (INSIGHTS_EVENTS_MS; 15 s by default).
  e2e = await E2e.start(inject('clientDist'), { env: { INSIGHTS_EVENTS_MS: '500' } });
});
afterAll(() => e2e.close());

describe('security insights', () => {
  it('a failing check passes once fixed, and the overview opens offline with its last state and time', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const made = await e2e.server.call('POST', apiPaths.personalAccessTokens(), {
      token: admin.token,
      json: { name: 'Nightly export', scopes: ['assets:read'] },
    });
    expect(made.status, made.text).toBe(200);
    expect((made.json as PersonalTokenCreated).token.name).toBe('Nightly export');

    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/security-insights');
    await tab.waitForPath(/^\/app\/security-insights\/overview$/);
    const page = tab.page;
    const tokens = page.locator('[data-testid="insight-check"][data-check="tokens"]');
    await expect.poll(() => tokens.getAttribute('data-state')).toBe('failing');
    const region = page.getByRole('region', { name: 'Access tokens to review' });
    await expect
      .poll(() => region.getByRole('rowheader', { name: 'Nightly export' }).count())
      .toBe(1);
    expect(await region.getByText('No expiry').count()).toBe(1);
    await expect.poll(() => page.getByTestId('insights-taken').textContent()).toMatch(/^As of /);

    // The fix: the token revoked where its owner manages tokens.
    await tab.navigateInApp(appPaths.accessTokens(admin.userId));
    const developer = new AccessTokensPage(tab);
    await developer.read();
    await developer.confirm(`Revoke ${isolate('Nightly export')}`, 'Revoke token');
    await expect.poll(() => developer.rows(developer.tokens)).toEqual([]);

    await tab.navigateInApp('/app/security-insights/overview');
    await expect.poll(() => tokens.getAttribute('data-state')).toBe('passing');
    expect(await region.getByRole('rowheader').count()).toBe(0);

    // A policy violation in the page is reported and counted in the threat overview.
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.src = 'https://tracker.example/pixel.png';
      img.alt = '';
      document.body.append(img);
    });
    await expect.poll(() => takeCspViolations().join('\n')).toContain('img-src');
    await tab.navigateInApp('/app/security-insights/threat-overview');
    const csp = page.getByRole('region', { name: 'CSP reports by directive' });
    await expect
      .poll(
        async () => {
          // The page reads the counts when it opens: opened again until the report is counted.
          if ((await csp.getByRole('rowheader', { name: 'img-src' }).count()) > 0) return true;
          await page.locator('label', { hasText: /^7 days$/ }).click();
          await page.locator('label', { hasText: /^30 days$/ }).click();
          return false;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    // The one refusal provoked here, whatever way each of its reports came.
    expect(takeCspViolations().filter((v) => !v.includes('tracker.example'))).toEqual([]);
    await tab.navigateInApp('/app/security-insights/overview');
    await expect.poll(() => tokens.getAttribute('data-state')).toBe('passing');
    // The server's answer, not the kept one shown while it is asked.
    await expect
      .poll(() => page.getByTestId('insights-taken').textContent())
      .not.toContain('asking the server');
    const takenOnline = await page
      .getByTestId('insights-taken')
      .locator('time')
      .getAttribute('datetime');
    expect(takenOnline).not.toBeNull();

    // Offline: the page opens with the state it last showed, and says when that was taken.
    e2e.offline();
    await tab.reload();
    await tab.waitForPath(/^\/app\/security-insights\/overview$/);
    await page.getByTestId('insights-kept').waitFor();
    expect(await tokens.getAttribute('data-state')).toBe('passing');
    expect(await page.getByTestId('insights-taken').locator('time').getAttribute('datetime')).toBe(
      takenOnline,
    );
    expect(await page.getByTestId('insights-kept').textContent()).toContain(
      'This is the last state this device kept',
    );
    e2e.online();

    // Signed out, the device keeps nothing of what the account's security looked like.
    const kept = () =>
      page.evaluate(
        () =>
          new Promise<number>((resolve, reject) => {
            const open = indexedDB.open('plant-security-insights', 1);
            open.onupgradeneeded = () =>
              open.result.createObjectStore('answers', { keyPath: 'key' });
            open.onerror = () => reject(open.error ?? new Error('not opened'));
            open.onsuccess = () => {
              const count = open.result.transaction('answers').objectStore('answers').count();
              count.onsuccess = () => {
                open.result.close();
                resolve(count.result);
              };
              count.onerror = () => reject(count.error ?? new Error('not counted'));
            };
          }),
      );
    expect(await kept()).toBeGreaterThan(0);
    await new ShellPage(page).signOut();
    await tab.waitForPath(/^\/user\/login/);
    expect(await kept()).toBe(0);
  });
});
