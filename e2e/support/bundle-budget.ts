import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Issue 5's budget for the JavaScript a first visit of a page downloads, gzip level 9 (issue 29
 * item 6 holds every route to it): what a user on a slow line waits for before the page works.
 * The sync worker's own code does not count (it loads beside the page, off the main thread).
 */
export const PAGE_BUDGET_BYTES = 300 * 1024;

/** A route a budget is kept for by name: its path and the lazy chunks on its way (layout, page). */
export interface BudgetRoute {
  readonly name: string;
  readonly path: string;
  /** Sources of the route's lazy chunks as Vite's manifest names them (relative to client/). */
  readonly chunks: readonly string[];
  readonly budget: number;
}

const APP_LAYOUT = 'src/features/shell/app-layout.tsx';
const USER_LAYOUT = 'src/features/user/user-layout.tsx';

/** The routes the bench measures in Chromium too (bench/bundle-size.bench.ts). */
export const BUDGET_ROUTES: readonly BudgetRoute[] = [
  {
    name: 'sign-in',
    path: '/user/login',
    chunks: [USER_LAYOUT, 'src/features/user/login-page.tsx'],
    budget: PAGE_BUDGET_BYTES,
  },
  {
    name: 'devices-list',
    path: '/app/devices/list',
    chunks: [APP_LAYOUT, 'src/features/devices/devices-list-page.tsx'],
    budget: PAGE_BUDGET_BYTES,
  },
];

/** One chunk of Vite's build manifest (`build.manifest`, client/dist/.vite/manifest.json). */
interface ManifestChunk {
  readonly file: string;
  readonly src?: string;
  readonly isEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
}
type Manifest = Readonly<Record<string, ManifestChunk>>;

/** The first visit of one page: the files its browser fetches and their gzip sizes summed. */
export interface FirstVisit {
  readonly page: string;
  readonly files: readonly string[];
  readonly bytes: number;
}

/**
 * Reads the built client (`client/dist` or the e2e build) and answers, exactly, the JavaScript
 * each page's first visit downloads. A first visit fetches the entry and its static imports
 * (index.html preloads them), the start's lazy parts that run on every visit (the chosen
 * language's catalogue, English here; the service worker's helper), then the route's lazy chunks
 * (its layout and its page) with their static imports (Vite preloads those with the chunk).
 * A page's own lazy parts (a dialog, the map) load later, on use, and do not count.
 */
export class BuiltClient {
  private readonly gzipBytes = new Map<string, number>();

  private constructor(
    private readonly dist: string,
    private readonly manifest: Manifest,
  ) {}

  static async read(dist: string): Promise<BuiltClient> {
    const text = await readFile(path.join(dist, '.vite', 'manifest.json'), 'utf8');
    return new BuiltClient(dist, JSON.parse(text) as Manifest);
  }

  private chunk(key: string): ManifestChunk {
    const chunk = this.manifest[key];
    if (chunk === undefined) throw new Error(`no chunk ${key} in the build's manifest`);
    return chunk;
  }

  private entryKey(): string {
    const keys = Object.keys(this.manifest).filter((k) => this.manifest[k]?.isEntry === true);
    if (keys.length !== 1) throw new Error(`expected one entry, found ${keys.join(', ')}`);
    return keys[0] as string;
  }

  /** Manifest keys of `roots` and everything they import statically. */
  private closure(roots: readonly string[], into = new Set<string>()): Set<string> {
    const visit = (key: string) => {
      if (into.has(key)) return;
      into.add(key);
      for (const next of this.chunk(key).imports ?? []) visit(next);
    };
    roots.forEach(visit);
    return into;
  }

  /** What every visit loads before any route's own chunks. */
  private start(): Set<string> {
    const entry = this.closure([this.entryKey()]);
    const always = [...entry]
      .flatMap((key) => this.chunk(key).dynamicImports ?? [])
      .filter((key) => key === 'src/locales/en/messages.po' || key.includes('/workbox-window/'));
    return this.closure(always, entry);
  }

  /**
   * Every lazy chunk of ours the start code imports (the route tree's pages and layouts, and the
   * shell's own lazy parts), as its manifest source: not a catalogue, not a library's helper.
   */
  pages(): string[] {
    const start = this.start();
    const lazy = new Set(
      [...start]
        .flatMap((key) => this.chunk(key).dynamicImports ?? [])
        .filter((k) => !start.has(k)),
    );
    return [...lazy].filter((key) => key.startsWith('src/features/')).sort();
  }

  /** The layout a page sits in: the user area's for its own pages, the app's for every other. */
  layoutOf(page: string): string {
    if (page === APP_LAYOUT || page === USER_LAYOUT) return page;
    return page.startsWith('src/features/user/') ? USER_LAYOUT : APP_LAYOUT;
  }

  async firstVisit(chunks: readonly string[]): Promise<FirstVisit> {
    const keys = this.closure(chunks, this.start());
    const files = [...keys].map((key) => this.chunk(key).file).filter((f) => f.endsWith('.js'));
    let bytes = 0;
    for (const file of files) bytes += await this.gzipSize(file);
    return { page: chunks.at(-1) ?? '', files, bytes };
  }

  async gzipSize(file: string): Promise<number> {
    const known = this.gzipBytes.get(file);
    if (known !== undefined) return known;
    const size = gzipSync(await readFile(path.join(this.dist, file)), { level: 9 }).length;
    this.gzipBytes.set(file, size);
    return size;
  }
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
