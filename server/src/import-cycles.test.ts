import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No module may import, directly or through others, one that imports it back (issue 29 item 5).
 * A circle makes the load order decide which side sees the other's exports as undefined, and it
 * hides which module owns what. Type-only imports (`import type`, `export type … from`) count
 * too: they cost nothing at run time, but a circle of them still ties the two files together.
 * Dynamic `import()` does not count: it runs after both modules are loaded (the client's lazy
 * routes).
 *
 * The graph is read from the source text, not from TypeScript (which would take seconds): only
 * relative specifiers are followed, since a workspace reaches another through its package name
 * and eslint's dependency order already forbids circles between workspaces.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const WORKSPACES = [
  'shared-schema',
  'migrations',
  'server',
  'gateway-agent',
  'sync-worker',
  'client',
] as const;

/**
 * Circles known and left for now, each as the report prints it (one circle of the files that
 * import each other, from the smallest path). A new entry needs a reason beside it.
 */
const ALLOWED: readonly string[] = [
  // The client's areas (30a2bde): areas.ts lists every area's routes.tsx, which builds on
  // area-routes.tsx, which names menu-entries.ts's AreaMenuEntry type, and menu-entries.ts reads
  // AREAS. Only the type import closes it (nothing circles at run time); moving AreaMenuEntry
  // beside AreaDefinition unties it. Left to the client's owners (issue 29 item 5 report).
  'client/src/features/accounts/routes.tsx -> client/src/routes/area-routes.tsx -> ' +
    'client/src/features/shell/menu-entries.ts -> client/src/routes/areas.ts',
];

/** Every static import or re-export with a specifier, at the start of a line. */
const IMPORT_PATTERN =
  /^[ \t]*(?:import|export)(?:[ \t]+type)?(?:[ \t\n]+[\w*{}\s,$]*?[ \t\n]+from)?[ \t]*['"]([^'"\n]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules') found.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
      found.push(path);
    }
  }
  return found;
}

function resolveRelative(from: string, specifier: string, known: ReadonlySet<string>) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(?:js|jsx|ts|tsx|mjs)$/, '');
  for (const candidate of [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** The specifiers a module's text imports or re-exports statically. */
function specifiersOf(text: string): string[] {
  return [...text.matchAll(IMPORT_PATTERN)].map((match) => match[1]!);
}

/** The static relative imports of every non-test source file of a workspace, by file. */
function importGraph(workspace: string): Map<string, string[]> {
  const files = sourceFiles(join(ROOT, workspace, 'src'));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(file, specifier, known);
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/**
 * The circles of a graph: Tarjan's strongly connected components of more than one node (or a
 * node importing itself), each given as one circle through it, starting at its smallest node.
 */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;

  // Iterative, so a deep chain of imports cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next);
    next += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge]!;
        frame.edge += 1;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next);
          next += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) {
        low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfImport) components.push(component);
      }
    }
  }
  return components.map((component) => circleThrough(graph, new Set(component)));
}

/** One circle inside a strongly connected component: a shortest way from its first node back. */
function circleThrough(
  graph: ReadonlyMap<string, readonly string[]>,
  component: ReadonlySet<string>,
): string[] {
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i += 1) {
    const node = queue[i]!;
    for (const target of graph.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const circle = [node];
        while (circle[0] !== start) circle.unshift(cameFrom.get(circle[0]!)!);
        return circle;
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start];
}

describe('import circles', () => {
  it('finds a circle, a longer one and a self import, and nothing in a tree', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    expect(findCycles(graph)).toEqual(expect.arrayContaining([['a', 'b', 'c'], ['e']]));
    expect(findCycles(graph)).toHaveLength(2);
    expect(
      findCycles(
        new Map([
          ['x', ['y']],
          ['y', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads static imports, re-exports and type imports, not dynamic ones', () => {
    const text = [
      "import { a, type B } from './a.js';",
      "import type { C } from '../c';",
      'import {',
      '  d,',
      '  e as f,',
      "} from './d';",
      "import g, * as h from './g';",
      "import './side-effect';",
      "export * from './all';",
      "export type { I } from './i';",
      "export { j } from './j';",
      "const lazy = import('./lazy');",
      "export const k = 'not an import';",
      "// import { l } from './commented-out-by-position';",
    ].join('\n');
    expect(specifiersOf(text)).toEqual([
      './a.js',
      '../c',
      './d',
      './g',
      './side-effect',
      './all',
      './i',
      './j',
    ]);
  });

  it.each(WORKSPACES)('none in %s', (workspace) => {
    const circles = findCycles(importGraph(workspace)).map((circle) =>
      circle.map((file) => relative(ROOT, file)).join(' -> '),
    );
    expect(circles.filter((circle) => !ALLOWED.includes(circle))).toEqual([]);
  });
});
