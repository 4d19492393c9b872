import {
  articleModel,
  fileModel,
  releaseModel,
  ticketModel,
  accountModel,
  can,
  isInternal,
  memberModel,
  roleModel,
  MODELS,
  modelByType,
  ROLE_SLUGS,
  structuralFields,
  updateSubjectType,
  viewableTypes,
  type ModelDefinition,
  hiddenUpdateOf,
  type ModelUpdate,
  type UpdateMessage,
  withoutAssetWas,
  type PermissionContext,
  type AssetAccessView,
} from '@plant/shared-schema';
import type { StoredGrants } from '../repositories/asset-access.repository';
import type { AssetFilter } from '../repositories/model.repository';

/** Whose decision it is: the user and its active account (each always sees itself). */
export interface DecisionOwner {
  readonly userId: string;
  readonly accountId: string | null;
}

/**
 * Which assets a user sees and edits: every one (an admin, an internal user, a role with the key
 * button on), or those its roles were given, each with or without edit rights.
 */
type AssetGrant =
  | { readonly all: true }
  | {
      readonly all: false;
      readonly view: ReadonlySet<string>;
      readonly edit: ReadonlySet<string>;
      /** The assets of the active service requests assigned to the user (in `view` too). */
      readonly service: readonly string[];
    };

/**
 * The one server-side decision of what a user sees and edits in its active account (DESIGN.md
 * §10): the model types its permissions let it view, the assets its roles open, and the
 * attributes of each type its roles show. Snapshot, mqttlogs, graph, the live topics, machine
 * values and writes all ask this object, made once per session load (sessions are cached until
 * access_version moves, which any change to roles, their assets or their fields does).
 */
export class AccessDecision {
  private constructor(
    readonly types: ReadonlySet<string>,
    private readonly assets: AssetGrant,
    /** Per type, the attributes shown; a type absent here shows every attribute. */
    private readonly fields: ReadonlyMap<string, ReadonlySet<string>>,
    /** The active roles that count for asset access (the snapshot's SQL filter reads theirs). */
    readonly roleIds: readonly string[],
    private readonly owner: DecisionOwner | undefined,
    /** The user's permissions: what the rules by permission below ask. */
    private readonly ctx: PermissionContext,
  ) {}

  /** Whether the user holds the permission (rules by role, as the feedback centre's table). */
  permits(permission: string): boolean {
    return can(this.ctx, permission);
  }

  /**
   * Whether the user may edit templates: a template's 3D models, scenes and their files (no
   * asset) are changed by who may (model-transaction.ts), besides their own type's permission.
   */
  get editsTemplates(): boolean {
    return this.permits('template::edit');
  }

  /** Whether the user edits the help centre (an article's images: files of the article). */
  get editsHelp(): boolean {
    return this.permits(articleModel.permissions.update);
  }

  /** Whether the user holds the file type's own write permission (asset::edit). */
  get editsFiles(): boolean {
    return this.permits(fileModel.permissions.update);
  }

  /** The user the decision is for (null for one made without an owner). */
  get userId(): string | null {
    return this.owner?.userId ?? null;
  }

  static of(ctx: PermissionContext, grants: StoredGrants, owner?: DecisionOwner): AccessDecision {
    const types = new Set(viewableTypes(ctx));
    // The users screen gives roles: who views members views the roles they hold.
    if (can(ctx, 'user::view')) types.add(roleModel.type);
    const everything = isInternal(ctx) || ctx.activeRoles.some((r) => r.slug === ROLE_SLUGS.admin);
    if (everything) {
      return new AccessDecision(
        types,
        { all: true },
        new Map(),
        ctx.activeRoles.map((r) => r.id),
        owner,
        ctx,
      );
    }
    // A role counts for what it lets one view: its asset access only if it grants the view of
    // a type that lives under assets, its field list for a type only if it grants that type's
    // view. A role for dashboards alone widens nothing; norole never counts.
    const grantsView = (roleId: string, def: ModelDefinition) =>
      ctx.permissions.some((p) => p.role_id === roleId && p.name === def.permissions.view);
    const roles = ctx.activeRoles.filter((r) => r.slug !== ROLE_SLUGS.norole).map((r) => r.id);
    const scoped = (MODELS as readonly ModelDefinition[]).filter((m) => m.asset !== undefined);
    const assetRoles = roles.filter((role) => scoped.some((def) => grantsView(role, def)));
    const given = grants.assets.filter((a) => assetRoles.includes(a.role_id));
    const assets: AssetGrant = grants.allAssets.some((role) => assetRoles.includes(role))
      ? { all: true }
      : {
          all: false,
          // An agent sees the asset of an active request assigned to it (service_access).
          view: new Set([...given.map((a) => a.asset_id), ...(grants.serviceAssets ?? [])]),
          edit: new Set(given.filter((a) => a.edit).map((a) => a.asset_id)),
          service: grants.serviceAssets ?? [],
        };
    // A field is shown when any role that views the type shows it; one without a list shows all.
    const fields = new Map<string, ReadonlySet<string>>();
    for (const def of MODELS as readonly ModelDefinition[]) {
      const lists = roles
        .filter((role) => grantsView(role, def))
        .map(
          (role) => grants.fields.find((f) => f.role_id === role && f.type === def.type)?.fields,
        );
      if (lists.length === 0 || lists.some((l) => l === undefined)) continue;
      fields.set(def.type, new Set([...lists.flatMap((l) => l ?? []), ...structuralFields(def)]));
    }
    return new AccessDecision(types, assets, fields, assetRoles, owner, ctx);
  }

  /** The same decision, seeing and editing one more asset (one the user just made). */
  withAsset(assetId: string): AccessDecision {
    if (this.assets.all) return this;
    return new AccessDecision(
      this.types,
      {
        all: false,
        view: new Set([...this.assets.view, assetId]),
        edit: new Set([...this.assets.edit, assetId]),
        service: this.assets.service,
      },
      this.fields,
      this.roleIds,
      this.owner,
      this.ctx,
    );
  }

  /** Whether the user sees every asset (no per-asset filter needed). */
  get allAssets(): boolean {
    return this.assets.all;
  }

  /** Whether anything is narrower than the type permissions: assets or fields. */
  get restricted(): boolean {
    return !this.assets.all || this.fields.size > 0;
  }

  /** The snapshot's SQL form of the same decision: undefined when every asset is seen. */
  get assetFilter(): AssetFilter {
    return this.assets.all
      ? undefined
      : { roleIds: this.roleIds, serviceAssets: this.assets.service };
  }

  /** What the browser is told of it (GET user's `access`): the assets the user may change. */
  get assetAccessView(): AssetAccessView {
    const hidden: Record<string, string[]> = {};
    for (const [type, shown] of this.fields) {
      const names = Object.keys(modelByType(type)?.attributes.shape ?? {});
      const off = names.filter((n) => !shown.has(n));
      if (off.length > 0) hidden[type] = off;
    }
    return this.assets.all
      ? { allAssets: true, edit: [], hidden }
      : { allAssets: false, edit: [...this.assets.edit].sort(), hidden };
  }

  seesAsset(assetId: string): boolean {
    return this.assets.all || this.assets.view.has(assetId);
  }

  /** Edit rights on the asset (the type's permission is checked besides, by the caller). */
  editsAsset(assetId: string): boolean {
    return this.assets.all || this.assets.edit.has(assetId);
  }

  /**
   * Whether the user sees this stored model: a ticket's photo (a file under a ticket) by the
   * ticket's type (who sees tickets), any other by its type and its asset (seesModel).
   */
  seesStored(row: {
    readonly type: string;
    readonly asset_id: string | null;
    readonly parent_type: string;
  }): boolean {
    if (row.type === fileModel.type && row.parent_type === ticketModel.type)
      return this.types.has(ticketModel.type);
    // A release's artifact: who sees release management.
    if (row.type === fileModel.type && row.parent_type === releaseModel.type)
      return this.types.has(releaseModel.type);
    return this.seesModel(row.type, row.asset_id);
  }

  /**
   * A model of `type` that belongs to `assetId` (null: to no asset, or not known: an update
   * logged before updates named their asset, which only a user who sees every asset receives;
   * for a type whose asset is optional, null is the account's own model, which its type's
   * permission alone decides).
   */
  seesModel(type: string, assetId: string | null): boolean {
    if (!this.types.has(type)) return false;
    const def = modelByType(type);
    if (def?.asset === undefined || this.assets.all) return true;
    if (assetId === null) return def.assetOptional === true;
    return this.seesAsset(assetId);
  }

  /**
   * Whether the user sees the managed model (models/managed.ts) of this id without its type's
   * permission: its own member model, and its active account.
   */
  seesItself(type: string, id: string): boolean {
    if (this.owner === undefined) return false;
    if (type === memberModel.type) return id === this.owner.userId;
    if (type === accountModel.type) return id === this.owner.accountId;
    return false;
  }

  /** An update as this user may receive it: whole, with fewer attributes, or not at all. */
  seesUpdate(update: ModelUpdate): boolean {
    const type = updateSubjectType(update);
    if (this.seesItself(type, update.child_id ?? update.id)) return true;
    // A model that may sit under a template (`altParents`) whose update names neither asset nor
    // template nor article: logged before updates named their asset (a file's, then), for who
    // sees all.
    // A ticket's photo: who sees tickets sees it (the file type's permission aside).
    if (update.ticket !== undefined) return this.types.has(ticketModel.type);
    // A release's artifact: who sees release management.
    if (update.release !== undefined) return this.types.has(releaseModel.type);
    const unplaced =
      update.asset === undefined &&
      update.template === undefined &&
      update.article === undefined &&
      modelByType(type)?.altParents !== undefined;
    if (unplaced) return this.types.has(type) && this.assets.all;
    return this.seesModel(type, update.asset ?? null);
  }

  /** Whether the update moved a model out of an asset the user sees (DESIGN.md §10). */
  sawBefore(update: ModelUpdate): boolean {
    return (
      update.asset_was !== undefined &&
      update.action === 'attributes_updated' &&
      this.seesModel(update.type, update.asset_was)
    );
  }

  /**
   * How this user's copy of `update` differs from the update as logged: undefined when it gets
   * the update whole; otherwise a key shared by every user who gets the same copy (the broker
   * builds each copy once per key). A move between assets and a role's asset list depend on the
   * assets seen; hidden fields on the fields shown.
   */
  copyKey(update: ModelUpdate): string | undefined {
    if (update.asset_was !== undefined || (update.type === roleModel.type && !this.assets.all)) {
      return `assets:${this.fingerprint}`;
    }
    if (!this.seesUpdate(update)) return 'hidden';
    return this.fields.has(update.type) ? `fields:${this.fieldsKey}` : undefined;
  }

  /** The attributes the user may not see of `type`, among those given. */
  hiddenAmong(type: string, names: readonly string[]): string[] {
    const shown = this.fields.get(type);
    return shown === undefined ? [] : names.filter((n) => !shown.has(n));
  }

  /**
   * Whether the user gets models of `type` narrowed: fields hidden from its roles, or a role's
   * asset list, which names only the assets the user sees.
   */
  narrows(type: string): boolean {
    return this.fields.has(type) || (type === roleModel.type && !this.assets.all);
  }

  /** The attributes without those hidden from the user (the same object when nothing is). */
  project<A extends Record<string, unknown>>(type: string, attributes: A): Partial<A> {
    let seen: A = attributes;
    if (type === roleModel.type && !this.assets.all && Array.isArray(attributes.assets)) {
      const assets = (attributes.assets as { asset_id?: unknown }[]).filter(
        (a) => typeof a.asset_id === 'string' && this.seesAsset(a.asset_id),
      );
      seen = { ...attributes, assets };
    }
    const shown = this.fields.get(type);
    if (shown === undefined) return seen;
    return Object.fromEntries(Object.entries(seen).filter(([k]) => shown.has(k))) as Partial<A>;
  }

  /** An update without the attributes hidden from the user (the same object when nothing is). */
  projectUpdate(update: ModelUpdate): ModelUpdate {
    if (update.attributes === undefined || !this.narrows(update.type)) return update;
    return { ...update, attributes: this.project(update.type, update.attributes) };
  }

  /**
   * The update as this user receives it: whole, without hidden attributes, or as its stand-in
   * (an update it may not see, or a change of hidden attributes only, which would tell it that
   * something it cannot see changed).
   */
  asSeen(update: ModelUpdate): UpdateMessage {
    if (!this.seesUpdate(update)) {
      // Moved out of what the user sees: its copy must go, the rest stays unsaid.
      if (this.sawBefore(update)) {
        const { muid, ts, seq, type, id } = update;
        return { action: 'item_deleted', type, id, muid, ts, seq };
      }
      return hiddenUpdateOf(update);
    }
    if (update.asset_was !== undefined) return this.asSeen(withoutAssetWas(update));
    const projected = this.projectUpdate(update);
    if (
      projected !== update &&
      update.action === 'attributes_updated' &&
      Object.keys(projected.attributes ?? {}).length === 0
    ) {
      return hiddenUpdateOf(update);
    }
    return projected;
  }

  /** Equal for two decisions that let the user see and edit the same (the broker's re-check). */
  get fingerprint(): string {
    const sorted = (set: ReadonlySet<string>) => [...set].sort().join(',');
    const assets = this.assets.all
      ? 'all'
      : `${sorted(this.assets.view)}|${sorted(this.assets.edit)}`;
    return `${sorted(this.types)}#${assets}#${this.fieldsKey}`;
  }

  /** Equal for users who receive the same projection of every update (the broker's cache key). */
  get fieldsKey(): string {
    return [...this.fields]
      .map(([type, names]) => `${type}:${[...names].sort().join(',')}`)
      .sort()
      .join(';');
  }
}
