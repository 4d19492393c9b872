import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { create } from 'qrcode';
import jsQR from 'jsqr';
import { DEMO_USERS, type DEMO_ACCOUNTS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import type { AppTab } from './support/app-tab';
import { syncIndicator } from './support/pages/devices';

/*
 * QR codes (issue 16 item 6): labels of chosen assets and gateways, each a code that decodes to
 * the item's link (an asset's page, a gateway's /scan?id=); the code of one asset on its page;
 * the labels offline; and /app/qr/scan reading a real (fake) camera: Chromium plays a Y4M video
 * of a code made here, the page decodes it and opens the asset, or links the gateway. Texts are
 * not asserted (their catalogue is extracted later): test ids, data attributes and paths are.
 */
let e2e: E2e;
let tmp: string;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-qr-'));
});
afterAll(async () => {
  await e2e.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The account's models of a type from the server's database, by name. */
async function modelsOf(account: keyof typeof DEMO_ACCOUNTS, type: 'asset' | 'gateway') {
  const accountId = (await e2e.server.demoAccountIds())[account];
  const models = await e2e.serverModels(accountId, type);
  return models
    .map((m) => ({
      id: m.id,
      name: String(m.attributes.name),
      mac: typeof m.attributes.mac === 'string' ? m.attributes.mac : '',
      serial: typeof m.attributes.serial === 'string' ? m.attributes.serial : '',
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const assetText = (id: string) => `${e2e.web.url}/app/devices/${id}/details`;
const gatewayText = (id: string) => `${e2e.web.url}/scan?id=${id}`;

/**
 * What a rendered code (an SVG) decodes to: drawn on a canvas in the page, its grey levels read
 * back, and decoded here with jsQR (the scanner's own decoder).
 */
async function decode(svg: Locator): Promise<string | null> {
  const size = 400;
  const gray = await svg.evaluate(async (element, side) => {
    const clone = element.cloneNode(true) as SVGSVGElement;
    clone.setAttribute('width', String(side));
    clone.setAttribute('height', String(side));
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
      new XMLSerializer().serializeToString(clone),
    )}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('no 2d context');
    context.fillStyle = '#fff';
    context.fillRect(0, 0, side, side);
    context.drawImage(image, 0, 0, side, side);
    const { data } = context.getImageData(0, 0, side, side);
    let bytes = '';
    for (let i = 0; i < data.length; i += 4) bytes += String.fromCharCode(data[i] ?? 255);
    return btoa(bytes);
  }, size);
  const levels = Buffer.from(gray, 'base64');
  const rgba = new Uint8ClampedArray(size * size * 4);
  levels.forEach((level, i) => {
    rgba.set([level, level, level, 255], i * 4);
  });
  return jsQR(rgba, size, size)?.data ?? null;
}

/**
 * A Y4M video (4:2:0) of a QR code of `text`, black on white in a 640x480 frame: Chromium's fake
 * camera plays it in a loop (`--use-file-for-fake-video-capture`).
 */
async function cameraVideo(name: string, text: string): Promise<string> {
  const [width, height] = [640, 480];
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const side = modules.size + 8;
  const px = Math.floor((height * 0.9) / side);
  const left = Math.floor((width - side * px) / 2) + 4 * px;
  const top = Math.floor((height - side * px) / 2) + 4 * px;
  const luma = Buffer.alloc(width * height, 235);
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (!modules.get(row, col)) continue;
      for (let y = 0; y < px; y += 1) {
        const start = (top + row * px + y) * width + left + col * px;
        luma.fill(16, start, start + px);
      }
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const file = path.join(tmp, `${name}.y4m`);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  await fs.writeFile(file, Buffer.concat([header, frame, frame, frame, frame, frame]));
  return file;
}

/**
 * Every camera stream the page opens, kept on `window` so a test can see whether its tracks were
 * stopped (a string: the page runs it as written).
 */
const RECORD_STREAMS = `
  window.qrStreams = [];
  const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    const stream = await original(constraints);
    window.qrStreams.push(stream);
    return stream;
  };
`;

/** How many of the recorded streams still have a live track. */
function liveStreams(tab: AppTab): Promise<number> {
  return tab.page.evaluate(
    () =>
      ((window as unknown as { qrStreams?: MediaStream[] }).qrStreams ?? []).filter((s) =>
        s.getTracks().some((t) => t.readyState === 'live'),
      ).length,
  );
}

/**
 * A browser whose camera shows a QR code of `text`, signed in as the admin (landed on `path`,
 * when given: one page load fewer).
 */
async function withCamera(name: string, text: string, path?: string): Promise<AppTab> {
  const video = await cameraVideo(name, text);
  const browser = await e2e.browser({
    args: [
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  await browser.context.addInitScript(RECORD_STREAMS);
  if (path !== undefined) return e2e.signedInApp(DEMO_USERS.admin, path, browser);
  const tab = await e2e.openApp(browser, '/user/login');
  await tab.signIn(DEMO_USERS.admin);
  return tab;
}

describe('QR labels', () => {
  it('prints one decodable code per chosen asset and gateway, with names and MACs', async () => {
    const assets = await modelsOf('root', 'asset');
    const gateways = await modelsOf('root', 'gateway');
    const [first, second] = assets;
    const [gateway] = gateways;
    if (first === undefined || second === undefined || gateway === undefined) {
      throw new Error('the demo account lacks assets or gateways');
    }
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/qr');
    await tab.page.getByTestId('qr-go-labels').click();
    await tab.waitForPath(/^\/app\/qr\/details$/);
    const page = tab.page;
    // Nothing chosen: the empty state, and nothing to print.
    await expect.poll(() => page.getByTestId('empty-state').count()).toBe(1);
    expect(await page.getByTestId('qr-print').isDisabled()).toBe(true);

    const choice = (id: string) => page.locator(`[data-testid="qr-choice"][data-id="${id}"]`);
    // Mantine puts the test id on the checkbox itself.
    for (const m of [first, second, gateway]) await choice(m.id).check();
    const labels = page.getByTestId('qr-label');
    await expect.poll(() => labels.count()).toBe(3);
    const label = (id: string) => page.locator(`[data-testid="qr-label"][data-id="${id}"]`);

    for (const asset of [first, second]) {
      const text = (await label(asset.id).textContent()) ?? '';
      expect(text).toContain(asset.name);
      expect(text).toContain(asset.mac);
      expect(await decode(label(asset.id).locator('svg'))).toBe(assetText(asset.id));
    }
    expect(await label(gateway.id).getAttribute('data-kind')).toBe('gateway');
    expect(await label(gateway.id).textContent()).toContain(gateway.name);
    expect(await decode(label(gateway.id).locator('svg'))).toBe(gatewayText(gateway.id));

    // Print calls the browser's print, and the printed page is the labels alone.
    await page.evaluate(() => {
      const w = window as unknown as { printed: number };
      w.printed = 0;
      window.print = () => {
        w.printed += 1;
      };
    });
    await page.getByTestId('qr-print').click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed))
      .toBe(1);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.mantine-AppShell-header').isVisible()).toBe(false);
    expect(await page.getByTestId('breadcrumb').isVisible()).toBe(false);
    expect(await page.getByTestId('qr-print').isVisible()).toBe(false);
    expect(await page.getByTestId('qr-search').isVisible()).toBe(false);
    expect(await labels.first().isVisible()).toBe(true);
    // Three labels to a row of the A4 sheet.
    const tops = await labels.evaluateAll((els) =>
      els.map((el) => Math.round(el.getBoundingClientRect().top)),
    );
    expect(new Set(tops).size).toBe(1);
    await page.emulateMedia({ media: 'screen' });

    // A search narrows the lists; "choose all listed" takes what matches.
    await page.getByTestId('qr-clear').click();
    await expect.poll(() => labels.count()).toBe(0);
    await page.getByTestId('qr-search').fill(first.name);
    const assetPicker = page.getByTestId('qr-picker-asset');
    await expect
      .poll(() => assetPicker.getByTestId('qr-choice').count())
      .toBe(assets.filter((a) => a.name.includes(first.name)).length);
    await assetPicker.getByTestId('qr-choose-all').click();
    await expect.poll(() => label(first.id).count()).toBe(1);
    expect(await label(second.id).count()).toBe(second.name.includes(first.name) ? 1 : 0);
  });

  it("an asset's page shows its code, and its label prints from there", async () => {
    const [asset] = await modelsOf('root', 'asset');
    if (asset === undefined) throw new Error('no asset');
    const tab = await e2e.signedInTab(DEMO_USERS.admin, `/app/devices/${asset.id}/details`);
    await tab.page.getByTestId('qr-code-button').click();
    const dialog = tab.page.getByRole('dialog');
    await expect.poll(() => dialog.locator('svg[role="img"]').count()).toBe(1);
    expect(await decode(dialog.locator('svg[role="img"]'))).toBe(assetText(asset.id));

    await dialog.getByTestId('qr-print-label').click();
    await tab.waitForPath(new RegExp(`^/app/qr/details\\?asset=${escaped(asset.id)}$`));
    const labels = tab.page.getByTestId('qr-label');
    await expect.poll(() => labels.count()).toBe(1);
    expect(await labels.first().getAttribute('data-id')).toBe(asset.id);
  });

  it("a gateway's page shows its code: its /scan link", async () => {
    const [gateway] = await modelsOf('root', 'gateway');
    if (gateway === undefined) throw new Error('no gateway');
    const tab = await e2e.signedInTab(DEMO_USERS.admin, `/app/gateways/${gateway.id}/details`);
    await tab.page.getByTestId('qr-code-button').click();
    const code = tab.page.getByRole('dialog').locator('svg[role="img"]');
    await expect.poll(() => code.count()).toBe(1);
    expect(await decode(code)).toBe(gatewayText(gateway.id));
  });

  it('renders the labels offline, from the local store', async () => {
    const [asset] = await modelsOf('root', 'asset');
    const [gateway] = await modelsOf('root', 'gateway');
    if (asset === undefined || gateway === undefined) throw new Error('no asset or gateway');
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');
    e2e.offline();
    try {
      await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');
      await tab.goto(`/app/qr/details?asset=${asset.id}`);
      const page = tab.page;
      await page.locator(`[data-testid="qr-choice"][data-id="${gateway.id}"]`).check();
      const label = (id: string) => page.locator(`[data-testid="qr-label"][data-id="${id}"]`);
      await expect.poll(() => label(gateway.id).locator('svg').count()).toBe(1);
      expect(await decode(label(asset.id).locator('svg'))).toBe(assetText(asset.id));
      expect(await decode(label(gateway.id).locator('svg'))).toBe(gatewayText(gateway.id));
    } finally {
      e2e.online();
    }
  });
});

describe('/app/qr/scan', () => {
  it('opens the asset whose code the camera sees, and stops the camera', async () => {
    const [asset] = await modelsOf('root', 'asset');
    if (asset === undefined) throw new Error('no asset');
    const tab = await withCamera('asset', assetText(asset.id), '/app/qr');
    await tab.page.getByTestId('qr-go-scan').click();
    await tab.waitForPath(new RegExp(`^/app/devices/${escaped(asset.id)}/details$`));
    await expect
      .poll(() => tab.page.getByTestId('asset-details').getAttribute('data-id'))
      .toBe(asset.id);
    // The camera was used, and is off once the page is left.
    expect(
      await tab.page.evaluate(() => (window as { qrStreams?: unknown[] }).qrStreams?.length),
    ).toBeGreaterThan(0);
    await expect.poll(() => liveStreams(tab)).toBe(0);
  });

  it('says a foreign code is not ours, and keeps looking', async () => {
    const tab = await withCamera('foreign', 'https://example.org/somewhere', '/app/qr/scan');
    const refused = tab.page.getByTestId('qr-refused');
    await expect.poll(() => refused.getAttribute('data-kind')).toBe('foreign');
    expect(await refused.textContent()).toContain('https://example.org/somewhere');
    expect(tab.path()).toBe('/app/qr/scan');
    expect(await tab.page.getByTestId('qr-camera').getAttribute('data-state')).toBe('scanning');
    // Leaving the page turns the camera off.
    await tab.navigateInApp('/app/qr');
    await expect.poll(() => liveStreams(tab)).toBe(0);
  });

  it('without a camera says so, and a typed code opens the asset or links the gateway', async () => {
    const [asset] = await modelsOf('root', 'asset');
    const [gateway] = await modelsOf('root', 'gateway');
    if (asset === undefined || gateway === undefined) throw new Error('no asset or gateway');
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/qr/scan');
    const camera = tab.page.getByTestId('qr-camera');
    await expect.poll(() => camera.getAttribute('data-state')).toMatch(/^(no-camera|denied|busy)$/);
    expect(await camera.getAttribute('role')).toBe('alert');

    const input = tab.page.getByTestId('qr-typed-input');
    const open = tab.page.getByTestId('qr-typed-open');
    const refused = tab.page.getByTestId('qr-refused');
    await input.fill('https://example.org/app/devices/x/details');
    await open.click();
    await expect.poll(() => refused.getAttribute('data-kind')).toBe('foreign');
    await input.fill(`${e2e.web.url}/app/users/list`);
    await open.click();
    await expect.poll(() => refused.getAttribute('data-kind')).toBe('unknown');
    expect(tab.path()).toBe('/app/qr/scan');

    await input.fill(assetText(asset.id));
    await open.click();
    await tab.waitForPath(new RegExp(`^/app/devices/${escaped(asset.id)}/details$`));

    // A gateway's serial number, as printed on it, links it through /scan.
    if (gateway.serial === '') throw new Error('the gateway has no serial');
    await tab.goto('/app/qr/scan');
    await tab.page.getByTestId('qr-typed-input').fill(gateway.serial);
    await tab.page.getByTestId('qr-typed-open').click();
    await tab.waitForPath(new RegExp(`^/app/gateways/${escaped(gateway.id)}/details$`));
  });

  // Last: the switch to North stays the admin's active account for the tests after it.
  it("links the gateway whose code the camera sees through /scan, in the gateway's account", async () => {
    const { north } = await e2e.server.demoAccountIds();
    const [gateway] = await modelsOf('north', 'gateway');
    if (gateway === undefined) throw new Error('no gateway in North');
    const tab = await withCamera('gateway', gatewayText(gateway.id));
    await tab.goto('/app/qr/scan');
    await tab.waitForPath(new RegExp(`^/app/gateways/${escaped(gateway.id)}/details$`));
    // Only /scan's linking switches to the gateway's account.
    await expect.poll(() => tab.page.evaluate(() => localStorage.getItem('account'))).toBe(north);
    await expect.poll(() => liveStreams(tab)).toBe(0);
  });
});
