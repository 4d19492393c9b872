import { describe, expect, it } from 'vitest';
import type { ModelDoc } from '../store/docs';
import { applyUpdate, applyUpdates, docKeyOf, type ApplyResult } from './apply-update';
import { checkSeq } from './seq';
import { after, assetDoc, ctx, hidden, mutation, update } from './testing/fixtures';

const cursor = (lastSeq: number) => ({ lastSeq, lastTs: 1000 + lastSeq });

function applied(result: ApplyResult) {
  if (result.kind !== 'applied') throw new Error(`expected applied, got ${result.kind}`);
  return result;
}

describe('checkSeq', () => {
  it('tells the next update, a duplicate and a gap with how many are missing', () => {
    expect(checkSeq(5, 6)).toEqual({ kind: 'apply' });
    expect(checkSeq(5, 5)).toEqual({ kind: 'duplicate' });
    expect(checkSeq(5, 2)).toEqual({ kind: 'duplicate' });
    expect(checkSeq(5, 9)).toEqual({ kind: 'gap', missing: 3 });
  });
});

describe('applyUpdate', () => {
  it('updated creates the doc with its parent and sort key from the registry', () => {
    const msg = update(1, {
      action: 'updated',
      type: 'datastreamgroup',
      id: 'g1',
      attributes: { asset_id: 'a1', name: 'Motor', order: 3 },
    });
    const result = applied(
      applyUpdate(ctx, { cursor: cursor(0), msg, doc: undefined, mutations: [] }),
    );
    expect(result.cursor).toEqual({ lastSeq: 1, lastTs: 1001 });
    expect(after(result.writes).docs.get('datastreamgroup:g1')).toEqual({
      key: 'datastreamgroup:g1',
      type: 'datastreamgroup',
      id: 'g1',
      parent_key: 'asset:a1',
      sort_key: '000000000003',
      last_seq: 1,
      server: { asset_id: 'a1', name: 'Motor', order: 3 },
      attributes: { asset_id: 'a1', name: 'Motor', order: 3 },
    });
  });

  it('attributes_updated merges the changed attributes and moves the doc when its parent changes', () => {
    const doc: ModelDoc = {
      ...assetDoc('s1', { asset_id: 'a1', group_id: 'g1', name: 'Temp' }, 4),
      key: 'datastream:s1',
      type: 'datastream',
      parent_key: 'datastreamgroup:g1',
    };
    const msg = update(5, {
      action: 'attributes_updated',
      type: 'datastream',
      id: 's1',
      attributes: { group_id: 'g2', name: 'Heat' },
    });
    const result = applied(applyUpdate(ctx, { cursor: cursor(4), msg, doc, mutations: [] }));
    expect(after(result.writes, [doc]).docs.get('datastream:s1')).toMatchObject({
      parent_key: 'datastreamgroup:g2',
      sort_key: 'heat',
      last_seq: 5,
      attributes: { asset_id: 'a1', group_id: 'g2', name: 'Heat' },
    });
  });

  it('attributes_updated for a doc the store lacks asks for a refresh instead of inventing one', () => {
    const msg = update(5, {
      action: 'attributes_updated',
      type: 'asset',
      id: 'a9',
      attributes: { name: 'X' },
    });
    const result = applied(
      applyUpdate(ctx, { cursor: cursor(4), msg, doc: undefined, mutations: [] }),
    );
    expect(result.writes).toEqual([]);
    expect(result.refresh).toBe('asset:a9');
    expect(result.cursor.lastSeq).toBe(5);
  });

  it('item_deleted removes the doc', () => {
    const doc = assetDoc('a1', { name: 'Press' }, 2);
    const msg = update(3, { action: 'item_deleted', type: 'asset', id: 'a1' });
    const result = applied(applyUpdate(ctx, { cursor: cursor(2), msg, doc, mutations: [] }));
    expect(after(result.writes, [doc]).docs.size).toBe(0);
  });

  it('child_created, child_deleted, updated_list and hidden only advance the cursor', () => {
    const msgs = [
      update(1, {
        action: 'child_created',
        type: 'asset',
        id: 'a1',
        child_type: 'datastreamgroup',
        child_id: 'g1',
      }),
      update(2, {
        action: 'child_deleted',
        type: 'asset',
        id: 'a1',
        child_type: 'datastreamgroup',
        child_id: 'g1',
      }),
      update(3, {
        action: 'updated_list',
        type: 'asset',
        id: 'a1',
        child_type: 'datastreamgroup',
        list: ['g2'],
      }),
      hidden(4),
    ];
    for (const msg of msgs) {
      expect(docKeyOf(msg)).toBeUndefined();
      const result = applied(
        applyUpdate(ctx, { cursor: cursor(msg.seq - 1), msg, doc: undefined, mutations: [] }),
      );
      expect(result.writes).toEqual([]);
      expect(result.cursor).toEqual({ lastSeq: msg.seq, lastTs: msg.ts });
    }
  });

  it('skips an update already applied (seq <= lastSeq) and refuses one after a gap', () => {
    const msg = update(3, {
      action: 'updated',
      type: 'asset',
      id: 'a1',
      attributes: { name: 'X' },
    });
    expect(applyUpdate(ctx, { cursor: cursor(3), msg, doc: undefined, mutations: [] })).toEqual({
      kind: 'duplicate',
    });
    expect(applyUpdate(ctx, { cursor: cursor(1), msg, doc: undefined, mutations: [] })).toEqual({
      kind: 'gap',
      missing: 1,
    });
  });

  it('leaves a doc alone that already shows a newer state (seq <= doc.last_seq), e.g. from a snapshot', () => {
    const doc = assetDoc('a1', { name: 'New' }, 9);
    const msg = update(7, {
      action: 'attributes_updated',
      type: 'asset',
      id: 'a1',
      attributes: { name: 'Old' },
    });
    const result = applied(applyUpdate(ctx, { cursor: cursor(6), msg, doc, mutations: [] }));
    expect(result.writes).toEqual([]);
    expect(result.cursor.lastSeq).toBe(7);
  });

  it('never overwrites a field with a pending local change, and takes the others', () => {
    const doc = assetDoc('a1', { name: 'Press', description: '' }, 2);
    const pending = mutation('update', 'a1', { name: 'Mine' });
    const local = after([], [{ ...doc, attributes: { name: 'Mine', description: '' } }], [pending]);
    const msg = update(3, {
      action: 'attributes_updated',
      type: 'asset',
      id: 'a1',
      attributes: { name: 'Theirs', description: 'new' },
    });
    const result = applied(
      applyUpdate(ctx, {
        cursor: cursor(2),
        msg,
        doc: local.docs.get('asset:a1'),
        mutations: [pending],
      }),
    );
    expect(after(result.writes, [...local.docs.values()]).docs.get('asset:a1')).toMatchObject({
      server: { name: 'Theirs', description: 'new' },
      attributes: { name: 'Mine', description: 'new' },
    });
  });
});

describe('applyUpdates', () => {
  it('applies a run in order over its own results, skips duplicates and stops at a gap', () => {
    const msgs = [
      update(1, { action: 'updated', type: 'asset', id: 'a1', attributes: { name: 'One' } }),
      update(1, { action: 'updated', type: 'asset', id: 'a1', attributes: { name: 'One' } }),
      update(2, {
        action: 'attributes_updated',
        type: 'asset',
        id: 'a1',
        attributes: { name: 'Two' },
      }),
      update(5, { action: 'item_deleted', type: 'asset', id: 'a1' }),
    ];
    const result = applyUpdates(ctx, cursor(0), msgs, new Map(), new Map());
    expect(result.cursor.lastSeq).toBe(2);
    expect(result.gap).toEqual({ seq: 5, missing: 2 });
    expect(result.writes).toHaveLength(1);
    expect(after(result.writes).docs.get('asset:a1')?.attributes).toEqual({ name: 'Two' });
  });
});
