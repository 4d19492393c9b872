import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ServiceRequestAttributes } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { DEMO_SERVICE_REQUEST } from '../server/src/seed/demo-feedback';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';

/*
 * Service requests in Chromium (issue 34 item 2): a technician asks for service on a machine
 * while offline, with the machine's context; it lands once with the context the server took; the
 * admin assigns it to the service agent, whose work the technician's open page follows live;
 * closed, it moves to the past requests.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('service requests', () => {
  it('a request sent offline lands once with the machine’s context; its agent’s work shows live; closed it is past', async () => {
    const tech = await e2e.signedInApp(DEMO_USERS.tech, '/app/service');
    const { page } = tech;
    await page.setViewportSize({ width: 1024, height: 768 });
    // The demo's request is active, being worked on by the agent.
    await expect
      .poll(() => page.getByTestId('service-link').allTextContents())
      .toContain(DEMO_SERVICE_REQUEST);
    const session = await e2e.session(DEMO_USERS.tech);
    const requests = async () =>
      (await e2e.serverModels(session.accountId, 'service_request')).map((m) => ({
        id: m.id,
        ...(m.attributes as ServiceRequestAttributes),
      }));
    const before = (await requests()).length;

    e2e.offline();
    try {
      await page.getByTestId('service-new').click();
      await page.getByTestId('service-send').click();
      await expect.poll(() => page.getByText('Choose the machine').count()).toBe(1);
      await expect.poll(() => page.getByText('Title is required').count()).toBe(1);
      // The focus on the first field with a problem, not left on Send.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
        .toBe('service-asset');
      await page.getByTestId('service-asset').click();
      const machine = page.getByRole('option').first();
      const machineName = (await machine.textContent()) ?? '';
      await machine.click();
      // The machine's latest values where the server takes them: a state and an on/off stream.
      const assetId = (await e2e.serverModels(session.accountId, 'asset')).find(
        (a) => a.attributes['name'] === machineName,
      )?.id;
      const streams = (await e2e.serverModels(session.accountId, 'datastream')).filter(
        (d) => d.attributes['asset_id'] === assetId,
      );
      const streamNamed = (name: string) =>
        streams.find((d) => d.attributes['name'] === name)?.id ?? '';
      await e2e.server.machineData.store.append({
        source: 'e2e-service-context',
        seq: 1,
        points: [
          { stream: streamNamed('Operating mode'), value: 1 },
          { stream: streamNamed('Running'), value: 1 },
        ].map((p) => ({ ...p, account: session.accountId, ts: Date.now() - 1000 })),
      });
      await page.getByTestId('service-title').fill('Hydraulic unit is loud');
      await page.getByTestId('service-description').fill('A loud whine since this morning.');
      await expect.poll(() => page.getByTestId('service-consent').isChecked()).toBe(true);
      await page.getByTestId('service-send').click();
      await tech.waitForPath(/^\/app\/service\/[0-9a-f-]+\/details$/);
      await expect
        .poll(() => page.getByTestId('service-heading').textContent())
        .toBe('Hydraulic unit is loud');
      await expect.poll(() => page.getByTestId('service-state').textContent()).toBe('Open');
      // The breadcrumb names the request by its title.
      await expect
        .poll(() => new ShellPage(page).crumbs())
        .toEqual(['Service requests', 'Hydraulic unit is loud', 'Details']);
      await expect.poll(() => page.getByTestId('service-context-waiting').count()).toBe(1);
      // A reload while offline: the request waits in the worker.
      const path = tech.path();
      await page.reload();
      await tech.waitForPath(new RegExp(`^${path}$`));
      await expect
        .poll(() => page.getByTestId('service-heading').textContent())
        .toBe('Hydraulic unit is loud');
      expect(machineName).not.toBe('');
      await expect.poll(() => page.getByTestId('service-asset').textContent()).toBe(machineName);
    } finally {
      e2e.online();
    }
    await expect.poll(async () => (await requests()).length, { timeout: 60_000 }).toBe(before + 1);
    const stored = (await requests()).filter((r) => r.title === 'Hydraulic unit is loud');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ state: 'open', consent: true, reported_by: session.userId });
    // The context the server took when the request arrived shows on the reporter's page.
    await expect
      .poll(() => page.getByTestId('service-context').count(), { timeout: 30_000 })
      .toBe(1);
    expect(stored[0]?.context?.asset.id).toBe(stored[0]?.asset_id);
    // A state reads as its text, an on/off as its word, as on the machine's page.
    const values = page.getByTestId('service-context-values');
    await expect
      .poll(() => values.getByRole('row', { name: /Operating mode/ }).textContent())
      .toContain('Automatic');
    expect(
      await values
        .getByRole('row', { name: /Running/ })
        .getByTestId('service-context-value')
        .textContent(),
    ).toBe('On');
    const requestPath = tech.path();

    // The admin assigns it to the service agent (the internal user).
    const internal = await e2e.session(DEMO_USERS.internal);
    const supervisor = await e2e.signedInApp(DEMO_USERS.admin, requestPath);
    const sp = supervisor.page;
    await sp.setViewportSize({ width: 1024, height: 768 });
    await expect.poll(() => sp.getByTestId('service-state').textContent()).toBe('Open');
    await sp.getByTestId('service-move-assigned').click();
    await expect.poll(() => sp.getByText('Choose the agent it is assigned to.').count()).toBe(1);
    await sp.getByTestId('service-agent-select').click();
    const agentRow = await e2e.server.db
      .selectFrom('users')
      .select(['firstname', 'lastname'])
      .where('id', '=', internal.userId)
      .executeTakeFirstOrThrow();
    const agentName = `${agentRow.firstname} ${agentRow.lastname}`;
    // Only the service agents are offered (the demo's one): the request's calls go to its agent.
    await expect.poll(() => sp.getByRole('option').allTextContents()).toEqual([agentName]);
    await sp.getByRole('option', { name: agentName }).click();
    await sp.getByTestId('service-move-assigned').click();
    await expect.poll(() => sp.getByTestId('service-state').textContent()).toBe('Assigned');
    // The technician's open page follows: its agent, then the agent's work.
    await expect
      .poll(() => page.getByTestId('service-agent').textContent(), { timeout: 30_000 })
      .toContain(agentName);
    const agent = await e2e.signedInApp(DEMO_USERS.internal, requestPath);
    await agent.page.getByTestId('service-move-in_progress').click();
    await expect.poll(() => page.getByTestId('service-state').textContent()).toBe('In progress');
    await agent.page.getByTestId('service-move-resolved').click();
    await expect.poll(() => page.getByTestId('service-state').textContent()).toBe('Resolved');
    // The reporter closes it; it is a past request now.
    await expect
      .poll(() => page.getByTestId('service-moves').getByRole('button').allTextContents())
      .toEqual(['Not solved', 'Close']);
    await page.getByTestId('service-move-closed').click();
    await expect.poll(() => page.getByTestId('service-state').textContent()).toBe('Closed');
    await tech.navigateInApp('/app/service/history');
    await expect
      .poll(() => page.getByTestId('service-link').allTextContents())
      .toContain('Hydraulic unit is loud');
    await tech.navigateInApp('/app/service');
    await expect
      .poll(() => page.getByTestId('service-link').allTextContents())
      .not.toContain('Hydraulic unit is loud');
  });
});
