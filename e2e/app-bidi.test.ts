import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNT_HEADER, apiPaths, isolate } from '@plant/shared-schema';
import { dataOf } from '../server/src/testing/harness';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { DeviceDetailsPage, DevicesListPage } from './support/pages/devices';

/*
 * Issue 18 item 6: a name with bidirectional controls (here U+202E RIGHT-TO-LEFT OVERRIDE, never
 * closed) is stored as written, but shown isolated: in a <bdi> on screen, between U+2068 and
 * U+2069 inside texts, so the text after it keeps its order.
 */
let e2e: E2e;

const EVIL = '\u202Eevil twin';
const CONTACT = '\u202Emallory';

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/**
 * In the page: whether one of the elements holding exactly `text` (the name, and maybe a link
 * around it) isolates it: a <bdi>, or unicode-bidi: isolate.
 */
function isolates(root: Element, text: string): string {
  const holders = [root, ...root.querySelectorAll('*')].filter((el) => el.textContent === text);
  if (holders.length === 0) return 'not found';
  const isolating = holders.some(
    (el) => el.tagName === 'BDI' || getComputedStyle(el).unicodeBidi.includes('isolate'),
  );
  return isolating ? 'isolated' : holders.map((el) => el.tagName).join(' ');
}

describe('names with bidirectional controls', () => {
  it('are stored verbatim and shown isolated in the list, the header and the confirm', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const made = await e2e.server.call('POST', apiPaths.collection('assets'), {
      token: admin.token,
      headers: { [ACCOUNT_HEADER]: admin.accountId },
      json: { name: EVIL, contacts: [{ name: CONTACT, value: '+49 555 0100' }] },
    });
    expect(made.status, made.text).toBe(201);
    const id = dataOf<{ id: string }>(made).id;
    // Stored as the user wrote it.
    const stored = (await e2e.serverModels(admin.accountId, 'asset')).find((a) => a.id === id);
    expect(stored?.attributes.name).toBe(EVIL);

    const tab = await e2e.openApp(await e2e.browser(), '/user/login');
    await tab.signIn(DEMO_USERS.admin);
    await tab.goto('/app/devices/list');
    const list = new DevicesListPage(tab.page);
    await list.searchFor('evil');
    const row = list.rows.filter({ hasText: 'evil twin' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.evaluate(isolates, EVIL)).toBe('isolated');

    await tab.goto(`/app/devices/${id}/details`);
    const details = new DeviceDetailsPage(tab.page);
    await expect.poll(() => details.name()).toBe(EVIL);
    expect(await details.title.evaluate(isolates, EVIL)).toBe('isolated');
    // The breadcrumb names the asset too.
    const crumbs = tab.page.getByTestId('breadcrumb');
    await expect.poll(() => crumbs.textContent()).toContain(EVIL);
    expect(await crumbs.evaluate(isolates, EVIL)).toBe('isolated');

    // A contact's name is followed by ": " and the number: the number stays to its right (the
    // override, were it not isolated, would run on over it and put it on the left).
    const contact = tab.page
      .getByTestId('asset-contact-list')
      .locator('p')
      .filter({ hasText: '+49 555 0100' });
    await expect.poll(() => contact.count()).toBeGreaterThan(0);
    const order = await contact.first().evaluate((el, name) => {
      const holder = [...el.querySelectorAll('bdi')].find((b) => b.textContent === name);
      const link = el.querySelector('a');
      if (holder === undefined || link === null) return 'missing';
      const nameBox = holder.getBoundingClientRect();
      const linkBox = link.getBoundingClientRect();
      return linkBox.left >= nameBox.right - 0.5 ? 'after' : 'before';
    }, CONTACT);
    expect(order).toBe('after');

    // The delete confirm mixes the name with its text: isolated there, and the "?" after it
    // stays after it on screen.
    await tab.page.getByTestId('delete-asset').click();
    const confirm = tab.page.getByRole('dialog');
    await expect.poll(() => confirm.count()).toBe(1);
    const title = `Delete ${isolate(EVIL)}?`;
    await expect.poll(() => confirm.getByText(title, { exact: true }).count()).toBe(1);
    const mark = await confirm.getByText(title, { exact: true }).evaluate((el) => {
      const text = el.firstChild;
      if (text === null || text.nodeType !== Node.TEXT_NODE) return 'no text';
      const value = text.textContent ?? '';
      const box = (from: number, to: number) => {
        const range = document.createRange();
        range.setStart(text, from);
        range.setEnd(text, to);
        return range.getBoundingClientRect();
      };
      const name = box(value.indexOf('\u2068'), value.indexOf('\u2069') + 1);
      const question = box(value.length - 1, value.length);
      return question.left >= name.right - 0.5 ? 'after' : 'before';
    });
    expect(mark).toBe('after');
    expect(
      await tab.page.getByRole('button', { name: `Delete ${isolate(EVIL)}`, exact: true }).count(),
    ).toBe(1);
  });
});
