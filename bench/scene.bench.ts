import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { API_BASE, apiPaths, type ThreedmodelAttributes } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway } from '../server/src/testing/gateway-client';
import { dataOf } from '../server/src/testing/harness';
import { sphereGlb } from '../server/src/testing/model-files';
import { uploadModel } from '../server/src/testing/model-upload';
import { E2e } from '../e2e/support/fixture';
import { buildClient } from '../e2e/support/web';
import { median, ms } from './browser-env';

/*
 * Issue 32's scene benchmark, the production build in headless Chromium (WebGL on SwiftShader,
 * as the e2e tests): a scene of one model (a sphere of BENCH_SCENE_SEGMENTS, 180,000 triangles
 * by default) opened once, so its level is on the device; then, each round, a navigation inside
 * the signed-in app to the scene until its first frame with the model is drawn, against three's
 * GLTFLoader (with meshopt's decoder) parsing the same level's GLB, already in a bare page's
 * memory, into a new WebGLRenderer of the viewer's size and drawing one frame. Also which routes
 * fetch three: the asset's page must not, the scene must.
 */

const ROUNDS = Number(process.env.BENCH_SCENE_ROUNDS ?? 8);
const WARM_UP = 1;
const SEGMENTS = Number(process.env.BENCH_SCENE_SEGMENTS ?? 300);

/**
 * Resolves with performance.now() once the viewer says its first frame was drawn: told by a
 * MutationObserver as the attribute is set (a poll each animation frame came up to a frame late,
 * and frames are slow while SwiftShader draws), with when the page, the viewer and its canvas
 * appeared.
 */
const FIRST_FRAME = `new Promise((resolve) => {
  const seen = {};
  const check = () => {
    const viewer = document.querySelector('[data-testid="model-viewer"]');
    for (const [k, sel] of [['page', '[data-testid="scene-page"]'], ['viewer', '[data-testid="model-viewer"]'], ['canvas', '[data-testid="model-viewer"] canvas']])
      if (seen[k] === undefined && document.querySelector(sel) !== null) seen[k] = performance.now();
    if (viewer === null || viewer.getAttribute('data-drawn') !== 'true') return false;
    window.__seen = seen;
    resolve(performance.now());
    return true;
  };
  if (check()) return;
  const watch = new MutationObserver(() => { if (check()) watch.disconnect(); });
  watch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-drawn', 'data-testid'] });
})`;

/** three's own page: the modules answered from node_modules on an origin of its own. */
const BARE_ORIGIN = 'http://bare.localhost';
const BARE_PAGE = `<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
</head><body style="margin:0"><script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
window.firstFrame = async (bytes, width, height) => {
  const start = performance.now();
  const canvas = document.createElement('canvas');
  canvas.style.width = width + 'px';
  canvas.style.height = height + 'px';
  document.body.replaceChildren(canvas);
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
  renderer.setPixelRatio(devicePixelRatio);
  renderer.setSize(width, height, false);
  const gltf = await loader.parseAsync(bytes.buffer, '');
  const scene = new THREE.Scene();
  scene.background = new THREE.Color('#eef1f5');
  scene.add(new THREE.HemisphereLight('#ffffff', '#8d8d8d', 1.6));
  const sun = new THREE.DirectionalLight('#ffffff', 1.8);
  sun.position.set(5, 10, 7);
  scene.add(sun);
  renderer.toneMapping = THREE.ACESFilmicToneMapping;
  scene.add(gltf.scene);

  const camera = new THREE.PerspectiveCamera(45, width / height, 0.01, 100);
  camera.position.set(1, 0.7, 1.4);
  camera.lookAt(0, 0, 0);
  renderer.render(scene, camera);
  // Drawn once a pixel read back says the GPU finished, as the app's viewer tells it.
  const gl = renderer.getContext();
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  const took = performance.now() - start;
  renderer.dispose();
  renderer.forceContextLoss();
  return took;
};
window.bareReady = true;
</script></body></html>`;

async function bareThreePage(page: Page): Promise<void> {
  const root = path.dirname(path.dirname(createRequire(import.meta.url).resolve('three')));
  await page.route(`${BARE_ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/') return route.fulfill({ contentType: 'text/html', body: BARE_PAGE });
    const file = path.resolve(root, `.${url.pathname.slice('/three'.length)}`);
    if (!url.pathname.startsWith('/three/') || !file.startsWith(root + path.sep))
      return route.fulfill({ status: 404, body: '' });
    return route.fulfill({ contentType: 'text/javascript', body: await readFile(file) });
  });
  await page.goto(`${BARE_ORIGIN}/`);
  await page.waitForFunction('window.bareReady === true');
}

/** Whether a request fetched the 3D code (three's renderer is in the viewer's chunk). */
async function isThree(request: Request): Promise<boolean> {
  if (request.resourceType() !== 'script') return false;
  const body = await request
    .response()
    .then((r) => r?.text())
    .catch(() => undefined);
  return body?.includes('WebGLRenderer') === true;
}

export async function benchScene(): Promise<string[]> {
  const dist = await buildClient();
  const e2e = await E2e.start(dist);
  try {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 0);
    const modelId = await uploadModel(e2e.server, admin.token, gw.assetId, 'Sphere', {
      'sphere.glb': await sphereGlb(SEGMENTS),
    });
    let model: ThreedmodelAttributes | undefined;
    for (let i = 0; i < 600 && model?.state !== 'ready'; i++) {
      model = (await e2e.serverModels(admin.accountId, 'threedmodel')).find((m) => m.id === modelId)
        ?.attributes as ThreedmodelAttributes | undefined;
      if (model?.state === 'failed') throw new Error(`model: ${String(model.reason)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const made = await e2e.server.call('POST', apiPaths.collection('scenes'), {
      token: admin.token,
      json: { asset_id: gw.assetId, name: 'Bench', models: [{ threedmodel_id: modelId }] },
    });
    if (made.status !== 201) throw new Error(`scene: ${made.status} ${made.text}`);
    const scenePath = `/app/devices/${gw.assetId}/scene/${dataOf<{ id: string }>(made).id}`;

    const profile = await e2e.browser({ serviceWorkers: 'block' });
    const tab = await e2e.openApp(profile, '/user/login');
    const page = tab.page;
    await page.setViewportSize({ width: 1024, height: 768 });
    await tab.signIn(DEMO_USERS.admin);
    await tab.goto('/app/home');
    await page.locator('[data-testid="bootstrap-progress"]').waitFor({ state: 'detached' });

    // Which routes fetch three: the asset's page, then the scene.
    const threeOn: string[] = [];
    const watch = (route: string) => (request: Request) =>
      void isThree(request).then((yes) => yes && threeOn.push(route));
    const onDetails = watch('details');
    page.on('requestfinished', onDetails);
    await tab.navigateInApp(`/app/devices/${gw.assetId}/details`);
    await page.getByTestId('asset-scenes').waitFor();
    await page.waitForLoadState('networkidle');
    page.off('requestfinished', onDetails);
    const onScene = watch('scene');
    page.on('requestfinished', onScene);
    await tab.navigateInApp(scenePath);
    await page.evaluate<number>(FIRST_FRAME);
    await page.waitForLoadState('networkidle');
    page.off('requestfinished', onScene);
    const quality = (await page.getByTestId('model-viewer').getAttribute('data-quality')) ?? '';
    const box = await page.getByTestId('model-viewer').boundingBox();

    // ---- opened in the app, its level cached ---------------------------------------------------
    const opened: number[] = [];
    for (let r = 0; r < ROUNDS + WARM_UP; r++) {
      await tab.navigateInApp('/app/home');
      await page.waitForTimeout(500);
      const start = await page.evaluate((to) => {
        const at = performance.now();
        history.pushState(history.state, '', to);
        dispatchEvent(new PopStateEvent('popstate', { state: history.state as unknown }));
        return at;
      }, scenePath);
      const drawn = await page.evaluate<number>(FIRST_FRAME);
      if (r >= WARM_UP) opened.push(drawn - start);
      if (process.env.BENCH_SCENE_PHASES === '1') {
        const seen = await page.evaluate<Record<string, number>>(
          '(() => { const s = { ...window.__seen }; for (const [i, m] of performance.getEntriesByType("mark").entries()) s[m.name + "#" + i] = m.startTime; performance.clearMarks(); return s; })()',
        );
        process.stdout.write(
          `phases: ${Object.entries(seen)
            .map(([k, v]) => `${k} ${ms(v - start)}`)
            .join(', ')}, drawn ${ms(drawn - start)}\n`,
        );
      }
    }

    // ---- the baseline: the same level's GLB in a bare page, through GLTFLoader ------------------
    const level = model?.levels.find((l) => l.quality === quality) ?? model?.levels[0];
    const glb = await fetch(
      `${e2e.server.url}${API_BASE}/${apiPaths.fileContent(level?.file_id ?? '')}`,
      {
        headers: { Authorization: `Bearer ${admin.token}` },
      },
    ).then(async (r) => new Uint8Array(await r.arrayBuffer()));
    const bare = await profile.context.newPage();
    await bare.setViewportSize({ width: 1024, height: 768 });
    await bareThreePage(bare);
    const width = Math.round(box?.width ?? 900);
    const height = Math.round(box?.height ?? 500);
    const direct: number[] = [];
    for (let r = 0; r < ROUNDS + WARM_UP; r++) {
      const took = await bare.evaluate(
        ([bytes, w, h]) =>
          (
            globalThis as unknown as {
              firstFrame: (b: Uint8Array, w: number, h: number) => Promise<number>;
            }
          ).firstFrame(new Uint8Array(bytes), w, h),
        [Array.from(glb), width, height] as const,
      );
      if (r >= WARM_UP) direct.push(took);
    }
    await bare.close();
    await profile.close();

    const ours = median(opened);
    const base = median(direct);
    const three = [...new Set(threeOn)];
    return [
      `scene-first-frame: ${(ours / base).toFixed(2)} (ours/baseline, target at most 1.3) a ` +
        `cached scene (${level?.triangles.toLocaleString('en') ?? '?'} triangles, ${quality} ` +
        `level, ${(glb.byteLength / 1024).toFixed(0)} KiB) opened in the app to its first frame ` +
        `${ms(ours)}; three's GLTFLoader on the same GLB in a bare page ${ms(base)}`,
      `scene-chunk: three fetched on ${three.length === 0 ? 'no route' : three.join(', ')} ` +
        `(target: the scene only, never the asset's page)`,
    ];
  } finally {
    await e2e.close();
    await rm(dist, { recursive: true, force: true });
  }
}
