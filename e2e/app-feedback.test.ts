import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TicketAttributes } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { DEMO_TICKETS } from '../server/src/seed/demo-feedback';
import { decoded, startSmtp } from '../server/src/testing/smtp';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';

/*
 * The feedback centre in Chromium (issue 34 item 1): a technician reports a problem offline, it
 * survives a reload and lands once; an admin declines it with an answer, which the reporter's open
 * page shows live and which reaches the reporter by mail (a real SMTP server on loopback).
 */
let e2e: E2e;

/** The photo of the leak (32 x 20 PNG). */
const leakPhoto = () =>
  sharp({ create: { width: 32, height: 20, channels: 3, background: { r: 160, g: 60, b: 30 } } })
    .png()
    .toBuffer();

let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  e2e = await E2e.start(inject('clientDist'), { env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await e2e.close();
  await smtp.close();
});

describe('feedback centre', () => {
  it('a problem reported offline with a photo lands once, with its photo; the admin declines it and the reporter reads the answer live and by mail', async () => {
    const tech = await e2e.signedInApp(DEMO_USERS.tech, '/app/feedback');
    const { page } = tech;
    await page.setViewportSize({ width: 1024, height: 768 });
    // /app/feedback leads to the problems of the platform board; the demo's declined one is there.
    await tech.waitForPath(/^\/app\/feedback\/platform$/);
    await expect
      .poll(() => page.getByTestId('ticket-link').allTextContents())
      .toContain(DEMO_TICKETS.declined);
    const session = await e2e.session(DEMO_USERS.tech);
    const tickets = async () =>
      (await e2e.serverModels(session.accountId, 'ticket')).map(
        (m) => m.attributes as TicketAttributes,
      );
    const before = (await tickets()).length;

    e2e.offline();
    try {
      await page.getByTestId('ticket-new').click();
      // Sent empty: the spec's words, on the fields.
      await page.getByTestId('ticket-send').click();
      await expect.poll(() => page.getByText('Title is required').count()).toBe(1);
      await expect.poll(() => page.getByText('Description is required').count()).toBe(1);
      // The focus on the first field with a problem, not left on Send.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
        .toBe('ticket-title');
      await page.getByTestId('ticket-title').fill('Coolant pump hums');
      await page.getByTestId('ticket-description').fill('The coolant pump hums loudly at start.');
      await page.getByTestId('ticket-importance').click();
      await page.getByRole('option', { name: 'Critical' }).click();
      const chooser = page.waitForEvent('filechooser');
      await page.getByTestId('ticket-photo-pick').click();
      await (
        await chooser
      ).setFiles({ name: 'leak.png', mimeType: 'image/png', buffer: await leakPhoto() });
      await expect.poll(() => page.getByText('leak.png').count()).toBe(1);
      await page.getByTestId('ticket-send').click();
      await tech.waitForPath(/^\/app\/feedback\/platform\/[0-9a-f-]+$/);
      await expect
        .poll(() => page.getByTestId('ticket-heading').textContent())
        .toBe('Coolant pump hums');
      // The breadcrumb names the ticket by its title.
      await expect
        .poll(() => new ShellPage(page).crumbs())
        .toEqual(['Feedback', 'Platform feedback', 'Coolant pump hums']);
      const photo = page.getByTestId('ticket-photo');
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);
      // A reload while offline: the report is in the worker, waiting for the server.
      const path = tech.path();
      await page.reload();
      await tech.waitForPath(new RegExp(`^${path}$`));
      await expect
        .poll(() => page.getByTestId('ticket-heading').textContent())
        .toBe('Coolant pump hums');
      await expect.poll(() => page.getByText('Not synced yet').count()).toBe(1);
      await expect.poll(() => page.getByTestId('ticket-state').textContent()).toBe('New');
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);
      // Its reporter may withdraw it before the server has it.
      await expect
        .poll(() => page.getByTestId('ticket-moves').getByRole('button').allTextContents())
        .toEqual(['Withdraw']);
    } finally {
      e2e.online();
    }
    await expect.poll(async () => (await tickets()).length, { timeout: 60_000 }).toBe(before + 1);
    const stored = (await tickets()).filter((x) => x.title === 'Coolant pump hums');
    expect(stored).toEqual([
      expect.objectContaining({
        state: 'new',
        importance: 'Critical',
        reported_by: session.userId,
        board: 'platform',
      }),
    ]);
    await expect.poll(() => page.getByText('Not synced yet').count()).toBe(0);
    // Its photo landed once, under it, with its bytes.
    const ticketId = tech.path().split('/').at(-1) ?? '';
    const photos = async () =>
      (await e2e.serverModels(session.accountId, 'file')).filter(
        (m) => m.attributes.ticket_id === ticketId,
      );
    await expect
      .poll(async () => (await photos()).map((m) => m.attributes.state), { timeout: 60_000 })
      .toEqual(['ready']);
    // The reporter may withdraw it, not approve or decline it.
    await expect
      .poll(() => page.getByTestId('ticket-moves').getByRole('button').allTextContents())
      .toEqual(['Withdraw']);

    // The admin, in a browser of its own, declines it with an answer.
    const ticketPath = tech.path();
    const admin = await e2e.signedInApp(DEMO_USERS.admin, ticketPath);
    await admin.page.setViewportSize({ width: 1024, height: 768 });
    await expect
      .poll(() => admin.page.getByTestId('ticket-heading').textContent())
      .toBe('Coolant pump hums');
    // The admin's browser reads the photo from the server.
    await expect
      .poll(() =>
        admin.page
          .getByTestId('ticket-photo')
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBe(32);
    await admin.page.getByTestId('move-declined').click();
    await expect
      .poll(() => admin.page.getByText('An answer to the reporter is required.').count())
      .toBe(1);
    const answer = 'The pump hums while it primes: this is normal for the first minute.';
    await admin.page.getByTestId('ticket-answer-input').fill(answer);
    await admin.page.getByTestId('move-declined').click();
    await expect.poll(() => admin.page.getByTestId('ticket-state').textContent()).toBe('Declined');

    // The reporter's open page shows the answer, live.
    await expect
      .poll(() => page.getByTestId('ticket-answer').textContent(), { timeout: 30_000 })
      .toContain(answer);
    await expect.poll(() => page.getByTestId('ticket-state').textContent()).toBe('Declined');
    // And a mail reaches the reporter.
    await expect
      .poll(
        () =>
          smtp.inbox
            .filter((m) => m.to.includes(DEMO_USERS.tech))
            .map((m) => decoded(m.raw))
            .some((m) => m.includes(answer) && m.includes(ticketPath)),
        { timeout: 30_000 },
      )
      .toBe(true);
  });
});
