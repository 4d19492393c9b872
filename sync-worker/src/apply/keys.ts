import { modelByType, parentOf, sortKeyOf as registrySortKey } from '@plant/shared-schema';
import { modelKey, type Attributes } from '../store/docs';

/** Longest sort key stored: the index needs a bound, and 200 characters sort any real list. */
export const SORT_KEY_MAX = 200;

/**
 * The sort key of a model, the server's (shared-schema `sortKeyOf`), so that children sorted by
 * (sort_key, id) here come in the order of the server's `updated_list`. Read models (not in the
 * registry) sort by `name`.
 */
export function sortKeyOf(type: string, attributes: Attributes): string {
  const key = registrySortKey({ sortField: modelByType(type)?.sortField ?? 'name' }, attributes);
  return key.slice(0, SORT_KEY_MAX);
}

/** Where a doc sits: its parent's key and its sort key. */
export interface Placement {
  readonly parent_key: string;
  readonly sort_key: string;
}

/**
 * The placement of a registry model follows from its attributes (parentField, else the account),
 * as on the server. `fallback` is used for read models, whose parent only the snapshot tells, and
 * when there are no attributes to read (a doc hidden by a pending delete).
 */
export function placementOf(
  type: string,
  attributes: Attributes | null,
  accountId: string,
  fallback: Placement | undefined,
): Placement {
  const def = modelByType(type);
  const parent =
    def !== undefined && attributes !== null ? parentOf(def, attributes, accountId) : undefined;
  const parentKey =
    parent !== undefined
      ? modelKey(parent.type, parent.id)
      : (fallback?.parent_key ?? modelKey('account', accountId));
  return {
    parent_key: parentKey,
    sort_key: attributes !== null ? sortKeyOf(type, attributes) : (fallback?.sort_key ?? ''),
  };
}
