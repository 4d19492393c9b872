import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { apiPaths, FORM_FIELD_TYPES } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { DEMO_FORM, DEMO_TASK_NAME } from '../server/src/seed/demo-forms';
import { dataOf } from '../server/src/testing/harness';
import { E2e } from './support/fixture';
import { imageLoaded, syncIndicator } from './support/pages/devices';

/*
 * Field work in the browser (issue 37 items 1 to 3): on a 1024 x 768 tablet an admin designs a form
 * with every field type (a bad formula said so), publishes it, and fills it in on a machine with
 * the network off: the spec's messages as the fields are typed, a photo and a finger signature;
 * a reload keeps the draft; sent, it waits on the device and, once online, lands once with both
 * files, shown in the machine's service booklet. The technician sees what the demo's weekly task
 * has due, in the menu and on the machine. A task's save writes only what its editor changed.
 */
let e2e: E2e;
let dir = '';

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  dir = await mkdtemp(path.join(tmpdir(), 'plant-forms-'));
});
afterAll(async () => {
  await e2e.close();
  await rm(dir, { recursive: true, force: true });
});

/** A stroke across the canvas, as a finger signs. */
async function sign(canvas: Locator): Promise<void> {
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (box === null) throw new Error('no signature pad');
  const page = canvas.page();
  await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.2, { steps: 6 });
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.6, { steps: 6 });
  await page.mouse.up();
}

describe('forms', () => {
  it('designed with every field type, filled in offline with a photo and a signature, land once in the booklet', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    // A machine whose booklet is empty (the demo's entries are on the first one).
    const filled = new Set(
      (await e2e.serverModels(admin.accountId, 'form_entry')).map((e) => e.attributes['asset_id']),
    );
    const assetId =
      (await e2e.serverModels(admin.accountId, 'asset')).find((a) => !filled.has(a.id))?.id ?? '';
    const jpeg = await sharp({
      create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 90, b: 20 } },
    })
      .jpeg()
      .toBuffer();
    const photoPath = path.join(dir, 'gauge.jpg');
    await writeFile(photoPath, jpeg);

    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/tasks');
    const page = tab.page;
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.getByTestId('form-new').click();
    await page.getByTestId('form-form').getByRole('textbox', { name: /^Name/ }).fill('Pump check');
    await page.getByRole('button', { name: 'Create form' }).click();
    await tab.waitForPath(/^\/app\/tasks\/[^/]+\/designer$/);
    const formId = tab.path().split('/')[3] ?? '';

    // Every field type, in order: their ids are type_n.
    const designer = page.getByTestId('form-designer');
    for (const type of FORM_FIELD_TYPES) {
      await designer.getByTestId('field-type-new').selectOption(type);
      await designer.getByTestId('field-add').click();
    }
    const cards = designer.getByTestId('designer-field');
    await expect.poll(() => cards.count()).toBe(FORM_FIELD_TYPES.length);
    // A formula that does not parse is said so, and nothing is published.
    const formula = designer.getByTestId('field-formula');
    await formula.fill('number_2 *');
    await expect
      .poll(() => designer.getByTestId('designer-problem').allTextContents())
      .toContain('Formula not valid');
    expect(await designer.getByTestId('form-publish').isDisabled()).toBe(true);
    await formula.fill('number_2 * 2');
    await expect.poll(() => designer.getByTestId('designer-problem').count()).toBe(0);
    // At most one choice of the multiple selection.
    await designer
      .locator('[data-field-type="multiselect"]')
      .getByLabel('Most choices (empty: any)')
      .fill('1');
    // The preview shows the form as the technician will fill it.
    await expect
      .poll(() => page.getByTestId('form-preview').getByText('Computed', { exact: true }).count())
      .toBe(1);
    await designer.getByTestId('form-publish').click();
    await expect.poll(() => designer.getByTestId('form-version').count()).toBe(1);
    await expect
      .poll(
        async () =>
          (await e2e.serverModels(admin.accountId, 'form_version')).filter(
            (v) => v.attributes['form_id'] === formId,
          ).length,
      )
      .toBe(1);

    // At the machine, with the network off.
    await expect.poll(() => syncIndicator(page).getAttribute('data-state')).toBe('online');
    e2e.offline();
    await expect.poll(() => syncIndicator(page).getAttribute('data-state')).toBe('offline');
    await tab.navigateInApp(`/app/devices/${assetId}/servicebooklet`);
    await page.getByTestId('booklet-fill').click();
    await page.getByTestId('booklet-fill-form').filter({ hasText: 'Pump check' }).click();
    await tab.waitForPath(/\/servicebooklet\/fill\//);
    const fill = page.getByTestId('form-fill');
    await fill.getByLabel('Text', { exact: true }).fill('Seal replaced');
    const number = fill.getByLabel('Number', { exact: true });
    await number.fill('7x');
    await number.blur();
    await expect.poll(() => fill.getByText('Must be a numerical value or empty').count()).toBe(1);
    await number.fill('7');
    await expect.poll(() => fill.getByLabel('Computed (formula)').inputValue()).toBe('14');
    await fill.getByLabel('Selection', { exact: true }).selectOption({ label: 'A' });
    await fill.getByRole('checkbox', { name: 'A', exact: true }).check();
    await fill.getByRole('checkbox', { name: 'B', exact: true }).check();
    await expect
      .poll(() => fill.getByText('Multiple selections invalid: item deselected').count())
      .toBe(1);
    expect(await fill.getByRole('checkbox', { name: 'A', exact: true }).isChecked()).toBe(false);
    await fill.getByRole('checkbox', { name: 'Checkbox', exact: true }).check();
    await fill.getByLabel('Date and time').fill('2026-12-01T10:30');
    await fill.getByTestId('photo-input').setInputFiles(photoPath);
    await expect.poll(() => fill.getByRole('img', { name: 'Photo 1' }).count()).toBe(1);
    await sign(fill.getByTestId('signature-pad'));
    await expect
      .poll(() => fill.getByTestId('signature-pad').getAttribute('data-signed'))
      .toBe('true');

    // A reload (still offline) keeps the draft: answers, photo and signature.
    await tab.reload();
    await expect
      .poll(() => fill.getByLabel('Text', { exact: true }).inputValue())
      .toBe('Seal replaced');
    expect(await fill.getByLabel('Number', { exact: true }).inputValue()).toBe('7');
    expect(await fill.getByRole('checkbox', { name: 'B', exact: true }).isChecked()).toBe(true);
    await expect.poll(() => fill.getByRole('img', { name: 'Photo 1' }).count()).toBe(1);
    await expect.poll(() => imageLoaded(fill.getByRole('img', { name: 'Photo 1' }))).toBe(true);
    await expect
      .poll(() => fill.getByTestId('signature-pad').getAttribute('data-signed'))
      .toBe('true');

    await page.getByTestId('fill-send').click();
    await tab.waitForPath(/\/servicebooklet$/);
    const entries = page.getByTestId('booklet-entry');
    await expect.poll(() => entries.count()).toBe(1);
    const onServer = async () =>
      (await e2e.serverModels(admin.accountId, 'form_entry')).filter(
        (e) => e.attributes['form_id'] === formId,
      );
    expect(await onServer()).toHaveLength(0);

    // Back online: one entry, its formula computed, with its two files.
    e2e.online();
    await expect.poll(async () => (await onServer()).length, { timeout: 20_000 }).toBe(1);
    const [entry] = await onServer();
    expect((entry?.attributes['values'] as Record<string, unknown>)['formula_9']).toBe(14);
    const files = async () =>
      (await e2e.serverModels(admin.accountId, 'file')).filter(
        (f) => f.attributes['form_entry_id'] === entry?.id,
      );
    await expect
      .poll(async () => (await files()).map((f) => f.attributes['state']), { timeout: 30_000 })
      .toEqual(['ready', 'ready']);
    expect((await files()).every((f) => f.attributes['asset_id'] === assetId)).toBe(true);
    await expect.poll(() => entries.count()).toBe(1);
    const shown = entries.first().getByTestId('booklet-file');
    await expect.poll(() => shown.count()).toBe(2);
    expect(await entries.first().locator('[data-answer="text_1"]').textContent()).toBe(
      'Seal replaced',
    );
  });

  it('show the technician what is due, in the menu and on the machine', async () => {
    const tech = await e2e.session(DEMO_USERS.tech);
    const tab = await e2e.signedInTab(DEMO_USERS.tech, '/app/tasks');
    const page = tab.page;
    // The demo's weekly task: done on the first machine yesterday, due on the other three.
    const count = page.getByTestId('menu-task-count');
    await expect.poll(() => count.getAttribute('data-count')).toBe('3');
    await expect
      .poll(() => page.getByTestId('forms-list').getByText(DEMO_FORM.name).count())
      .toBe(1);
    // Its schedule in words, singular for one week ('Every 1 weeks' before).
    await expect
      .poll(() => page.getByTestId('task-row').filter({ hasText: DEMO_TASK_NAME }).textContent())
      .toMatch(/Every week from /);
    const states = (await e2e.serverModels(tech.accountId, 'task_state')).filter(
      (s) => s.attributes['due'] === true,
    );
    const dueAsset = String(states[0]?.attributes['asset_id']);
    await tab.navigateInApp(`/app/devices/${dueAsset}/details`);
    await expect.poll(() => page.getByTestId('asset-due-task').count()).toBe(1);
    await page.getByTestId('asset-booklet').click();
    await tab.waitForPath(/\/servicebooklet$/);
    await expect.poll(() => page.getByTestId('due-task').count()).toBe(1);

    // The demo's service request in its machine's booklet: its state in words (it read
    // 'IN_PROGRESS', the stored value).
    const [request] = await e2e.serverModels(tech.accountId, 'service_request');
    expect(request?.attributes['state']).toBe('in_progress');
    await tab.navigateInApp(
      `/app/devices/${String(request?.attributes['asset_id'])}/servicebooklet`,
    );
    const state = page.locator('[data-testid="booklet-item"][data-kind="service"] [data-state]');
    await expect.poll(async () => (await state.textContent()) ?? '').toBe('In progress');
    // The demo's entries there have no photo and no signature: said as every empty answer is
    // (the PDF's way too), not a label beside nothing.
    const demoEntry = page.getByTestId('booklet-entry').first();
    await expect.poll(() => demoEntry.locator('[data-answer="photo"]').textContent()).toBe('–');
    expect(await demoEntry.locator('[data-answer="signature"]').textContent()).toBe('–');
  });

  it("a task's save writes what its editor changed, not over another admin's change meanwhile", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const formId =
      (await e2e.serverModels(admin.accountId, 'form')).find(
        (f) => f.attributes['name'] === DEMO_FORM.name,
      )?.id ?? '';
    const assetId = (await e2e.serverModels(admin.accountId, 'asset'))[0]?.id ?? '';
    const made = await e2e.server.call('POST', apiPaths.collection('tasks'), {
      token: admin.token,
      json: {
        name: 'Seal check',
        form_id: formId,
        asset_ids: [assetId],
        schedule: { kind: 'once', due_at: null },
      },
    });
    expect(made.status, made.text).toBe(201);
    const taskId = dataOf<{ id: string }>(made).id;
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/tasks');
    const page = tab.page;
    await page.getByTestId('tasks-list').getByRole('button', { name: 'Seal check' }).click();
    const form = page.getByTestId('task-form');
    await form.getByRole('textbox', { name: /^Name/ }).fill('Seal check, both pumps');
    // Another admin pauses the task while the form is open: the save renames it, and it stays
    // paused.
    const paused = await e2e.server.call('PUT', apiPaths.model('tasks', taskId), {
      token: admin.token,
      json: { active: false },
    });
    expect(paused.status, paused.text).toBe(200);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () =>
          (await e2e.serverModels(admin.accountId, 'task')).find((x) => x.id === taskId)
            ?.attributes,
      )
      .toMatchObject({ name: 'Seal check, both pumps', active: false });
  });
});
