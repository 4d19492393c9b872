import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import type { SceneCamera, Vec3 } from '@plant/shared-schema';
import type { Logger } from '../logger';

/*
 * Pictures of 3D scenes (issue 32 item 5): Debian's Chromium, headless, one long-lived page whose
 * WebGL runs on SwiftShader (the CPU: a server has no GPU), drawing the scene with three as the
 * viewer does (same lights, background and tone mapping). Nothing it loads comes from a network:
 * the page, three's modules and the models' levels are answered by this process through
 * Playwright's request routing on an origin of its own. One picture at a time; a page that hangs
 * is closed with its browser, and the next picture starts a new one.
 */

export interface RenderedModel {
  readonly glb: Uint8Array;
  readonly position: Vec3;
  readonly rotation: Vec3;
  readonly flipX: boolean;
}

export interface RenderJob {
  readonly models: readonly RenderedModel[];
  readonly camera: SceneCamera;
  readonly width: number;
  readonly height: number;
}

export interface SceneRenderer {
  /** The picture as PNG bytes. */
  render(job: RenderJob): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Chromium is not on this machine: renderings say so. */
export class NoBrowser extends Error {}

const ORIGIN = 'http://render.localhost';
const RENDER_TIMEOUT_MS = 120_000;

/** Where Debian puts Chromium (CHROMIUM_PATH names another). */
export function chromiumPath(): string | undefined {
  const named = process.env.CHROMIUM_PATH;
  if (named !== undefined && named !== '') return existsSync(named) ? named : undefined;
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
}

/** three's folder, whose modules the page imports. */
function threeDir(): string {
  // Its main entry is build/three.cjs (its exports name no package.json).
  return path.dirname(path.dirname(createRequire(import.meta.url).resolve('three')));
}

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
</head><body style="margin:0"><script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
const DEG = Math.PI / 180;
window.renderScene = async (job) => {
  const canvas = document.createElement('canvas');
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  try {
    renderer.setPixelRatio(1);
    renderer.setSize(job.width, job.height, false);
    renderer.toneMapping = THREE.ACESFilmicToneMapping;
    const scene = new THREE.Scene();
    scene.background = new THREE.Color('#eef1f5');
    scene.add(new THREE.HemisphereLight('#ffffff', '#8d8d8d', 1.6));
    const sun = new THREE.DirectionalLight('#ffffff', 1.8);
    sun.position.set(5, 10, 7);
    scene.add(sun);
    for (const m of job.models) {
      const gltf = await loader.loadAsync(m.url);
      const group = new THREE.Group();
      group.position.fromArray(m.position);
      group.rotation.set(m.rotation[0] * DEG, m.rotation[1] * DEG, m.rotation[2] * DEG);
      group.scale.set(m.flipX ? -1 : 1, 1, 1);
      group.add(gltf.scene);
      scene.add(group);
    }
    const size = new THREE.Box3().setFromObject(scene).getSize(new THREE.Vector3()).length() || 1;
    const camera = new THREE.PerspectiveCamera(45, job.width / job.height, size / 500, size * 100);
    camera.position.fromArray(job.camera.position);
    camera.lookAt(new THREE.Vector3().fromArray(job.camera.target));
    renderer.render(scene, camera);
    const url = canvas.toDataURL('image/png');
    scene.traverse((o) => {
      o.geometry?.dispose();
      for (const m of [o.material].flat()) m?.dispose();
    });
    return url;
  } finally {
    renderer.dispose();
    renderer.forceContextLoss();
  }
};
window.renderReady = true;
</script></body></html>`;

export class ChromiumRenderer implements SceneRenderer {
  private browser: Promise<{ browser: Browser; page: Page }> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** The levels of the picture being made, by the path the page asks them at. */
  private levels = new Map<string, Uint8Array>();

  constructor(
    private readonly log: Logger,
    private readonly executable: string | undefined = chromiumPath(),
  ) {}

  render(job: RenderJob): Promise<Uint8Array> {
    const run = this.queue.then(() => this.renderNow(job));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const open = this.browser;
    this.browser = undefined;
    if (open !== undefined) await (await open.catch(() => undefined))?.browser.close();
  }

  private async renderNow(job: RenderJob): Promise<Uint8Array> {
    const { page } = await this.open();
    this.levels = new Map(job.models.map((m, i) => [`/level/${String(i)}.glb`, m.glb]));
    const payload = {
      width: job.width,
      height: job.height,
      camera: job.camera,
      models: job.models.map((m, i) => ({
        url: `${ORIGIN}/level/${String(i)}.glb`,
        position: m.position,
        rotation: m.rotation,
        flipX: m.flipX,
      })),
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      const url = await Promise.race([
        // The page's own function (PAGE above), called with the job.
        page.evaluate(
          (job) =>
            (globalThis as unknown as { renderScene: (j: unknown) => Promise<string> }).renderScene(
              job,
            ),
          payload,
        ),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('rendering timed out')), RENDER_TIMEOUT_MS);
        }),
      ]);
      const base64 = url.slice(url.indexOf(',') + 1);
      return new Uint8Array(Buffer.from(base64, 'base64'));
    } catch (err) {
      // A page that failed or hung is not trusted with the next picture.
      await this.close();
      throw err;
    } finally {
      clearTimeout(timer);
      this.levels = new Map();
    }
  }

  private open(): Promise<{ browser: Browser; page: Page }> {
    this.browser ??= this.launch();
    return this.browser.catch((err: unknown) => {
      this.browser = undefined;
      throw err;
    });
  }

  private async launch(): Promise<{ browser: Browser; page: Page }> {
    if (this.executable === undefined) throw new NoBrowser();
    // Loaded with the first picture: most servers never make one.
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: this.executable,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    browser.on('disconnected', () => {
      this.browser = undefined;
    });
    try {
      const page = await browser.newPage();
      // Everything the page asks for is answered here; anything else is refused.
      await page.route('**/*', (route) =>
        this.answer(route).catch(() => route.fulfill({ status: 500, body: '' })),
      );
      await page.goto(`${ORIGIN}/`);
      await page.waitForFunction('window.renderReady === true');
      this.log.info('renderer started', { executable: this.executable });
      return { browser, page };
    } catch (err) {
      // A browser that could not make its page is not kept running.
      await browser.close().catch(() => undefined);
      throw err;
    }
  }

  private async answer(route: Route): Promise<void> {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort();
    if (url.pathname === '/') {
      return route.fulfill({ contentType: 'text/html', body: PAGE });
    }
    const level = this.levels.get(url.pathname);
    if (level !== undefined) {
      return route.fulfill({ contentType: 'model/gltf-binary', body: Buffer.from(level) });
    }
    if (url.pathname.startsWith('/three/')) {
      const root = threeDir();
      const file = path.resolve(
        root,
        `.${decodeURIComponent(url.pathname.slice('/three'.length))}`,
      );
      if (file.startsWith(root + path.sep) && file.endsWith('.js')) {
        const body = await readFile(file).catch(() => undefined);
        if (body !== undefined) return route.fulfill({ contentType: 'text/javascript', body });
      }
    }
    return route.fulfill({ status: 404, body: '' });
  }
}
