import type { z } from 'zod';

/** The four things one may do with a synced model, each behind its own permission name. */
export interface ModelPermissions {
  readonly view: string;
  readonly create: string;
  readonly update: string;
  readonly delete: string;
}

/**
 * One synced model type (DESIGN.md §4). The server's generic routes, validation and change log,
 * the worker's local store and the client's hooks all derive from these entries.
 */
export interface ModelDefinition<T extends string = string, S extends z.ZodObject = z.ZodObject> {
  /** The name in update messages and in the local store key `<type>:<id>`. */
  readonly type: T;
  /** The plural in the write routes: /api/v1/{collection}. */
  readonly collection: string;
  /** The type whose `child_created` / `child_deleted` announce this model. */
  readonly parentType: string;
  /** The attribute naming the parent's id; absent when the parent is the account itself. */
  readonly parentField?: keyof z.infer<S> & string;
  /**
   * Other places the model may sit (DESIGN.md §13: a 3D model, a scene and their files belong to
   * an asset or to a template; §14: an article's images are files of the article): when one of
   * these attributes names a model, that model is the parent and `parentField` is null. A model
   * names exactly one of them all (the server checks it).
   */
  readonly altParents?: readonly {
    readonly type: string;
    readonly field: keyof z.infer<S> & string;
  }[];
  /** Every attribute, as created (defaults filled in). Updates take any subset. */
  readonly attributes: S;
  /**
   * Attributes that name another model of the same account: checked when written; when the model
   * they name is deleted, they are set to null (logged), or the delete is refused if they may not be.
   */
  readonly refs?: Readonly<Partial<Record<keyof z.infer<S> & string, string>>>;
  /**
   * Attributes that are copies of the parent's attribute of the same name (a data stream's
   * asset_id is its group's): when the parent changes one, the children follow, each change logged.
   */
  readonly fromParent?: readonly (keyof z.infer<S> & string)[];
  readonly permissions: ModelPermissions;
  /** The attribute lists sort by. */
  readonly sortField: keyof z.infer<S> & string;
  /**
   * The parent keeps these children as an ordered list: every create, delete or move among them
   * sends `updated_list` on the parent with the children's ids in order.
   */
  readonly ordered?: boolean;
  /**
   * Attributes only the server writes (a gateway's online state, a connection's status): a
   * client's write of them is ignored, the server's own writes set them.
   */
  readonly serverFields?: readonly (keyof z.infer<S> & string)[];
  /**
   * Attributes set when the model is made and never changed after (a file's size and checksum):
   * an update that changes one is refused.
   */
  readonly fixed?: readonly (keyof z.infer<S> & string)[];
  /**
   * Access per asset (DESIGN.md §10): the asset this model belongs to, whose access decides who
   * sees and edits it. 'self' for an asset; an attribute naming the asset for what lives under
   * one (a stream group's and a stream's `asset_id`); absent for models outside any asset
   * (gateways, connections), which the type's permissions alone decide.
   */
  readonly asset?: 'self' | (keyof z.infer<S> & string);
  /**
   * The `asset` attribute may be null, and then the model belongs to the account as a whole (an
   * account's dashboard beside an asset's): its type's permissions alone decide who sees and
   * writes it, as for a model outside any asset. Without it, a null asset is seen only by who
   * sees every asset.
   */
  readonly assetOptional?: true;
  /**
   * Kept by the server in its own tables (roles, memberships, accounts: models/managed.ts), not
   * in `models`: written through the same routes and logged like the others, each change as the
   * model's whole state.
   */
  readonly managed?: true;
}
