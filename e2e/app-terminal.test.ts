import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, type TerminalAudit } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway } from '../server/src/testing/gateway-client';
import { dataOf } from '../server/src/testing/harness';
import { startAgent } from '../gateway-agent/src/testing/device-gateway';
import { E2e } from './support/fixture';

/*
 * The gateway terminal (issue 12, item 6): a user with the internal tag runs a command on the
 * gateway's real agent over the broker and sees its answer; a command outside the allowlist is
 * refused; both are in the audit list with who ran them. A user without the tag cannot open it
 * (the broker's refusal of a publish is tested in server/src/gateways/terminal.test.ts).
 */
let e2e: E2e;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(async () => {
  for (const stop of stops) await stop();
  await e2e.close();
});

describe("the gateway's logs", () => {
  it("show the agent's recent lines, newest first, and what it logs later", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 5);
    stops.push((await startAgent(e2e.server, admin.token, gw.gatewayId)).stop);
    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/gateways/${gw.gatewayId}/logs`,
      browser,
    );
    const messages = () =>
      tab.page
        .getByTestId('gateway-log-line')
        .evaluateAll((rows) => rows.map((r) => r.querySelector('td:nth-child(3) p')?.textContent));
    // From its start, sent once it was connected.
    await expect.poll(messages).toContain('gateway agent started');
    await expect.poll(messages).toContain('configuration applied');
    // A later line arrives without a reload: a change of its configuration.
    const simulator = (await e2e.serverModels(admin.accountId, 'connection')).find(
      (c) => c.attributes.gateway_id === gw.gatewayId,
    );
    const off = await e2e.server.call('PUT', apiPaths.model('connections', simulator?.id ?? ''), {
      token: admin.token,
      json: { interval_ms: 5_000 },
    });
    expect(off.status).toBe(200);
    await expect
      .poll(async () => (await messages()).filter((m) => m === 'configuration applied').length)
      .toBe(2);
    expect((await messages())[0]).toBe('configuration applied');
  });
});

describe('the gateway terminal', () => {
  it('runs an allowed command on the agent and refuses others; the audit list names who', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 4);
    stops.push((await startAgent(e2e.server, admin.token, gw.gatewayId)).stop);

    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(
      DEMO_USERS.internal,
      `/app/gateways/${gw.gatewayId}/terminal`,
      browser,
    );
    const page = tab.page;
    const input = page.getByRole('textbox', { name: 'Command' });
    const answers = page.getByTestId('terminal-answer');
    await expect.poll(() => input.count()).toBe(1);

    await input.fill('status');
    await input.press('Enter');
    await expect.poll(() => answers.count(), { timeout: 60_000 }).toBe(1);
    const first = answers.first();
    expect(await first.getAttribute('data-ok')).toBe('true');
    const output = await first.getByTestId('terminal-answer-output').textContent();
    expect(output).toMatch(/^agent \S+, running since /);
    expect(output).toContain('connection Simulator: connected');

    await input.fill('rm -rf /');
    await input.press('Enter');
    await expect.poll(() => answers.count()).toBe(2);
    expect(await answers.nth(1).getAttribute('data-ok')).toBe('false');
    expect(await answers.nth(1).getByTestId('terminal-answer-output').textContent()).toBe(
      'Unknown command. Type help for the commands.',
    );
    // Arrow up brings the last command back.
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe('rm -rf /');

    // A tag name with spaces, in quotes (issue 30 item 13): the agent is asked for that tag.
    await input.fill('read "Oil temp left"');
    await input.press('Enter');
    await expect.poll(() => answers.count()).toBe(3);
    expect(await answers.nth(2).getByTestId('terminal-answer-output').textContent()).toBe(
      'Oil temp left: no such tag on this gateway',
    );

    const rows = page.getByTestId('terminal-audit-row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.first().textContent()).toContain(DEMO_USERS.internal);
    const internal = await e2e.server.signIn(DEMO_USERS.internal);
    const audit = dataOf<TerminalAudit>(
      await e2e.server.call('GET', apiPaths.terminalAudit(gw.gatewayId), { token: internal }),
    );
    expect(audit.map((a) => [a.line, a.ok])).toEqual([
      ['read "Oil temp left"', true],
      ['rm -rf /', false],
      ['status', true],
    ]);

    // Without the internal tag the terminal does not open: the app sends the user home.
    const other = await e2e.browser();
    const adminTab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/gateways/${gw.gatewayId}/terminal`,
      other,
    );
    await expect.poll(() => adminTab.path()).toBe('/app/devices/list');
    expect(await adminTab.page.getByTestId('terminal-page').count()).toBe(0);
  });
});
