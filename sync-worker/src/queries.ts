import type { LocalModel, ModelQuery, QueryResult } from './api';
import { sameJson } from './apply';
import { modelKey, type ModelDoc } from './store/docs';
import type { LocalStore } from './store/store';

export const QUERY_DEFAULT_LIMIT = 100;
export const QUERY_MAX_LIMIT = 1000;

/** A doc as the UI sees it; null when hidden (deleted here or on the server). */
export function toLocalModel(doc: ModelDoc): LocalModel | null {
  if (doc.attributes === null) return null;
  const separator = doc.parent_key.indexOf(':');
  return {
    type: doc.type,
    id: doc.id,
    parentType: doc.parent_key.slice(0, separator),
    parentId: doc.parent_key.slice(separator + 1),
    attributes: doc.attributes,
    pending: !sameJson(doc.attributes, doc.server),
  };
}

function matcher(query: ModelQuery): (doc: ModelDoc) => boolean {
  const text = query.search?.text.trim().toLowerCase() ?? '';
  const fields = query.search?.fields ?? [];
  if (text === '' || fields.length === 0) return (doc) => doc.attributes !== null;
  return (doc) =>
    doc.attributes !== null &&
    fields.some((f) => {
      const value = doc.attributes?.[f];
      return typeof value === 'string' && value.toLowerCase().includes(text);
    });
}

/**
 * A live query over the local store: the first result at once, then each changed one. Results
 * are windows (offset, limit) with the total, so only what the UI shows crosses to the page.
 */
export function watchQuery(
  store: LocalStore,
  query: ModelQuery,
  callback: (result: QueryResult) => void,
): () => void {
  const offset = Math.max(0, Math.floor(query.offset ?? 0));
  const limit = Math.min(
    QUERY_MAX_LIMIT,
    Math.max(1, Math.floor(query.limit ?? QUERY_DEFAULT_LIMIT)),
  );
  const selector =
    query.parent === undefined
      ? { type: query.type }
      : { parent_key: modelKey(query.parent.type, query.parent.id), type: query.type };
  const matches = matcher(query);
  let last = '';
  const subscription = store.db.models
    .find({ selector, sort: [{ sort_key: 'asc' }, { key: 'asc' }] })
    .$.subscribe((docs) => {
      const visible = docs.map((d) => d.toJSON() as ModelDoc).filter(matches);
      const items = visible.slice(offset, offset + limit).flatMap((d) => toLocalModel(d) ?? []);
      const result: QueryResult = { total: visible.length, offset, items };
      const json = JSON.stringify(result);
      if (json === last) return;
      last = json;
      callback(result);
    });
  return () => subscription.unsubscribe();
}

/** One model, live: null while it does not exist or is hidden. */
export function watchModel(
  store: LocalStore,
  type: string,
  id: string,
  callback: (model: LocalModel | null) => void,
): () => void {
  let last: string | undefined;
  const subscription = store.db.models.findOne(modelKey(type, id)).$.subscribe((doc) => {
    const model = doc === null ? null : toLocalModel(doc.toJSON());
    const json = JSON.stringify(model);
    if (json === last) return;
    last = json;
    callback(model);
  });
  return () => subscription.unsubscribe();
}
