import type { LocalModel } from './api';
import { sameJson } from './apply';
import type { ModelDoc } from './store/docs';

/**
 * A doc as the UI sees it; null when hidden (deleted here or on the server). The one place where
 * a stored doc becomes a typed model: what is stored went through the type's schema (the server
 * validates every write it sends, this worker every local one), so its attributes are the
 * registry's type for `doc.type`.
 */
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
  } as LocalModel;
}
