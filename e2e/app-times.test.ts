import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, type PointValue } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway } from '../server/src/testing/gateway-client';
import { E2e } from './support/fixture';

/*
 * Issue 30 item 6: relative times count on the server's clock, and a past event never reads as
 * future. The server here runs ten minutes ahead of the browser's device (a tablet whose clock
 * is wrong): an alarm raised a moment ago on the server's clock read 'in 10 minutes' before.
 */
const AHEAD_MS = 10 * 60_000;
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'), { clock: { now: () => Date.now() + AHEAD_MS } });
});
afterAll(() => e2e.close());

describe('relative times', () => {
  it("count on the server's clock and clamp at 'just now', on a device whose clock is behind", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 2);
    const stream = (name: string) => gw.streams[name] ?? '';
    const alarm = async (name: string, streamName: string) => {
      const answer = await e2e.server.call('POST', apiPaths.collection('alarms'), {
        token: admin.token,
        json: { asset_id: gw.assetId, datastream_id: stream(streamName), name, upper_limit: 10 },
      });
      expect(answer.status, answer.text).toBe(201);
    };
    await alarm('Raised a moment ago', 'Spindle speed');
    await alarm('Raised five minutes ago', 'Oil pressure');
    // Raised at these times of the server's clock.
    const serverNow = Date.now() + AHEAD_MS;
    const points: { stream: string; ts: number; value: PointValue }[] = [
      { stream: stream('Spindle speed'), ts: serverNow - 1_000, value: 50 },
      { stream: stream('Oil pressure'), ts: serverNow - 5 * 60_000 - 10_000, value: 50 },
    ];
    await e2e.server.machineData.store.append({
      source: 'e2e-times',
      seq: 1,
      points: points.map((p) => ({ ...p, account: admin.accountId })),
    });
    await e2e.server.machineData.alarms.evaluate(admin.accountId, points);

    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/alarms');
    const since = (name: string) =>
      tab.page.getByTestId('alarm-row').filter({ hasText: name }).locator('time').first();
    await expect.poll(() => since('Raised a moment ago').textContent()).toBe('just now');
    await expect.poll(() => since('Raised five minutes ago').textContent()).toBe('5 minutes ago');
    // The page's own clock is behind: nothing reads as future.
    expect(await tab.page.getByText(/^in \d+ (second|minute)s?$/).count()).toBe(0);
  });
});
