import {
  AttributeIds,
  BrowseDirection,
  DataType,
  NodeClass,
  NodeId,
  ReferenceTypeIds,
  resolveNodeId,
  type BrowseResult,
  type ClientSession,
  type ReferenceDescription,
} from 'node-opcua-client';
import type { OpcuaNode } from '@plant/shared-schema';
import type { OpcuaLink } from './opcua-session';

/**
 * The address-space primitives behind browse and search: batched Browse calls that follow (or
 * release) continuation points, and the description of references as OpcuaNodes (data type
 * names, whether a node has children), each in as few round-trips as the device allows.
 */

/** A browse answer per node: its forward hierarchical references, or the status that refused it. */
export type Children = { references: ReferenceDescription[] } | { status: string };

const ALL_RESULT_FIELDS = 0x3f;
const HIERARCHICAL = resolveNodeId(ReferenceTypeIds.HierarchicalReferences);

/** Rejects with the signal's reason as soon as it aborts (node-opcua requests cannot be cancelled). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/**
 * The children of many nodes, `nodesPerBrowse` nodes per Browse call. With `follow`, each
 * node's continuation point is followed (BrowseNext, all of a batch's points in one call) until
 * its list is complete; without, only whether there is a first child matters, and the points
 * are released at once (a device has few of them).
 */
export async function browseMany(
  link: OpcuaLink,
  nodeIds: readonly NodeId[],
  signal: AbortSignal,
  follow: boolean,
): Promise<Children[]> {
  const out: Children[] = [];
  for (let start = 0; start < nodeIds.length; start += link.limits.nodesPerBrowse) {
    const chunk = nodeIds.slice(start, start + link.limits.nodesPerBrowse);
    const results = await abortable(
      link.session.browse(
        chunk.map((nodeId) => ({
          nodeId,
          browseDirection: BrowseDirection.Forward,
          referenceTypeId: HIERARCHICAL,
          includeSubtypes: true,
          nodeClassMask: 0,
          resultMask: follow ? ALL_RESULT_FIELDS : 0,
        })),
      ),
      signal,
    );
    const children = results.map((r): Children =>
      r.statusCode.isGood()
        ? { references: [...(r.references ?? [])] }
        : { status: r.statusCode.name },
    );
    await continueOrRelease(link.session, results, children, signal, follow);
    out.push(...children);
  }
  return out;
}

async function continueOrRelease(
  session: ClientSession,
  results: BrowseResult[],
  children: Children[],
  signal: AbortSignal,
  follow: boolean,
): Promise<void> {
  let pending = results.flatMap((r, index) =>
    r.statusCode.isGood() && r.continuationPoint?.length
      ? [{ index, point: r.continuationPoint }]
      : [],
  );
  const release = () =>
    session.browseNext(
      pending.map((p) => p.point),
      true,
    );
  if (pending.length === 0) return;
  if (!follow) return void (await abortable(release(), signal));
  try {
    while (pending.length > 0) {
      const next = await abortable(
        session.browseNext(
          pending.map((p) => p.point),
          false,
        ),
        signal,
      );
      pending = pending.flatMap(({ index }, i) => {
        const result = next[i];
        const target = children[index];
        if (!result || !target || !('references' in target)) return [];
        if (!result.statusCode.isGood()) {
          children[index] = { status: result.statusCode.name };
          return [];
        }
        target.references.push(...(result.references ?? []));
        return result.continuationPoint?.length ? [{ index, point: result.continuationPoint }] : [];
      });
    }
  } catch (err) {
    // Aborted halfway: the device's continuation points are few, give them back (best effort).
    if (pending.length > 0) release().catch(() => undefined);
    throw err;
  }
}

/**
 * The node class's name (`Variable`, `Object`…). By name: node-opcua has two NodeClass enums
 * (data-model's and the generated types'), equal in value but not in type.
 */
export function nodeClassName(reference: ReferenceDescription): string {
  return NodeClass[reference.nodeClass as number] ?? 'Unspecified';
}

/** A reference's target as a plain NodeId (`ns=1;s=…`), or undefined for another server's node. */
export function targetId(reference: ReferenceDescription): NodeId | undefined {
  const id = reference.nodeId;
  // Rare: references into other servers, or by namespace URI instead of index; neither can be
  // read through this session as they are.
  if (id.serverIndex !== 0 || id.namespaceUri) return undefined;
  return new NodeId(id.identifierType, id.value, id.namespace);
}

/** Built-in types (ns=0;i=1…21) are named like their DataType enum; others are read once. */
const BUILT_IN_TYPES = 21;
const typeNameCaches = new WeakMap<ClientSession, Map<string, string>>();

async function dataTypeNames(
  link: OpcuaLink,
  variables: readonly NodeId[],
  signal: AbortSignal,
): Promise<(string | null)[]> {
  const typeIds = await readAttribute(link, variables, AttributeIds.DataType, signal);
  let cache = typeNameCaches.get(link.session);
  if (!cache) typeNameCaches.set(link.session, (cache = new Map<string, string>()));
  const unknown = new Map<string, NodeId>();
  for (const id of typeIds) {
    if (!(id instanceof NodeId)) continue;
    const key = id.toString();
    if (id.namespace === 0 && typeof id.value === 'number' && id.value <= BUILT_IN_TYPES) {
      cache.set(key, DataType[id.value] ?? key);
    } else if (!cache.has(key)) unknown.set(key, id);
  }
  const ids = [...unknown.values()];
  const names = await readAttribute(link, ids, AttributeIds.BrowseName, signal);
  ids.forEach((id, i) => {
    const name: unknown = names[i];
    const text = typeof name === 'object' && name !== null && 'name' in name ? name.name : null;
    cache.set(id.toString(), typeof text === 'string' ? text : id.toString());
  });
  return typeIds.map((id) => (id instanceof NodeId ? (cache.get(id.toString()) ?? null) : null));
}

async function readAttribute(
  link: OpcuaLink,
  nodeIds: readonly NodeId[],
  attributeId: AttributeIds,
  signal: AbortSignal,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let start = 0; start < nodeIds.length; start += link.limits.nodesPerRead) {
    const chunk = nodeIds.slice(start, start + link.limits.nodesPerRead);
    const values = await abortable(
      link.session.read(chunk.map((nodeId) => ({ nodeId, attributeId }))),
      signal,
    );
    out.push(...values.map((v): unknown => (v.statusCode.isGood() ? v.value.value : null)));
  }
  return out;
}

/**
 * References as OpcuaNodes: the data type's name for variables (one Read of DataType for all,
 * one of BrowseName for types not seen before) and whether each has children (one probing
 * Browse per batch).
 */
export async function describeNodes(
  link: OpcuaLink,
  references: readonly { reference: ReferenceDescription; nodeId: NodeId }[],
  signal: AbortSignal,
): Promise<OpcuaNode[]> {
  const variables = references.filter((r) => nodeClassName(r.reference) === 'Variable');
  const [types, children] = await Promise.all([
    dataTypeNames(
      link,
      variables.map((r) => r.nodeId),
      signal,
    ),
    browseMany(
      link,
      references.map((r) => r.nodeId),
      signal,
      false,
    ),
  ]);
  const typeOf = new Map(variables.map((r, i) => [r, types[i] ?? null]));
  return references.map((r, i) => {
    const probe = children[i];
    return {
      node_id: r.nodeId.toString(),
      browse_name: r.reference.browseName.toString(),
      display_name: r.reference.displayName.text ?? r.reference.browseName.name ?? '',
      node_class: nodeClassName(r.reference),
      data_type: typeOf.get(r) ?? null,
      has_children: probe !== undefined && 'references' in probe && probe.references.length > 0,
    };
  });
}
