import {
  type NodeId,
  ObjectIds,
  resolveNodeId,
  type ReferenceDescription,
} from 'node-opcua-client';
import type { OpcuaNode } from '@plant/shared-schema';
import { browseMany, describeNodes, nodeClassName, targetId } from './opcua-address-space';
import type { OpcuaLink } from './opcua-session';

/** Where a search stops on its own, besides maxResults and the caller's signal. */
export const DEFAULT_VISITED_NODES = 20_000;

const OBJECTS_FOLDER = resolveNodeId(ObjectIds.ObjectsFolder);

/** The children of a node (the Objects folder when none is given), in the device's order. */
export async function browseChildren(
  link: OpcuaLink,
  nodeId: string | undefined,
  signal: AbortSignal,
): Promise<OpcuaNode[]> {
  let target = OBJECTS_FOLDER;
  if (nodeId !== undefined) {
    try {
      target = resolveNodeId(nodeId);
    } catch {
      throw new Error(`Not a valid OPC UA node id: ${nodeId}`);
    }
  }
  const [children] = await browseMany(link, [target], signal, true);
  if (!children || 'status' in children) {
    throw new Error(
      `The device cannot browse ${target.toString()} (${children?.status ?? 'no answer'})`,
    );
  }
  const seen = new Set<string>();
  const references: { reference: ReferenceDescription; nodeId: NodeId }[] = [];
  for (const reference of children.references) {
    const id = targetId(reference);
    // One node reached by two references (Organizes and HasComponent) is listed once.
    if (!id || seen.has(id.toString())) continue;
    seen.add(id.toString());
    references.push({ reference, nodeId: id });
  }
  return describeNodes(link, references, signal);
}

export interface SearchOptions {
  readonly query: string;
  readonly maxResults: number;
  readonly signal: AbortSignal;
  readonly visitedNodes?: number;
}

/**
 * A breadth-first walk from the Objects folder, level by level, each level browsed in batches
 * (`nodesPerBrowse` nodes per call: 500 nodes are a handful of round-trips, not 500). A node
 * matches when its display or browse name contains the query, case-insensitively.
 *
 * It stops at maxResults, at the visited-node cap, or when the signal aborts (the caller's
 * minute, spec 001 §9): what was found is returned with `truncated: true`. The standard nodes
 * of namespace 0 (the Server object's hundreds of diagnostics) are matched but not walked into:
 * a machine builder looks for the machine's variables, and can still browse to those.
 */
export async function searchNodes(
  link: OpcuaLink,
  options: SearchOptions,
): Promise<{ nodes: OpcuaNode[]; truncated: boolean }> {
  const query = options.query.trim().toLowerCase();
  const visitedCap = options.visitedNodes ?? DEFAULT_VISITED_NODES;
  const found: OpcuaNode[] = [];
  if (query === '') return { nodes: found, truncated: false };
  const visited = new Set<string>([OBJECTS_FOLDER.toString()]);
  let level: NodeId[] = [OBJECTS_FOLDER];
  const batch = link.limits.nodesPerBrowse;
  try {
    while (level.length > 0) {
      const next: NodeId[] = [];
      for (let start = 0; start < level.length; start += batch) {
        options.signal.throwIfAborted();
        const chunk = level.slice(start, start + batch);
        const matches: { reference: ReferenceDescription; nodeId: NodeId }[] = [];
        let capped = false;
        for (const children of await browseMany(link, chunk, options.signal, true)) {
          if ('status' in children) continue;
          for (const reference of children.references) {
            const id = targetId(reference);
            if (!id || visited.has(id.toString())) continue;
            if (visited.size >= visitedCap) {
              capped = true;
              break;
            }
            visited.add(id.toString());
            if (isMatch(reference, query)) matches.push({ reference, nodeId: id });
            if (walksInto(reference, id)) next.push(id);
          }
        }
        const room = options.maxResults - found.length;
        found.push(...(await describeNodes(link, matches.slice(0, room), options.signal)));
        const more = matches.length > room || start + batch < level.length || next.length > 0;
        if (capped || (found.length >= options.maxResults && more)) {
          return { nodes: found, truncated: true };
        }
      }
      level = next;
    }
  } catch (err) {
    // The caller's time is up: what was found so far is the answer.
    if (options.signal.aborted) return { nodes: found, truncated: true };
    throw err;
  }
  return { nodes: found, truncated: false };
}

function isMatch(reference: ReferenceDescription, query: string): boolean {
  return (
    (reference.displayName.text ?? '').toLowerCase().includes(query) ||
    (reference.browseName.name ?? '').toLowerCase().includes(query)
  );
}

/** Objects and variables have children worth walking (PLC structures are variables with parts). */
const WALKED_CLASSES = new Set(['Object', 'Variable', 'View']);

function walksInto(reference: ReferenceDescription, id: NodeId): boolean {
  return id.namespace !== 0 && WALKED_CLASSES.has(nodeClassName(reference));
}
