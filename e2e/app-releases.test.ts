import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  apiPaths,
  gatewayConfigSchema,
  gatewayTopics,
  type GatewayConfig,
  type ReleaseAttributes,
  type SyncedModel,
  uuidv7,
} from '@plant/shared-schema';
import { configsOf } from '../server/src/gateways/gateway-config';
import { DEMO_USERS } from '../server/src/seed/demo';
import { DEMO_RELEASES } from '../server/src/seed/demo-releases';
import { dataOf } from '../server/src/testing/harness';
import { connectGateway, makeGatewayCredentials } from '../server/src/testing/gateway-client';
import { uploadArtifact } from '../server/src/testing/release-upload';
import { E2e } from './support/fixture';

/*
 * Release management in Chromium (issue 35): an admin makes a version of the gateway agent on the
 * platforms page, uploads its file and releases it, then rolls it out to two gateways whose
 * agents (played by hand over the real broker) report their progress: each gateway's state moves
 * live on the screen, and the rollout halts by itself when the second rolls back. A draft's save
 * writes only what its user changed. A released version's fields no longer change, and a change
 * sent as another user releases it is refused with the server's words. A technician without the
 * permission is refused the area.
 */
let e2e: E2e;
let admin = '';
const boxes: MqttClient[] = [];

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  admin = (await e2e.session(DEMO_USERS.admin)).token;
});
afterAll(async () => {
  for (const box of boxes) await box.endAsync();
  await e2e.close();
});

/** A gateway of the account whose agent is played by hand: what it is offered, and its reports. */
async function gatewayBox(name: string) {
  const made = await e2e.server.call('POST', apiPaths.collection('gateways'), {
    token: admin,
    json: { name },
  });
  expect(made.status, made.text).toBe(201);
  const id = dataOf<SyncedModel>(made).id;
  const { secret } = await makeGatewayCredentials(e2e.server, admin, id);
  const client = await connectGateway(e2e.server, id, secret);
  boxes.push(client);
  const configs: GatewayConfig[] = [];
  client.on('message', (topic, payload) => {
    if (topic === gatewayTopics.config(id) && payload.length > 0)
      configs.push(gatewayConfigSchema.parse(JSON.parse(payload.toString())));
  });
  await client.subscribeAsync(gatewayTopics.config(id));
  return {
    id,
    /** The rollout offered to it now, if any. */
    offered: () => configs.at(-1)?.update?.deployment_id ?? null,
    report: (deployment: string, state: string, message: string | null = null) =>
      client.publishAsync(
        gatewayTopics.update(id),
        JSON.stringify({ deployment_id: deployment, state, version: '2.1.0', message }),
      ),
  };
}

describe('release management', () => {
  it("an admin releases a version and rolls it out: each gateway's state moves live on the screen, and the rollout halts by itself", async () => {
    const north = await gatewayBox('Press line North');
    const south = await gatewayBox('Press line South');
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/versions/platforms');
    const { page } = tab;
    await page.setViewportSize({ width: 1024, height: 768 });
    // The demo's two agent versions are listed, released.
    await expect
      .poll(() =>
        page
          .getByTestId('release-row')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-version'))),
      )
      .toEqual(expect.arrayContaining([DEMO_RELEASES.older, DEMO_RELEASES.newer]));

    // A new version of the agent: a draft, its file uploaded, then released.
    await page.getByTestId('release-new').click();
    await page.getByTestId('release-version').fill('2.1');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page
      .getByText('A version is three numbers with dots, like 1.4.2 (semantic versioning).')
      .waitFor();
    await page.getByTestId('release-version').fill('2.1.0');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await tab.waitForPath(/^\/app\/versions\/platforms\/agent\/[0-9a-f-]+\/general$/);
    await expect
      .poll(() => page.getByTestId('release-state').getAttribute('data-state'))
      .toBe('draft');
    expect(await page.getByTestId('release-release').isDisabled()).toBe(true);
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('release-artifact-pick').click();
    await (
      await chooser
    ).setFiles({
      name: 'agent-2.1.0.tgz',
      mimeType: 'application/gzip',
      buffer: Buffer.from('the agent, version 2.1.0'),
    });
    await page.getByTestId('release-artifact-ready').waitFor({ timeout: 60_000 });
    await page.getByTestId('release-release').click();
    await expect
      .poll(() => page.getByTestId('release-state').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('released');
    // Released: hashed and signed by the server, and no longer changeable here.
    await page.getByTestId('release-signed').waitFor();
    await page.getByTestId('release-fixed').waitFor();
    expect(await page.getByTestId('release-notes').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByTestId('release-save').count()).toBe(0);
    expect(await page.getByTestId('release-artifact-pick').count()).toBe(0);

    // Rolled out to both, one at a time, halting past 20 % failures.
    await page.getByTestId('rollout-new').click();
    await page.getByTestId('rollout-gateways').click();
    await page.getByRole('option', { name: /^Press line North/ }).click();
    await page.getByRole('option', { name: /^Press line South/ }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('rollout-batch').fill('1');
    await page.getByTestId('rollout-failures').fill('20');
    await page.getByRole('button', { name: 'Start rollout' }).click();
    const rollout = page.getByTestId('rollout');
    await rollout.waitFor({ timeout: 30_000 });
    const deployment = (await rollout.getAttribute('data-id')) ?? '';
    const stateOf = (gateway: string) =>
      page
        .locator(`[data-testid="rollout-gateway"][data-gateway="${gateway}"]`)
        .getAttribute('data-state');
    await expect.poll(() => stateOf(north.id)).toBe('pending');
    await expect.poll(() => stateOf(south.id)).toBe('pending');
    await expect
      .poll(() => rollout.getByTestId('rollout-state').getAttribute('data-state'))
      .toBe('running');

    // The first batch's agent reports; the screen follows each step.
    await expect.poll(() => north.offered(), { timeout: 15_000 }).toBe(deployment);
    expect(south.offered()).toBeNull();
    await north.report(deployment, 'downloading');
    await expect.poll(() => stateOf(north.id)).toBe('downloading');
    await north.report(deployment, 'installing');
    await expect.poll(() => stateOf(north.id)).toBe('installing');
    await north.report(deployment, 'succeeded');
    await expect.poll(() => stateOf(north.id)).toBe('succeeded');
    // The next batch: the second gateway's new version fails its health check and rolls back.
    await expect.poll(() => south.offered(), { timeout: 15_000 }).toBe(deployment);
    await south.report(deployment, 'downloading');
    await expect.poll(() => stateOf(south.id)).toBe('downloading');
    await south.report(deployment, 'rolled_back', 'health check failed: connections not read');
    await expect.poll(() => stateOf(south.id)).toBe('rolled_back');
    await expect
      .poll(() => rollout.getByTestId('rollout-state').getAttribute('data-state'), {
        timeout: 15_000,
      })
      .toBe('halted');
    await expect
      .poll(() => rollout.getByTestId('rollout-reason').textContent())
      .toBe('Halted: the failures passed the limit.');
    await expect
      .poll(() => rollout.getByTestId('rollout-progress').textContent())
      .toBe('2 of 2 done · 1 succeeded · 1 failed');
    expect(await rollout.getByText('health check failed: connections not read').count()).toBe(1);
    // Every step is kept with who did it and when: the server's history, on the page.
    const history = page.getByTestId('release-history-entry');
    const told = () => history.evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
    await expect
      .poll(told, { timeout: 15_000 })
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /Press line South.*downloading → rolled back: health check failed: connections not read$/,
          ),
          expect.stringMatching(/Press line North.*installing → succeeded$/),
          expect.stringMatching(/Ada Administrator.*Rollout started to 2 gateways$/),
          expect.stringMatching(/Ada Administrator.*Version draft → released$/),
          expect.stringMatching(/The server.*Rollout running → halted/),
        ]),
      );
    // Halted: resumed or cancelled by a user; cancelled, it stays as it ended.
    await rollout.getByTestId('rollout-cancel').click();
    await expect
      .poll(() => rollout.getByTestId('rollout-state').getAttribute('data-state'))
      .toBe('cancelled');
    expect(await rollout.getByTestId('rollout-resume').count()).toBe(0);
  });

  it("a draft's save writes only its user's changes, and a change to a draft another user released meanwhile is refused with the server's words", async () => {
    const id = uuidv7();
    const made = await e2e.server.call('POST', apiPaths.collection('releases'), {
      token: admin,
      json: { id, target: 'agent', name: 'Gateway agent', version: '2.2.0', notes: 'First notes' },
    });
    expect(made.status, made.text).toBe(201);
    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/versions/platforms/agent/${id}/general`,
    );
    const { page } = tab;
    const notes = page.getByTestId('release-notes');
    await expect.poll(() => notes.inputValue(), { timeout: 30_000 }).toBe('First notes');
    const { accountId } = await e2e.session(DEMO_USERS.admin);
    const storedNow = async () =>
      (await e2e.serverModels(accountId, 'release')).find((r) => r.id === id)?.attributes as
        ReleaseAttributes | undefined;
    // Another admin corrects the version number while this one edits the notes: the save writes
    // the notes alone, and the other's number stays.
    await notes.fill('Second notes');
    const renumbered = await e2e.server.call('PUT', apiPaths.model('releases', id), {
      token: admin,
      json: { version: '2.2.1' },
    });
    expect(renumbered.status, renumbered.text).toBe(200);
    await page.getByTestId('release-save').click();
    await page
      .getByTestId('release-general')
      .getByRole('status')
      .getByText(/^Saved/)
      .waitFor();
    await expect
      .poll(storedNow)
      .toMatchObject({ version: '2.2.1', notes: 'Second notes', state: 'draft' });
    await expect.poll(() => page.getByTestId('release-version-field').inputValue()).toBe('2.2.1');

    await notes.fill('Changed notes');
    // Meanwhile, released elsewhere (the page has not heard of it yet: the change is unsaved).
    e2e.offline();
    try {
      const fileId = await uploadArtifact(e2e.server, admin, id, new TextEncoder().encode('2.2.0'));
      const released = await e2e.server.call('PUT', apiPaths.model('releases', id), {
        token: admin,
        json: { artifact_file_id: fileId, state: 'released' },
      });
      expect(released.status, released.text).toBe(200);
      await page.getByTestId('release-save').click();
    } finally {
      e2e.online();
    }
    await page.getByTestId('release-refused').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('release-refused').textContent()).toBe(
      'A released version can no longer change.',
    );
    // The page shows the version as the server keeps it: released, its notes as they were.
    await expect
      .poll(() => page.getByTestId('release-state').getAttribute('data-state'))
      .toBe('released');
    await expect.poll(() => notes.inputValue()).toBe('Second notes');
    expect((await storedNow())?.notes).toBe('Second notes');
  });

  it("a module version's interface and data streams are written while a draft; made active on a machine, its gateway's configuration carries them", async () => {
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/versions');
    const { page } = tab;
    await page.setViewportSize({ width: 1024, height: 768 });
    await tab.waitForPath(/^\/app\/versions\/modules$/);
    await page.getByTestId('release-new').click();
    await page.getByTestId('release-name').fill('Press controller');
    await page.getByTestId('release-version').fill('1.0.0');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await tab.waitForPath(/^\/app\/versions\/modules\/Press%20controller\/1\.0\.0\/general$/);

    // The interface: what the machine software exposes, and where the gateway reads it.
    await page.getByTestId('module-tab-interface').click();
    await tab.waitForPath(/\/1\.0\.0\/interface$/);
    // The tab's own editor: the URL moves before the new tab renders, and a click in that moment
    // lands on the old tab's "Add row" (a clean clone's run failed so).
    await page.getByTestId('module-interface').getByTestId('module-row-add').click();
    await page.getByLabel('Key 1').fill('spindle');
    await page.getByLabel('Address 1').fill('HR 40001');
    await page.getByTestId('module-save').click();
    await page
      .getByRole('status')
      .getByText(/^Saved/)
      .waitFor();
    // The data streams an asset running it gets.
    await page.getByTestId('module-tab-datastreams').click();
    await tab.waitForPath(/\/1\.0\.0\/datastreams$/);
    await page.getByTestId('module-datastreams').getByTestId('module-row-add').click();
    await page.getByLabel('Key 1').fill('speed');
    await page.getByLabel('Name 1').fill('Spindle speed');
    await page.getByLabel('Datapoint 1').fill('spindle');
    await page.getByTestId('module-save').click();
    await page
      .getByRole('status')
      .getByText(/^Saved/)
      .waitFor();

    // Released with its file, then made active on the first machine.
    await page.getByRole('tab', { name: 'General' }).click();
    await tab.waitForPath(/\/1\.0\.0\/general$/);
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('release-artifact-pick').click();
    await (
      await chooser
    ).setFiles({
      name: 'press-1.0.0.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from('press'),
    });
    await page.getByTestId('release-artifact-ready').waitFor({ timeout: 60_000 });
    await page.getByTestId('release-release').click();
    await expect
      .poll(() => page.getByTestId('release-state').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('released');
    await page.getByTestId('module-assets-select').click();
    const machine = page.getByRole('option').first();
    const machineName = (await machine.textContent()) ?? '';
    await machine.click();
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.getByTestId('module-assets-gateways').textContent())
      .toBe('Gateways that get it: 1');
    await page.getByTestId('module-assets-save').click();
    await page.getByTestId('release-activate').click();
    await expect
      .poll(() => page.getByTestId('release-state').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('active');

    const { accountId } = await e2e.session(DEMO_USERS.admin);
    const asset = (await e2e.serverModels(accountId, 'asset')).find(
      (a) => a.attributes.name === machineName,
    );
    const gatewayId = String(asset?.attributes.gateway_id);
    await expect
      .poll(async () => (await configsOf(e2e.server.db, accountId)).get(gatewayId)?.modules, {
        timeout: 30_000,
      })
      .toEqual([
        expect.objectContaining({
          name: 'Press controller',
          version: '1.0.0',
          asset_ids: [asset?.id],
          datapoints: [{ key: 'spindle', address: 'HR 40001', type: 'number', unit: '' }],
          datastreams: [
            { key: 'speed', name: 'Spindle speed', datapoint: 'spindle', type: 'number', unit: '' },
          ],
        }),
      ]);
    // The module's list shows it with its active version.
    await page.getByRole('tab', { name: 'Modules' }).click();
    await tab.waitForPath(/^\/app\/versions\/modules$/);
    await expect
      .poll(() => page.getByTestId('module-row').allTextContents())
      .toContainEqual(expect.stringMatching(/^Press controller1\.0\.0Active1\.0\.01$/));
  });

  it('refuses a technician without the permission the release management screens', async () => {
    const tab = await e2e.signedInApp(DEMO_USERS.tech, '/app/devices/list');
    for (const path of ['/app/versions/platforms', '/app/firmware/list', '/app/boards/list']) {
      await tab.goto(path);
      await tab.waitForPath(/^\/app\/devices\/list$/);
      await tab.page.getByText('This page is not open to you', { exact: true }).waitFor();
      expect(await tab.page.getByTestId('platforms-page').count()).toBe(0);
    }
  });
});
