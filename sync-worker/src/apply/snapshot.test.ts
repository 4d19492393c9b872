import { describe, expect, it } from 'vitest';
import type { SyncedModel } from '@plant/shared-schema';
import { applySnapshotPage, sweepAfterSnapshot } from './snapshot';
import { after, assetDoc, ctx, mutation } from './testing/fixtures';

function synced(
  type: string,
  id: string,
  attributes: Record<string, unknown>,
  lastSeq: number,
  parent = ['account', 'acct-1'],
): SyncedModel {
  return {
    type,
    id,
    parent_type: parent[0] ?? '',
    parent_id: parent[1] ?? '',
    attributes,
    last_seq: lastSeq,
  };
}

describe('applySnapshotPage', () => {
  it('fills an empty store; managed models place themselves from their attributes, as on the server', () => {
    const page = [
      synced('account', 'acct-1', { name: 'Root', parent_id: null }, 0, ['account', '']),
      synced('account', 'acct-2', { name: 'Below', parent_id: 'acct-1' }, 0, ['account', 'x']),
      synced('user', 'u1', { firstname: 'Ann', lastname: 'Zeta' }, 0),
      synced('tag', 't1', { slug: 'beta' }, 0, ['account', 'acct-9']),
      synced('asset', 'a1', { name: 'Press' }, 4),
    ];
    const s = after(applySnapshotPage(ctx, page, new Map(), new Map()));
    expect(s.docs.get('account:acct-1')).toMatchObject({
      parent_key: 'account:',
      sort_key: 'root',
      last_seq: 0,
    });
    // A managed model's place follows from its attributes, as on the server.
    expect(s.docs.get('account:acct-2')).toMatchObject({ parent_key: 'account:acct-1' });
    expect(s.docs.get('user:u1')).toMatchObject({ parent_key: 'account:acct-1', sort_key: 'zeta' });
    expect(s.docs.get('tag:t1')).toMatchObject({ parent_key: 'account:acct-1', sort_key: 'beta' });
    expect(s.docs.get('asset:a1')).toEqual(assetDoc('a1', { name: 'Press' }, 4));
  });

  it('never replaces a newer doc, and keeps pending mutations on top', () => {
    const newer = assetDoc('a1', { name: 'Newer' }, 9);
    const older = assetDoc('a2', { name: 'Old', description: '' }, 2);
    const edit = mutation('update', 'a2', { name: 'Mine' });
    const page = [
      synced('asset', 'a1', { name: 'Stale' }, 5),
      synced('asset', 'a2', { name: 'Fresh', description: 'd' }, 6),
    ];
    const writes = applySnapshotPage(
      ctx,
      page,
      new Map([
        [newer.key, newer],
        [older.key, older],
      ]),
      new Map([[older.key, [edit]]]),
    );
    const s = after(writes, [newer, older], [edit]);
    expect(s.docs.get('asset:a1')).toEqual(newer);
    expect(s.docs.get('asset:a2')).toMatchObject({
      last_seq: 6,
      server: { name: 'Fresh', description: 'd' },
      attributes: { name: 'Mine', description: 'd' },
    });
  });
});

describe('sweepAfterSnapshot', () => {
  it('removes docs the snapshot no longer has, keeps newer ones and hides ones with pending mutations', () => {
    const gone = assetDoc('a1', { name: 'Gone' }, 3);
    const newer = assetDoc('a2', { name: 'From the log' }, 12);
    const seen = assetDoc('a3', { name: 'Seen' }, 4);
    const edited = assetDoc('a4', { name: 'Edited' }, 5);
    const local = { ...assetDoc('c1', null, 0), attributes: { name: 'Created here' } };
    const edit = mutation('update', 'a4', { name: 'Mine' });
    const create = mutation('create', 'c1', { name: 'Created here' });
    const docs = [gone, newer, seen, edited, local];
    const writes = sweepAfterSnapshot(
      ctx,
      docs,
      new Set(['asset:a3']),
      { seq: 10, ts: 1010 },
      new Map([
        [edited.key, [edit]],
        [local.key, [create]],
      ]),
    );
    const s = after(writes, docs, [edit, create]);
    expect([...s.docs.keys()].sort()).toEqual(['asset:a2', 'asset:a3', 'asset:a4', 'asset:c1']);
    expect(s.docs.get('asset:a4')).toMatchObject({ server: null, attributes: null });
    expect(s.docs.get('asset:c1')?.attributes).toEqual({ name: 'Created here' });
  });
});
