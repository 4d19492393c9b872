/**
 * A model type's four permissions the usual way: `<area>::view`, `::create`, `::edit` (updates)
 * and `::delete`. The names stay literal types, as if written out.
 */
export function ownPermissions<A extends string>(area: A) {
  return {
    view: `${area}::view`,
    create: `${area}::create`,
    update: `${area}::edit`,
    delete: `${area}::delete`,
  } as const;
}

/**
 * A model seen with one permission and written (created, changed, deleted) with another: a part
 * of a whole (a gateway's connections, an asset's files) under the whole's, or a managed model
 * (roles, members, tags) seen by who sees the account.
 */
export function viewEditPermissions<V extends string, E extends string>(view: V, edit: E) {
  return { view, create: edit, update: edit, delete: edit } as const;
}
