import fc from 'fast-check';
import { modelByType, type UpdateMessage } from '@plant/shared-schema';
import { describe, expect, it } from 'vitest';
import { modelKey, type ModelDoc } from '../store/docs';
import { overlaying, rebase } from './rebase';
import { SimClient } from './testing/sim-client';
import { SimServer } from './testing/sim-server';
import { sameJson } from './writes';

/*
 * The convergence property (STYLE.md, DESIGN.md invariants 3 to 6): whatever the interleaving of
 * other users' writes, local writes, lost answers, and broker messages dropped, duplicated or
 * reordered, once the outbox is drained and every update delivered the local store equals the
 * server, no mutation was applied twice, and none vanished without an answer. Along the way,
 * every doc shows its server state with its pending mutations on top.
 *
 * The seed is printed at the start; run again with FC_SEED=<seed> to replay a failure.
 */

const TYPES = ['asset', 'gateway', 'datastreamgroup', 'datastream'] as const;
const NAMES = ['Press', 'lathe', 'Mill', 'drill', 'Saw', ''] as const;

const target = fc.record({
  type: fc.constantFrom(...TYPES),
  pick: fc.nat(50),
  name: fc.constantFrom(...NAMES),
  order: fc.integer({ min: 0, max: 4 }),
  field: fc.constantFrom('name', 'order', 'move', 'description', 'gateway'),
});
type Target = typeof target extends fc.Arbitrary<infer T> ? T : never;

const kind = fc.constantFrom('create', 'create', 'update', 'update', 'update', 'delete');
const command = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('server' as const), kind, target }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('local' as const), kind, target }) },
  fc.record({
    t: fc.constant('send' as const),
    count: fc.integer({ min: 1, max: 4 }),
    lose: fc.boolean(),
  }),
  fc.record({
    t: fc.constant('deliver' as const),
    count: fc.integer({ min: 1, max: 6 }),
    fault: fc.constantFrom('none', 'none', 'drop', 'dup', 'swap'),
  }),
  fc.record({ t: fc.constant('poll' as const) }),
  fc.record({ t: fc.constant('rebootstrap' as const) }),
);
type Command = typeof command extends fc.Arbitrary<infer T> ? T : never;
type Kind = 'create' | 'update' | 'delete';

interface Ref {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
}

class World {
  readonly server: SimServer;
  readonly client: SimClient;
  private readonly broker: UpdateMessage[] = [];
  private published = 0;
  private ids = 0;

  constructor(private readonly hidden: ReadonlySet<string>) {
    this.server = new SimServer('acct-1', hidden);
    this.client = new SimClient(this.server);
  }

  private pickOf(refs: readonly Ref[], type: string, pick: number): Ref | undefined {
    const ofType = refs.filter((r) => r.type === type);
    return ofType[pick % Math.max(1, ofType.length)];
  }

  /** Attributes for a create or an update, from what the writer sees (`refs`). */
  private attributesFor(kind: Kind, t: Target, refs: readonly Ref[], self?: Ref) {
    const gateway = this.pickOf(refs, 'gateway', t.pick);
    const asset = this.pickOf(refs, 'asset', t.pick);
    const group = this.pickOf(refs, 'datastreamgroup', t.pick);
    const type = self?.type ?? t.type;
    if (kind === 'create') {
      if (type === 'asset') return { name: t.name || 'Asset', gateway_id: gateway?.id ?? null };
      if (type === 'gateway') return { name: t.name };
      if (type === 'datastreamgroup')
        return asset && { asset_id: asset.id, name: t.name || 'Group', order: t.order };
      return group && { asset_id: group.attributes.asset_id, group_id: group.id, name: t.name };
    }
    if (t.field === 'order' && type === 'datastreamgroup') return { order: t.order };
    if (t.field === 'description' && type === 'asset') return { description: `d ${t.order}` };
    if (t.field === 'gateway' && type === 'asset') return { gateway_id: gateway?.id ?? null };
    if (t.field === 'move' && type === 'datastream' && group !== undefined)
      return { group_id: group.id, asset_id: group.attributes.asset_id };
    if (t.field === 'move' && type === 'datastreamgroup' && asset !== undefined)
      return { asset_id: asset.id };
    return { name: t.name };
  }

  write(writer: 'server' | 'local', kind: Kind, t: Target): void {
    const refs: Ref[] =
      writer === 'server'
        ? [...this.server.rows.values()]
        : this.client.visibleDocs().map((d) => ({ ...d, attributes: d.attributes ?? {} }));
    const self = kind === 'create' ? undefined : this.pickOf(refs, t.type, t.pick);
    if (kind !== 'create' && self === undefined) return;
    const attributes = kind === 'delete' ? {} : this.attributesFor(kind, t, refs, self);
    if (attributes === undefined) return;
    const type = self?.type ?? t.type;
    const id =
      self?.id ?? `${writer === 'server' ? 's' : 'c'}${String(++this.ids).padStart(4, '0')}`;
    if (writer === 'local') {
      if (this.hidden.has(type)) return;
      this.client.mutate(kind, type, id, attributes);
      return;
    }
    const collection = modelByType(type)?.collection ?? '';
    this.server.write({ kind, collection, id, body: attributes });
  }

  /** The broker gets every update the server logged, in order, as this client may see them. */
  private publish(): void {
    this.broker.push(...this.server.log.slice(this.published).map((u) => this.server.visible(u)));
    this.published = this.server.log.length;
  }

  deliver(count: number, fault: 'none' | 'drop' | 'dup' | 'swap'): void {
    this.publish();
    for (let i = 0; i < count && this.broker.length > 0; i++) {
      if (fault === 'swap' && this.broker.length > 1) {
        const [a, b] = this.broker.splice(0, 2) as [UpdateMessage, UpdateMessage];
        this.broker.unshift(b, a);
      }
      const msg = this.broker.shift();
      if (msg === undefined || fault === 'drop') continue;
      this.client.receive(msg);
      if (fault === 'dup') this.client.receive(msg);
    }
  }

  run(cmd: Command): void {
    switch (cmd.t) {
      case 'server':
      case 'local':
        this.write(cmd.t, cmd.kind, cmd.target);
        return;
      case 'send':
        this.client.send(cmd.count, cmd.lose);
        return;
      case 'deliver':
        this.deliver(cmd.count, cmd.fault);
        return;
      case 'poll':
        this.client.catchUp();
        return;
      case 'rebootstrap':
        this.client.bootstrap(3, () => undefined);
        return;
      default: {
        const never: never = cmd;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  }

  /** Everything sent, every answer received, every update delivered. */
  drain(): void {
    for (let round = 0; round < 100; round++) {
      this.client.send(Number.MAX_SAFE_INTEGER, false);
      this.deliver(Number.MAX_SAFE_INTEGER, 'none');
      this.client.catchUp();
      if (this.client.outbox.size === 0) return;
    }
    throw new Error(
      `The outbox does not drain: ${JSON.stringify([...this.client.outbox.values()])}`,
    );
  }
}

/** Every doc shows its server state with its pending mutations on top (invariant 6). */
function checkRebase(client: SimClient): void {
  for (const doc of client.docs.values()) {
    const live = overlaying([...client.outbox.values()].filter((m) => m.key === doc.key));
    expect(doc.server !== null || live.length > 0, `${doc.key} kept without reason`).toBe(true);
    expect(sameJson(doc.attributes, rebase(doc.server, doc.last_seq, live)), doc.key).toBe(true);
    if (doc.attributes === null) continue;
    // A pending field is never overwritten by the server: the newest pending value shows.
    const pendingFields = new Map<string, unknown>();
    for (const m of live) {
      if (m.kind === 'delete') pendingFields.clear();
      else for (const [f, v] of Object.entries(m.attributes)) pendingFields.set(f, v);
    }
    for (const [field, value] of pendingFields) expect(doc.attributes[field]).toEqual(value);
  }
}

/** A doc never goes back to an older server state (invariant 3: at most once, in order). */
function checkForward(client: SimClient, seqs: Map<string, number>): void {
  for (const [key, before] of seqs) {
    const doc = client.docs.get(key);
    if (doc === undefined) seqs.delete(key);
    else expect(doc.last_seq, key).toBeGreaterThanOrEqual(before);
  }
  for (const doc of client.docs.values()) seqs.set(doc.key, doc.last_seq);
}

function checkConverged(world: World): void {
  const { client, server } = world;
  expect([...client.outbox.values()]).toEqual([]);
  expect(client.refreshes).toEqual([]);
  for (const [id, times] of server.applied) expect(times, id).toBe(1);
  for (const id of client.made) {
    expect(server.applied.has(id) !== client.rejected.has(id), `${id} applied xor rejected`).toBe(
      true,
    );
  }
  const expected = new Map<string, Partial<ModelDoc>>(
    server.snapshotPage(null, Number.MAX_SAFE_INTEGER).map((m) => [
      modelKey(m.type, m.id),
      {
        server: m.attributes,
        attributes: m.attributes,
        last_seq: m.last_seq,
        parent_key: modelKey(m.parent_type, m.parent_id),
      },
    ]),
  );
  const local = new Map(
    [...client.docs.values()].map((d) => [
      d.key,
      {
        server: d.server,
        attributes: d.attributes,
        last_seq: d.last_seq,
        parent_key: d.parent_key,
      },
    ]),
  );
  expect(local).toEqual(expected);
  // Children sorted by (sort_key, id) come in the order of the server's latest updated_list.
  const lists = new Map<string, string[]>();
  for (const u of server.log)
    if (u.action === 'updated_list') lists.set(modelKey(u.type, u.id), u.list ?? []);
  for (const [parentKey, list] of lists) {
    if (!client.docs.has(parentKey)) continue;
    const children = [...client.docs.values()]
      .filter((d) => d.parent_key === parentKey && d.type === 'datastreamgroup')
      .sort((a, b) =>
        a.sort_key === b.sort_key ? (a.id < b.id ? -1 : 1) : a.sort_key < b.sort_key ? -1 : 1,
      )
      .map((d) => d.id);
    expect(children, parentKey).toEqual(list);
  }
}

describe('convergence of the local store with the server', () => {
  it('converges under random interleavings, faults and local mutations', () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
    process.stdout.write(`converge property: seed ${seed} (FC_SEED=${seed} to replay)\n`);
    const property = fc.property(
      fc.boolean(),
      fc.array(command, { minLength: 5, maxLength: 15 }),
      fc.array(command, { maxLength: 8 }),
      fc.array(command, { minLength: 20, maxLength: 100 }),
      (hideGateways, before, during, commands) => {
        const world = new World(new Set(hideGateways ? ['gateway'] : []));
        for (const cmd of before) if (cmd.t === 'server') world.run(cmd);
        const between = during.filter((c) => c.t === 'server');
        world.client.bootstrap(2, () => {
          const next = between.shift();
          if (next !== undefined) world.run(next);
        });
        const seqs = new Map<string, number>();
        for (const cmd of commands) {
          world.run(cmd);
          checkRebase(world.client);
          checkForward(world.client, seqs);
        }
        world.drain();
        checkRebase(world.client);
        checkConverged(world);
      },
    );
    try {
      fc.assert(property, { seed, numRuns: 300 });
    } catch (error) {
      throw new Error(`converge property failed with seed ${seed}`, { cause: error });
    }
  });
});
