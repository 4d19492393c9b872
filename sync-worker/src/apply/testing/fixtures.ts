import type { ModelUpdate, UpdateMessage } from '@plant/shared-schema';
import { modelKey, type Attributes, type ModelDoc, type OutboxDoc } from '../../store/docs';
import { trackWrite } from '../apply-update';
import type { ApplyContext, LocalWrite } from '../writes';

export const ctx: ApplyContext = { accountId: 'acct-1' };

/** An update message with seq, ts = 1000 + seq and a muid. */
export function update(seq: number, fields: Omit<ModelUpdate, 'seq' | 'ts' | 'muid'>): ModelUpdate {
  return { ...fields, seq, ts: 1000 + seq, muid: `mu-${seq}` };
}

export function hidden(seq: number): UpdateMessage {
  return { action: 'hidden', seq, ts: 1000 + seq, muid: `mu-${seq}` };
}

/** An asset doc as the store would hold it with no local mutations. */
export function assetDoc(id: string, server: Attributes | null, lastSeq: number): ModelDoc {
  return {
    key: modelKey('asset', id),
    type: 'asset',
    id,
    parent_key: 'account:acct-1',
    sort_key: typeof server?.name === 'string' ? server.name.toLowerCase() : '',
    last_seq: lastSeq,
    server,
    attributes: server,
  };
}

let made = 0;

export function mutation(
  kind: OutboxDoc['kind'],
  id: string,
  attributes: Attributes,
  extra: Partial<OutboxDoc> = {},
): OutboxDoc {
  made += 1;
  return {
    mutation_id: `m-${made}`,
    created_at: made,
    account_id: 'acct-1',
    collection_name: 'assets',
    kind,
    type: 'asset',
    id,
    key: modelKey('asset', id),
    attributes,
    state: 'pending',
    attempts: 0,
    last_error: null,
    through_seq: 0,
    ...extra,
  };
}

/** The store after `writes`, starting from `docs` and `mutations`. */
export function after(
  writes: readonly LocalWrite[],
  docs: readonly ModelDoc[] = [],
  mutations: readonly OutboxDoc[] = [],
) {
  const docMap = new Map(docs.map((d) => [d.key, d]));
  const byKey = new Map<string, OutboxDoc[]>();
  for (const m of mutations) byKey.set(m.key, [...(byKey.get(m.key) ?? []), m]);
  for (const w of writes) trackWrite(w, docMap, byKey);
  return { docs: docMap, mutations: [...byKey.values()].flat() };
}
