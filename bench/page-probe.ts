import { writeFile } from 'node:fs/promises';
import type { CDPSession, Page } from 'playwright-core';

/*
 * Tools for looking inside a page's first paint (bench CONTEXT, "How to look inside a page"):
 * a probe put in the page that logs when the sync worker's messages land, when chosen elements
 * appear and when the main thread was busy, and CPU profiles of the page and of its workers
 * (`cpu-profile.ts` sums them). Nothing here is timed into a figure: the probe and the profiler
 * cost the page time of their own.
 */

/** A moment the probe logs: the first time `selector` matches (`count`: that many times). */
export interface Milestone {
  readonly name: string;
  readonly selector: string;
  readonly count?: number;
}

/**
 * The probe as a script (for `page.addInitScript`, from the document's start, or inside the
 * `evaluate` that navigates): logs into `window.__phases` [ms since it started, what] for
 * `watchMs`: every message of a Worker made after it (and of `globalThis.__plantSyncWorker`, the
 * early one) and of every MessagePort listened to (Comlink's callbacks), each milestone, the
 * first frames, and each stretch of more than 12 ms in which a 4 ms timer could not run.
 */
export function phasesProbe(milestones: readonly Milestone[], watchMs = 2_500): string {
  return `(() => {
  const t0 = performance.now();
  const log = [];
  window.__phases = log;
  const at = (what) => log.push([Math.round(performance.now() - t0), what]);
  const wrap = (target) => target.addEventListener('message', (e) => {
    const size = typeof e.data === 'object' ? JSON.stringify(e.data ?? null).length : 0;
    at('worker message ' + size + ' B');
  });
  if (globalThis.__plantSyncWorker) wrap(globalThis.__plantSyncWorker);
  const W = window.Worker;
  window.Worker = function (...args) { const made = new W(...args); at('worker made'); wrap(made); return made; };
  window.Worker.prototype = W.prototype;
  const add = MessagePort.prototype.addEventListener;
  MessagePort.prototype.addEventListener = function (type, fn, options) {
    if (type === 'message' && !this.__probed) {
      this.__probed = true;
      add.call(this, 'message', () => at('port message'), options);
    }
    return add.call(this, type, fn, options);
  };
  const milestones = ${JSON.stringify(milestones)};
  const seen = new Set();
  const look = () => {
    for (const m of milestones) {
      if (seen.has(m.name)) continue;
      if (document.querySelectorAll(m.selector).length >= (m.count ?? 1)) { seen.add(m.name); at(m.name); }
    }
  };
  const observer = new MutationObserver(look);
  const observe = () => observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true });
  if (document.documentElement) observe(); else document.addEventListener('readystatechange', observe, { once: true });
  addEventListener('DOMContentLoaded', () => at('DOMContentLoaded'));
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    if (now - last > 12) log.push([Math.round(last - t0), 'busy ' + Math.round(now - last) + ' ms']);
    last = now;
    if (now - t0 < ${watchMs}) setTimeout(tick, 4); else observer.disconnect();
  };
  setTimeout(tick, 4);
  const frame = () => { at('frame'); if (performance.now() - t0 < 200) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})()`;
}

/** Prints the probe's log, in time order, and the scripts the page fetched with their times. */
export async function printPhases(page: Page, title: string): Promise<void> {
  const log = await page.evaluate<[number, string][]>('window.__phases ?? []');
  const lines = [...log].sort((a, b) => a[0] - b[0]).map(([t, what]) => `  ${t} ${what}`);
  // Resource times count from the navigation's start, the probe's from its own.
  const scripts = await page.evaluate<[string, number, number][]>(
    `performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'script' || /\\.js$/.test(e.name)).map((e) => [e.name.split('/').pop(), Math.round(e.startTime), Math.round(e.responseEnd)])`,
  );
  process.stdout.write(
    `${title}\n${lines.join('\n')}\n  scripts (from the navigation's start):\n` +
      scripts.map(([n, a, b]) => `    ${n} ${a}..${b}`).join('\n') +
      '\n',
  );
}

/** Starts a CPU profile of the page's main thread; the returned stop writes it to `file`. */
export async function profilePage(page: Page, file: string): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = await cdp.send('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    await cdp.detach();
  };
}

interface TargetMessage {
  readonly sessionId: string;
  readonly message: string;
}

interface AttachedTarget {
  readonly sessionId: string;
  readonly targetInfo: { readonly type: string };
}

/**
 * CPU profiles of the workers the page starts from now on (a reload's sync worker), each from its
 * first line: the worker waits for the profiler before it runs. The returned stop writes the
 * profiles of the workers still alive to `<prefix>-<n>.cpuprofile` and answers their files.
 * Playwright's sessions cannot talk to a worker, so this goes through the page's session with
 * the (older, unflattened) `Target.sendMessageToTarget`.
 */
export async function profileWorkers(page: Page, prefix: string): Promise<() => Promise<string[]>> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  // CDP's Target domain as Playwright's typings do not list it (the unflattened messages).
  const raw = cdp as unknown as {
    send(method: string, params: object): Promise<unknown>;
    on(event: string, listener: (e: never) => void): void;
  };
  let id = 0;
  const pending = new Map<number, (result: unknown) => void>();
  const send = (sessionId: string, method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      id += 1;
      pending.set(id, resolve);
      raw
        .send('Target.sendMessageToTarget', {
          sessionId,
          message: JSON.stringify({ id, method, params }),
        })
        .catch(() => resolve(null));
    });
  raw.on('Target.receivedMessageFromTarget', (e: TargetMessage) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  });
  const workers: string[] = [];
  raw.on('Target.attachedToTarget', (e: AttachedTarget) => {
    if (e.targetInfo.type !== 'worker') return;
    workers.push(e.sessionId);
    void (async () => {
      await send(e.sessionId, 'Profiler.enable');
      await send(e.sessionId, 'Profiler.setSamplingInterval', { interval: 200 });
      await send(e.sessionId, 'Profiler.start');
      await send(e.sessionId, 'Runtime.runIfWaitingForDebugger');
    })();
  });
  await raw.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: true,
    flatten: false,
  });
  return async () => {
    const files: string[] = [];
    for (const [n, sessionId] of workers.entries()) {
      // A worker of the page before a reload is gone: its session answers nothing.
      const result = (await Promise.race([
        send(sessionId, 'Profiler.stop'),
        new Promise((resolve) => setTimeout(() => resolve(null), 3_000)),
      ])) as { profile?: unknown } | null;
      if (result?.profile === undefined) continue;
      const file = `${prefix}-${n}.cpuprofile`;
      await writeFile(file, JSON.stringify(result.profile));
      files.push(file);
    }
    await cdp.detach();
    return files;
  };
}

/**
 * Starts a Chrome trace of the browser (every process and thread: the page's main thread, its
 * compositor and raster threads, its workers); the returned stop writes its events to `file` as
 * JSON (`trace-summary.ts` lists the page's tasks between two of its `performance.mark`s).
 */
export async function tracePage(page: Page, file: string): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: {
      includedCategories: [
        'toplevel',
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-devtools.timeline.frame',
        'blink.user_timing',
        'v8.execute',
        'cc',
        'gpu',
        'v8',
        'disabled-by-default-v8.gc',
        'disabled-by-default-v8.compile',
        'v8.compile',
      ],
    },
  });
  return async () => {
    const done = new Promise<string>((resolve) =>
      cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream ?? '')),
    );
    await cdp.send('Tracing.end');
    const stream = await done;
    const parts: string[] = [];
    for (;;) {
      const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
      parts.push(
        chunk.base64Encoded === true ? Buffer.from(chunk.data, 'base64').toString() : chunk.data,
      );
      if (chunk.eof) break;
    }
    await cdp.send('IO.close', { handle: stream });
    await writeFile(file, parts.join(''));
    await cdp.detach();
  };
}
