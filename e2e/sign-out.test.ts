import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { encodeNamePart } from '../sync-worker/src/store/database-name';
import { E2e } from './support/fixture';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('e2ePage'));
});
afterAll(() => e2e.close());

describe('sign-out in the browser', () => {
  it("deletes the user's IndexedDB databases and leaves another user's alone", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const tech = await e2e.session(DEMO_USERS.tech);
    const browser = await e2e.browser();
    const adminTab = await e2e.open(browser);
    await adminTab.start(admin);
    await adminTab.waitUntilBootstrapped();
    const techTab = await e2e.open(browser);
    await techTab.start(tech);
    await techTab.waitUntilBootstrapped();
    const ofUser = (names: readonly string[], userId: string) =>
      names.filter((n) => n.includes(`-plant-${encodeNamePart(userId)}-`));

    const before = await adminTab.databases();
    expect(ofUser(before, admin.userId).length).toBeGreaterThanOrEqual(3);
    expect(ofUser(before, tech.userId).length).toBeGreaterThanOrEqual(3);

    await adminTab.signOut();
    const after = await adminTab.databases();
    expect(ofUser(after, admin.userId)).toEqual([]);
    expect(ofUser(after, tech.userId)).toEqual(ofUser(before, tech.userId));
    expect(await adminTab.status()).toMatchObject({ started: false });
    // The other user's tab still works on its store.
    expect((await techTab.writes()).length).toBe(0);
    await techTab.watch('assets', { type: 'asset' });
    await expect
      .poll(async () => (await techTab.watched('assets')).latest?.total)
      .toBeGreaterThan(0);
  });
});
