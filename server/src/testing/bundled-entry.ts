import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * Test programs in child processes (the server's `main.ts`, the agent's) started from one
 * JavaScript file instead of `node --import tsx` (issue 29). tsx resolves and compiles each of
 * the ~250 modules of the server through Node's loader hooks at every start: 3.5 s of CPU for a
 * server that only parses its configuration and exits, against 1.35 s from a bundle (measured on
 * the 2-core CI machine). The suite starts such a process about thirty times per run.
 *
 * The bundle holds our own TypeScript (the workspaces, `@plant/*`) and leaves every package of
 * node_modules an import, loaded as under tsx (the same files, the same ESM/CommonJS interop).
 * Each module keeps its own `import.meta.url`/`dirname`/`filename` (replaced by its source
 * file's), so paths relative to a module (the sandbox's worker, the built client, createRequire)
 * are what they are under tsx. The file lies in node_modules/.cache so that the imports left in it
 * resolve from the repository's node_modules; it is named by its content's hash, so processes
 * that build the same sources at the same time write the same file (written whole, then renamed).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'plant-test-bundles');

/** The workspaces' TypeScript, bundled; every other bare import (packages, node:) stays one. */
const ownCodeOnly: Plugin = {
  name: 'own-code-only',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@plant/') || path.isAbsolute(args.path)
        ? undefined
        : { path: args.path, external: true },
    );
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: { main: entry },
    bundle: true,
    // A dynamic import() stays lazy in a chunk of its own: inlined, the packages it imports were
    // loaded at every start (the agent's main.ts imports its connectors, node-opcua among them,
    // only once its flags are good: 5.7 s of CPU for a bad flag instead of 1.1 s).
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: '/',
    // ESM by its name: node_modules/.cache is in no package of type module.
    outExtension: { '.js': '.mjs' },
    write: false,
    logLevel: 'silent',
    plugins: [ownCodeOnly],
  });
  const hash = createHash('sha256');
  for (const out of result.outputFiles) hash.update(out.path).update(out.contents);
  const name = path.relative(ROOT, entry).replace(/\.ts$/, '').replaceAll(/[/\\]/g, '-');
  const prefix = `${name}-`;
  const dir = path.join(CACHE, `${prefix}${hash.digest('hex').slice(0, 16)}`);
  if (fs.existsSync(dir)) {
    // Used now: kept from the pruning below.
    const now = new Date();
    fs.utimesSync(dir, now, now);
  } else {
    fs.mkdirSync(CACHE, { recursive: true });
    const temp = `${dir}.${process.pid}.tmp`;
    fs.rmSync(temp, { recursive: true, force: true });
    for (const out of result.outputFiles) {
      const file = path.join(temp, out.path);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, out.contents);
    }
    try {
      fs.renameSync(temp, dir);
    } catch (error) {
      // Another process wrote the same bundle first.
      fs.rmSync(temp, { recursive: true, force: true });
      if (!fs.existsSync(dir)) throw error;
    }
    // Bundles of older sources: kept a day after their last use (another run may still start
    // one), then removed.
    for (const old of fs.readdirSync(CACHE)) {
      const at = path.join(CACHE, old);
      if (!old.startsWith(prefix) || at === dir) continue;
      const stat = fs.statSync(at, { throwIfNoEntry: false });
      if (stat !== undefined && Date.now() - stat.mtimeMs > DAY_MS) {
        fs.rmSync(at, { recursive: true, force: true });
      }
    }
  }
  return path.join(dir, 'main.mjs');
}

const DAY_MS = 24 * 3600_000;

const bundles = new Map<string, Promise<string>>();

/**
 * The path of a runnable bundle of the TypeScript program `entry` (absolute), made once per test
 * process (about 0.3 s of CPU and a second of wall time for the server): run it with
 * `node <path>` where `node --import tsx <entry>` would run.
 */
export function bundledEntry(entry: string): Promise<string> {
  let made = bundles.get(entry);
  if (made === undefined) {
    made = bundle(entry);
    // A failed build is tried again by the next caller.
    made.catch(() => bundles.delete(entry));
    bundles.set(entry, made);
  }
  return made;
}

/**
 * A program as one JavaScript file (no chunks), its own code bundled and packages left imports
 * (they resolve from a node_modules beside or above where the file is put): a release artifact
 * of the gateway agent in its tests (issue 35). `replace` gives other contents for some of its
 * source files (absolute paths): another version's number, a build that misbehaves.
 */
export async function singleFileBuild(
  entry: string,
  replace: Readonly<Record<string, string>> = {},
): Promise<Uint8Array> {
  const replacing: Plugin = {
    name: 'replace-sources',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const contents = replace[args.path];
        return contents === undefined ? undefined : { contents, loader: 'ts' };
      });
    },
  };
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    outfile: 'agent.mjs',
    logLevel: 'silent',
    plugins: [replacing, ownCodeOnly],
  });
  const out = result.outputFiles[0];
  if (out === undefined) throw new Error(`no build of ${entry}`);
  return out.contents;
}
