import type { Plugin } from 'vite';

/** A code-splitting group of rolldown (`build.rolldownOptions.output.codeSplitting.groups`). */
interface ChunkGroup {
  readonly name: string;
  readonly test: (id: string) => boolean;
}

const APP_LAYOUT = /[\\/]client[\\/]src[\\/]features[\\/]shell[\\/]app-layout\.tsx$/;
const USER_AREA = /[\\/]client[\\/]src[\\/]features[\\/]user[\\/]/;
const OUR_CODE = /[\\/]client[\\/]src[\\/]/;

/**
 * One chunk for the app's frame (issue 29 item 6): our modules that the AppLayout imports
 * statically (menu, header, banners, sync indicator, their helpers) with the libraries they use
 * (rolldown's `includeDependenciesRecursively`). Every /app page loads the layout, so none of it
 * is extra there; left to the automatic split it was some thirty small files per page, each
 * compressed on its own, which cost about 14 KB gzip on the devices list's first visit. Only our
 * own modules are chosen (a library's entry, Mantine's index, would bring every component some
 * page uses), and not those the user area imports too. The libraries that come along are shared
 * with the user area's pages, so the sign-in page loads this chunk as well: 253 KB instead of
 * 197 KB, within its budget, the price of the list's 285 KB.
 */
export function appShellChunk(): { readonly plugin: Plugin; readonly group: ChunkGroup } {
  const imports = new Map<string, readonly string[]>();
  let members: Set<string> | undefined;

  const reach = (roots: readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const queue = [...roots];
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      queue.push(...(imports.get(id) ?? []));
    }
    return seen;
  };

  const compute = (): Set<string> => {
    const ids = [...imports.keys()];
    const shell = reach(ids.filter((id) => APP_LAYOUT.test(id)));
    for (const id of reach(ids.filter((id) => USER_AREA.test(id)))) shell.delete(id);
    return new Set([...shell].filter((id) => OUR_CODE.test(id) && !id.includes('node_modules')));
  };

  return {
    plugin: {
      name: 'plant:app-shell-chunk',
      buildStart() {
        imports.clear();
        members = undefined;
      },
      // Static imports only: the layout's lazy parts stay lazy.
      moduleParsed(info) {
        imports.set(info.id, info.importedIds);
      },
    },
    group: {
      name: 'app-shell',
      // Asked once the whole graph is parsed (rolldown groups modules after the build's parse).
      test: (id) => (members ??= compute()).has(id),
    },
  };
}
