import { describe, expect, it } from 'vitest';
import { applyUpdate } from './apply-update';
import {
  addMutation,
  confirmMutation,
  rejectMutation,
  settleConfirmed,
  throughSeqOf,
} from './mutations';
import { after, assetDoc, ctx, mutation, update } from './testing/fixtures';

const cursor = (lastSeq: number) => ({ lastSeq, lastTs: 1000 + lastSeq });

/** Applies `msg` to the state `s` and answers the next state. */
function deliver(s: ReturnType<typeof after>, msg: ReturnType<typeof update>, lastSeq: number) {
  const key = `${msg.type}:${msg.id}`;
  const mutations = s.mutations.filter((m) => m.key === key);
  const result = applyUpdate(ctx, {
    cursor: cursor(lastSeq),
    msg,
    doc: s.docs.get(key),
    mutations,
  });
  if (result.kind !== 'applied') throw new Error(result.kind);
  return after(result.writes, [...s.docs.values()], s.mutations);
}

describe('local mutations (DESIGN.md invariant 6)', () => {
  it('an optimistic create shows at once, placed by its attributes, before the server has it', () => {
    const create = mutation('create', 'c1', { name: 'New press' });
    const s = after(addMutation(ctx, create, undefined, []));
    expect(s.mutations).toEqual([create]);
    expect(s.docs.get('asset:c1')).toMatchObject({
      parent_key: 'account:acct-1',
      sort_key: 'new press',
      last_seq: 0,
      server: null,
      attributes: { name: 'New press' },
    });
  });

  it('an optimistic update overlays its fields; an optimistic delete hides the doc but keeps it', () => {
    const doc = assetDoc('a1', { name: 'Press', description: 'old' }, 3);
    const edit = mutation('update', 'a1', { description: 'mine' });
    let s = after(addMutation(ctx, edit, doc, []), [doc]);
    expect(s.docs.get('asset:a1')?.attributes).toEqual({ name: 'Press', description: 'mine' });
    const del = mutation('delete', 'a1', {});
    s = after(
      addMutation(ctx, del, s.docs.get('asset:a1'), s.mutations),
      [...s.docs.values()],
      s.mutations,
    );
    expect(s.docs.get('asset:a1')).toMatchObject({
      attributes: null,
      server: { name: 'Press', description: 'old' },
    });
  });

  it('a confirmed mutation keeps overlaying until its update arrives, then the server state shows', () => {
    const doc = assetDoc('a1', { name: 'Press' }, 3);
    const edit = mutation('update', 'a1', { name: 'Mine' });
    let s = after(addMutation(ctx, edit, doc, []), [doc]);
    const events = [
      update(4, {
        action: 'attributes_updated',
        type: 'asset',
        id: 'a1',
        attributes: { name: 'Mine' },
      }),
    ];
    s = after(
      confirmMutation(ctx, edit, events, cursor(3), s.docs.get('asset:a1'), s.mutations),
      [...s.docs.values()],
      s.mutations,
    );
    expect(s.mutations).toEqual([{ ...edit, state: 'confirmed', through_seq: 4 }]);
    expect(s.docs.get('asset:a1')?.attributes).toEqual({ name: 'Mine' });

    s = deliver(s, events[0]!, 3);
    expect(s.mutations).toEqual([]);
    expect(s.docs.get('asset:a1')).toMatchObject({
      server: { name: 'Mine' },
      attributes: { name: 'Mine' },
      last_seq: 4,
    });
  });

  it('a confirmation whose update is already applied drops the mutation at once', () => {
    const doc = assetDoc('a1', { name: 'Press' }, 3);
    const edit = mutation('update', 'a1', { name: 'Mine' });
    let s = after(addMutation(ctx, edit, doc, []), [doc]);
    s = deliver(
      s,
      update(4, {
        action: 'attributes_updated',
        type: 'asset',
        id: 'a1',
        attributes: { name: 'Mine' },
      }),
      3,
    );
    s = deliver(
      s,
      update(5, {
        action: 'attributes_updated',
        type: 'asset',
        id: 'a1',
        attributes: { name: 'Theirs' },
      }),
      4,
    );
    expect(s.docs.get('asset:a1')?.attributes).toEqual({ name: 'Mine' }); // still pending here
    const events = [
      update(4, {
        action: 'attributes_updated',
        type: 'asset',
        id: 'a1',
        attributes: { name: 'Mine' },
      }),
    ];
    s = after(
      confirmMutation(ctx, edit, events, cursor(5), s.docs.get('asset:a1'), s.mutations),
      [...s.docs.values()],
      s.mutations,
    );
    expect(s.mutations).toEqual([]);
    expect(s.docs.get('asset:a1')?.attributes).toEqual({ name: 'Theirs' });
  });

  it('a rejected update is rolled back to the server state and the other pending mutations', () => {
    const doc = assetDoc('a1', { name: 'Press', description: '' }, 3);
    const bad = mutation('update', 'a1', { name: '' });
    const good = mutation('update', 'a1', { description: 'fine' });
    let s = after(addMutation(ctx, bad, doc, []), [doc]);
    s = after(
      addMutation(ctx, good, s.docs.get('asset:a1'), s.mutations),
      [...s.docs.values()],
      s.mutations,
    );
    s = after(
      rejectMutation(ctx, bad, 'Name is required', true, s.docs.get('asset:a1'), s.mutations),
      [...s.docs.values()],
      s.mutations,
    );
    expect(s.docs.get('asset:a1')?.attributes).toEqual({ name: 'Press', description: 'fine' });
    // Kept to be shown, with the server's message, and no longer on the doc.
    expect(s.mutations.find((m) => m.mutation_id === bad.mutation_id)).toMatchObject({
      state: 'failed',
      last_error: 'Name is required',
    });
  });

  it('a rejected create removes the doc it made', () => {
    const create = mutation('create', 'c1', { name: 'New' });
    let s = after(addMutation(ctx, create, undefined, []));
    s = after(
      rejectMutation(ctx, create, 'Unknown gateway.', false, s.docs.get('asset:c1'), s.mutations),
      [...s.docs.values()],
      s.mutations,
    );
    expect(s.docs.size).toBe(0);
    expect(s.mutations).toEqual([]);
  });

  it('an optimistic create the server applied and then deleted does not come back', () => {
    const create = mutation('create', 'c1', { name: 'New' });
    let s = after(addMutation(ctx, create, undefined, []));
    s = deliver(
      s,
      update(1, {
        action: 'updated',
        type: 'asset',
        id: 'c1',
        attributes: { name: 'New', status: 'unknown' },
      }),
      0,
    );
    expect(s.docs.get('asset:c1')?.attributes).toEqual({ name: 'New', status: 'unknown' });
    s = deliver(s, update(2, { action: 'item_deleted', type: 'asset', id: 'c1' }), 1);
    expect(s.docs.get('asset:c1')).toMatchObject({ server: null, attributes: null, last_seq: 2 });
    // The answer to the create arrives late: the mutation goes, and with it the tombstone.
    const events = [update(1, { action: 'updated', type: 'asset', id: 'c1', attributes: {} })];
    s = after(
      confirmMutation(ctx, create, events, cursor(2), s.docs.get('asset:c1'), s.mutations),
      [...s.docs.values()],
      s.mutations,
    );
    expect(s.docs.size).toBe(0);
    expect(s.mutations).toEqual([]);
  });

  it('an optimistic delete stays hidden through server updates and comes back with them if rejected', () => {
    const doc = assetDoc('a1', { name: 'Press' }, 3);
    const del = mutation('delete', 'a1', {});
    let s = after(addMutation(ctx, del, doc, []), [doc]);
    s = deliver(
      s,
      update(4, {
        action: 'attributes_updated',
        type: 'asset',
        id: 'a1',
        attributes: { name: 'Renamed' },
      }),
      3,
    );
    expect(s.docs.get('asset:a1')).toMatchObject({ attributes: null, server: { name: 'Renamed' } });
    s = after(
      rejectMutation(ctx, del, 'Forbidden', false, s.docs.get('asset:a1'), s.mutations),
      [...s.docs.values()],
      s.mutations,
    );
    expect(s.docs.get('asset:a1')?.attributes).toEqual({ name: 'Renamed' });
  });

  it('an update of a model the server deleted shows nothing and goes when rejected', () => {
    const doc = assetDoc('a1', { name: 'Press' }, 3);
    const edit = mutation('update', 'a1', { name: 'Mine' });
    let s = after(addMutation(ctx, edit, doc, []), [doc]);
    s = deliver(s, update(4, { action: 'item_deleted', type: 'asset', id: 'a1' }), 3);
    expect(s.docs.get('asset:a1')).toMatchObject({ server: null, attributes: null });
    s = after(
      rejectMutation(ctx, edit, 'Not found', false, s.docs.get('asset:a1'), s.mutations),
      [...s.docs.values()],
      s.mutations,
    );
    expect(s.docs.size).toBe(0);
  });

  it('settleConfirmed drops confirmed mutations whose update is at or below lastSeq', () => {
    const doc = assetDoc('a1', { name: 'Mine' }, 3);
    const done = mutation('update', 'a1', { name: 'Mine' }, { state: 'confirmed', through_seq: 7 });
    const later = mutation(
      'update',
      'a1',
      { description: 'x' },
      { state: 'confirmed', through_seq: 12 },
    );
    const writes = settleConfirmed(
      ctx,
      cursor(10),
      new Map([[doc.key, doc]]),
      new Map([[doc.key, [done, later]]]),
    );
    const s = after(writes, [doc], [done, later]);
    expect(s.mutations.map((m) => m.mutation_id)).toEqual([later.mutation_id]);
  });

  it('throughSeqOf finds the update about the mutation’s own model', () => {
    const entry = mutation('delete', 'a1', {});
    const events = [
      update(8, { action: 'item_deleted', type: 'datastreamgroup', id: 'g1' }),
      update(9, { action: 'item_deleted', type: 'asset', id: 'a1' }),
      update(10, {
        action: 'child_deleted',
        type: 'account',
        id: 'acct-1',
        child_type: 'asset',
        child_id: 'a1',
      }),
    ];
    expect(throughSeqOf(entry, events)).toBe(9);
    expect(throughSeqOf(entry, [])).toBe(0);
  });
});
