import { modelKey, type ModelDoc } from '../store/docs';

/**
 * A synced model doc for store tests: named `name` (server and screen agree), in the account
 * `acct-1`, last changed at `seq`, sorted by its lower-cased name.
 */
export function syncedDoc(type: string, id: string, name: string, seq: number): ModelDoc {
  return {
    key: modelKey(type, id),
    type,
    id,
    parent_key: 'account:acct-1',
    sort_key: name.toLowerCase(),
    last_seq: seq,
    server: { name },
    attributes: { name },
  };
}
