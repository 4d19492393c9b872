import { MODELS, scopeFor, type ModelDefinition } from '@plant/shared-schema';

/** One model of the registry as the map shows it: where it sits and what it names. */
export interface MapModel {
  readonly type: string;
  /** The write routes' collection: /api/v1/{collection}. */
  readonly collection: string;
  /** The parent type; null for the account, the root (its parent is an account above it). */
  readonly parent: string | null;
  /** Types whose parent this is, in registry order. */
  readonly children: readonly string[];
  /** Attributes that name another model, and its type. */
  readonly refs: readonly { readonly field: string; readonly type: string }[];
  /** Attributes of other types that name this one. */
  readonly referencedBy: readonly { readonly type: string; readonly field: string }[];
  /** Kept by the server in its own tables (roles, members, accounts, tags). */
  readonly managed: boolean;
  /** The scope a token needs to read it (undefined: no scope opens it). */
  readonly readScope: string | undefined;
}

export interface ModelMap {
  /** The types at the top (the account). */
  readonly roots: readonly string[];
  readonly byType: ReadonlyMap<string, MapModel>;
}

/** The map of the registry's models: each with its parent, its children and its references. */
export function modelMap(models: readonly ModelDefinition[] = MODELS): ModelMap {
  const byType = new Map<string, MapModel>();
  const isRoot = (m: ModelDefinition) =>
    m.parentType === m.type || !models.some((other) => other.type === m.parentType);
  for (const m of models) {
    const refs = Object.entries(m.refs ?? {}).flatMap(([field, type]) =>
      typeof type === 'string' ? [{ field, type }] : [],
    );
    byType.set(m.type, {
      type: m.type,
      collection: m.collection,
      parent: isRoot(m) ? null : m.parentType,
      children: models
        .filter((c) => c.type !== m.type && c.parentType === m.type && !isRoot(c))
        .map((c) => c.type),
      refs,
      referencedBy: models.flatMap((other) =>
        Object.entries(other.refs ?? {}).flatMap(([field, type]) =>
          type === m.type ? [{ type: other.type, field }] : [],
        ),
      ),
      managed: m.managed === true,
      readScope: scopeFor(m.permissions.view),
    });
  }
  return { roots: models.filter(isRoot).map((m) => m.type), byType };
}
