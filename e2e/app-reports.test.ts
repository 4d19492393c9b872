import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { dataOf } from '../server/src/testing/harness';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';

/*
 * The report screens (issue 31 item 4), in Chromium against the real server: a report made in
 * the form, "Send now", and the run listed with its PDF, downloaded through the worker; its
 * dashboard's delete question names the report and offers no deletion.
 */
let e2e: E2e;
let admin: Awaited<ReturnType<E2e['session']>>;
let dashboardId = '';

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  admin = await e2e.session(DEMO_USERS.admin);
  const [stream] = (await e2e.serverModels(admin.accountId, 'datastream')).map((m) => m.id);
  const made = await e2e.server.call('POST', apiPaths.collection('dashboards'), {
    token: admin.token,
    json: {
      name: 'Reported dashboard',
      widgets: [{ id: 'w1', type: 'line', x: 0, y: 0, w: 24, h: 8, streams: [stream] }],
    },
  });
  expect(made.status, made.text).toBe(201);
  dashboardId = dataOf<{ id: string }>(made).id;
  expect(dashboardId).not.toBe('');
});
afterAll(() => e2e.close());

describe('the report screens', () => {
  it('makes a report in the form, sends it now, and lists the run with its PDF', async () => {
    const tab = await e2e.signedInTab(DEMO_USERS.admin, '/app/reports/list');
    const { page } = tab;
    page.setDefaultTimeout(30_000);
    await page.getByTestId('new-report').click();
    const form = page.getByTestId('report-form');
    await form.getByLabel('Name').fill('Weekly by hand');
    await form.getByLabel('Dashboard').selectOption({ label: 'Reported dashboard' });
    await form.getByLabel('At a sending interval').check();
    await form.getByLabel('Sending interval', { exact: true }).fill('3600');
    await form.getByLabel('User of the account').selectOption({ label: 'Ada Administrator' });
    await form.getByRole('button', { name: 'Add user' }).click();
    await expect.poll(() => form.getByTestId('report-recipient').count()).toBe(1);
    await form.getByTestId('report-save').click();

    // The new report's page: no runs yet, then Send now makes one with its PDF.
    const report = page.getByTestId('report-page');
    await expect
      .poll(() => report.getByRole('heading', { name: 'Weekly by hand' }).count())
      .toBe(1);
    await expect.poll(() => report.getByText('Every hour').count()).toBe(1);
    await expect.poll(() => report.getByText('Last 7 days', { exact: true }).count()).toBe(1);

    // Edited while another admin pauses it: the form writes only what it changed, so the report
    // is renamed and stays paused.
    const reportId = decodeURIComponent(tab.path().split('/').pop() ?? '');
    await report.getByTestId('report-edit').click();
    await form.getByLabel('Name').fill('Weekly by hand, edited');
    await form.getByLabel('The last').fill('1');
    await form.getByRole('group', { name: 'Range' }).getByLabel('Unit').selectOption('weeks');
    const paused = await e2e.server.call('PUT', apiPaths.model('reports', reportId), {
      token: admin.token,
      json: { state: 'paused' },
    });
    expect(paused.status, paused.text).toBe(200);
    await form.getByTestId('report-save').click();
    const stored = async () =>
      (await e2e.serverModels(admin.accountId, 'report')).find((m) => m.id === reportId)
        ?.attributes;
    await expect.poll(async () => (await stored())?.name).toBe('Weekly by hand, edited');
    expect((await stored())?.state).toBe('paused');
    await expect
      .poll(() => report.getByRole('heading', { name: 'Weekly by hand, edited' }).count())
      .toBe(1);
    await expect.poll(() => report.getByRole('button', { name: 'Activate' }).count()).toBe(1);
    // One week in the language's singular ('The last 1 weeks' before).
    expect(await report.getByText('Last week', { exact: true }).count()).toBe(1);
    // Active again, for Send now below.
    await e2e.server.call('PUT', apiPaths.model('reports', reportId), {
      token: admin.token,
      json: { state: 'active' },
    });
    await report.getByTestId('report-send-now').click();
    const run = report.getByTestId('report-run');
    await expect.poll(() => run.first().getAttribute('data-state')).toBe('sent');
    const file = run.first().getByTestId('report-run-file');
    await expect.poll(() => file.count()).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), file.click()]);
    expect(download.suggestedFilename()).toMatch(/^Weekly-by-hand-.*\.pdf$/);

    // Listed in the account's reports, with its last run.
    await tab.navigateInApp('/app/reports/list');
    const row = page.getByTestId('report-row').filter({ hasText: 'Weekly by hand' });
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.getByText('Sent').count()).toBe(1);

    // Its dashboard cannot go while the report sends it: the question says so before.
    await tab.navigateInApp(`/app/dashboards/${dashboardId}`);
    await page.getByTestId('dashboard-delete').click();
    const consequences = page.getByTestId('dashboard-delete-consequences');
    await expect
      .poll(() => consequences.textContent())
      .toContain('Weekly by hand, edited\u2069 sends this dashboard: change or delete it first.');
    expect(await page.getByTestId('dashboard-delete-confirm').isDisabled()).toBe(true);
  });
});
