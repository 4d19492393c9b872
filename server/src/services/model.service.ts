import {
  ACCOUNT_CHANGED_MESSAGE,
  can,
  scopesAllowWrite,
  clientIdField,
  fieldErrorsOf,
  articleModel,
  releaseModel,
  themeModel,
  translationModel,
  ticketModel,
  fileModel,
  formEntryModel,
  hotspotModel,
  modelByCollection,
  threedmodelModel,
  uuidv7,
  withoutAssetWas,
  writeMetaSchema,
  type HotspotAttributes,
  type ModelUpdate,
  type SyncedModel,
  type ThreedmodelAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { MutationRepository } from '../repositories/mutation.repository';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import { ModelRepository } from '../repositories/model.repository';
import type { AccessDecision } from './access-decision';
import type { ChangeFeed } from './change-feed';
import { DomainError, forbidden, invalidInput, notFound } from './domain-error';
import { logsTouchedBy, writeManaged } from './managed-writes';
import { logsTouchedByTheme, relogThemeUsers } from '../themes/theme-rules';
import { wordsChanged } from '../themes/translation-rules';
import {
  assetNeedsSchema,
  ModelTransaction,
  refuseHiddenFields,
  requireAsset,
  surfaceLevelOf,
  type AssetNeed,
  type WriteKind,
} from './model-transaction';
import type { Session } from './session';
import type { MachineContextSource } from '../service/service-rules';
import type { SurfaceCheck } from '../threed/surface';
import type { ReleaseKeys } from '../releases/release-keys';

// WriteKind lives in model-transaction.ts: managed-writes.ts needs it, and this module needs that one.
export type { WriteKind } from './model-transaction';

export interface WriteOp {
  readonly kind: WriteKind;
  readonly collection: string;
  /** The model's id, for update and delete (from the path, or from the batch item's data). */
  readonly id?: string;
  readonly body: Record<string, unknown>;
  /**
   * The account the client made the write in (ACCOUNT_HEADER). When given and not the active
   * account, the write is refused: a write queued before an account switch must not land in the
   * account switched to.
   */
  readonly accountId?: string;
}

/** The answer to one write, kept as is for a repeated mutation id. */
export interface WriteAnswer {
  readonly status: 200 | 201;
  readonly body: { success: true; data: SyncedModel | null; _events: ModelUpdate[] };
}

/** 409 for a write made in another account than the active one (see WriteOp.accountId). */
const accountChanged = () => new DomainError('conflict', ACCOUNT_CHANGED_MESSAGE);

const USED_ELSEWHERE = 'This mutation id was already used for another change.';
/** 409 for a mutation id used before for another operation, or by another writer. */
const usedElsewhere = () =>
  new DomainError('conflict', USED_ELSEWHERE, { fields: { mutation_id: [USED_ELSEWHERE] } });

/**
 * Generic writes for every model in the registry. One write is one transaction: the change, its
 * model-update rows with the account's next seq numbers, and the mutation id with its answer
 * (DESIGN.md invariants 2, 3, 6). The feed hears of the updates only after the commit.
 */
/**
 * A write's result and its updates in other accounts, with `more` (updates per account, from a
 * rule's own logging) added: the write's account's to the result, the others' to `others`.
 */
function withUpdates<R extends { readonly updates: ModelUpdate[] }>(
  accountId: string,
  result: R,
  others: ReadonlyMap<string, ModelUpdate[]>,
  more: ReadonlyMap<string, ModelUpdate[]>,
): { result: R; others: ReadonlyMap<string, ModelUpdate[]> } {
  const merged = new Map(others);
  let updates = result.updates;
  for (const [account, list] of more) {
    if (account === accountId) updates = [...updates, ...list];
    else merged.set(account, [...(merged.get(account) ?? []), ...list]);
  }
  return { result: { ...result, updates }, others: merged };
}

export class ModelService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly feed: ChangeFeed,
    /** Whether a hotspot lies on its model (threed/surface.ts); absent in the seed. */
    private readonly surfaces?: SurfaceCheck,
    /** The accounts' release keys (releases/release-keys.ts); absent: nothing is released. */
    private readonly releaseKeys?: ReleaseKeys,
  ) {}

  /**
   * What service requests' machine contexts are read from (the time-series store, set once the
   * server opened it); absent in the seed and in tests without machine values.
   */
  machine: MachineContextSource | undefined;

  async write(session: Session, op: WriteOp): Promise<WriteAnswer> {
    const def = modelByCollection(op.collection);
    if (def === undefined) throw notFound('Collection');
    const accountId = this.checkAccount(session, op.accountId);
    // An article's images are files a help-centre author writes, a ticket's photo one its
    // reporter adds, a release's artifact one who edits releases uploads: the file's stored owner
    // decides in the transaction (mayChange).
    const ownedFile =
      def.type === fileModel.type &&
      (can(session.ctx, articleModel.permissions.update) ||
        can(session.ctx, ticketModel.permissions.view) ||
        can(session.ctx, releaseModel.permissions.update) ||
        can(session.ctx, themeModel.permissions.update) ||
        can(session.ctx, formEntryModel.permissions.create));
    const permission = def.permissions[op.kind];
    if (!can(session.ctx, permission) && !ownedFile) throw forbidden();
    const scopes = session.ctx.scopes;
    if (scopes !== undefined && !ownedFile && !scopesAllowWrite(scopes, permission))
      throw forbidden();
    if (def.type === hotspotModel.type) await this.warmSurface(accountId, op);
    const { answer, updates, givenAsset, others, accessMoved } = await this.db
      .transaction()
      .execute((trx) => this.applyIn(trx, accountId, op, false, session.access, session));
    this.feed.publish(accountId, updates);
    for (const [account, list] of others) this.feed.publish(account, list);
    if (accessMoved) this.feed.accessChanged(accountId);
    if (givenAsset === undefined) return this.asSeenBy(session.access, answer);
    // A restricted writer's new asset went to its roles: their browsers re-check now, and the
    // writer's answer already shows it.
    this.feed.accessChanged(accountId);
    return this.asSeenBy(session.access.withAsset(givenAsset), answer);
  }

  /**
   * A hotspot's model read ahead of the write (its level's triangles: a first read of a large
   * model takes a few hundred ms), so the write's transaction holds the database only for the
   * scan. Only a cache is filled here; the write checks what it reads itself.
   */
  private async warmSurface(accountId: string, op: WriteOp): Promise<void> {
    if (this.surfaces === undefined || op.kind === 'delete') return;
    const models = new ModelRepository(this.db);
    let modelId = (op.body as { threedmodel_id?: unknown }).threedmodel_id;
    if (typeof modelId !== 'string' && op.id !== undefined) {
      const stored = await models.find(accountId, hotspotModel.type, op.id);
      modelId =
        stored === undefined
          ? undefined
          : (JSON.parse(stored.attributes) as HotspotAttributes).threedmodel_id;
    }
    if (typeof modelId !== 'string') return;
    const row = await models.find(accountId, threedmodelModel.type, modelId);
    if (row === undefined) return;
    const sha256 = await surfaceLevelOf(
      models,
      accountId,
      JSON.parse(row.attributes) as ThreedmodelAttributes,
    );
    if (sha256 !== undefined)
      await this.surfaces.warm(accountId, { sha256 }).catch(() => undefined);
  }

  /**
   * The answer as the writer may see it (DESIGN.md §10): its model and events without the
   * attributes hidden from its roles, and none of the events about assets it does not see (a
   * gateway's delete clears references on every asset): the gap they leave makes the client
   * read the log, where they are stand-ins.
   */
  private asSeenBy(access: AccessDecision, answer: WriteAnswer): WriteAnswer {
    if (!access.restricted) {
      // Whole, but without the server's own note of where a moved model was.
      if (!answer.body._events.some((e) => e.asset_was !== undefined)) return answer;
      return {
        status: answer.status,
        body: {
          ...answer.body,
          _events: answer.body._events.map(withoutAssetWas),
        },
      };
    }
    const { data, _events: events } = answer.body;
    return {
      status: answer.status,
      body: {
        success: true,
        data:
          data === null
            ? null
            : { ...data, attributes: access.project(data.type, data.attributes) },
        _events: events
          .map((e) => access.asSeen(e))
          .filter((e): e is ModelUpdate => e.action !== 'hidden'),
      },
    };
  }

  /** The active account, if the write was made in it (or names none). */
  checkAccount(session: Session, madeIn: string | undefined): string {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined) throw forbidden();
    if (madeIn !== undefined && madeIn !== accountId) throw accountChanged();
    return accountId;
  }

  /**
   * The write itself, inside the caller's transaction, with no permission check: for `write`
   * above and for the demo seed. Answers the updates for the caller to publish after commit.
   */
  async applyIn(
    trx: Db,
    accountId: string,
    op: WriteOp,
    asServer = false,
    access?: AccessDecision,
    /** The writer: needed for the managed models (their rules ask who writes). */
    session?: Session,
  ) {
    const def = modelByCollection(op.collection);
    if (def === undefined) throw notFound('Collection');
    const meta = writeMetaSchema.safeParse(op.body);
    if (!meta.success) throw invalidInput(fieldErrorsOf(meta.error));
    // The clocks of every account the write logs in, in id order, before anything is read.
    await new ChangeLogRepository(trx).lockAll([
      accountId,
      ...(def.managed === true ? await logsTouchedBy(trx, def, op) : []),
      // A theme's change reaches the accounts that show it (theme-rules.ts).
      ...((def.type === themeModel.type && op.kind === 'update') ||
      def.type === translationModel.type
        ? await logsTouchedByTheme(trx, accountId)
        : []),
    ]);
    const mutationId = meta.data.mutation_id;
    const mutations = new MutationRepository(trx);
    const fingerprint = [op.kind, def.collection, op.id ?? meta.data.id ?? ''].join(' ');
    const writerId = session?.user.id ?? access?.userId ?? null;
    if (mutationId !== undefined) {
      const seen = await mutations.find(accountId, mutationId);
      if (seen !== undefined && seen.op !== '' && seen.op !== fingerprint) throw usedElsewhere();
      if (seen !== undefined) {
        /*
         * The stored answer is the first write's, with what it saw then: it goes back only to
         * the user who made it (an outbox retrying), after the checks a fresh write would pass
         * now (the type's permission in `write`, the fields, every asset the first write needed),
         * so neither another user nor one who lost access reads it. Another user is refused with
         * 409 rather than written afresh: the id names one write of the account (its row is
         * keyed by it), and a second write under it could never be told apart on a retry.
         */
        if (def.managed !== true && op.kind !== 'delete') refuseHiddenFields(access, def, op.body);
        for (const need of assetNeedsSchema.parse(JSON.parse(seen.asset_checks)))
          requireAsset(access, need);
        if (seen.user_id !== writerId) throw usedElsewhere();
        return {
          answer: JSON.parse(seen.response) as WriteAnswer,
          updates: [],
          givenAsset: undefined,
          others: new Map<string, ModelUpdate[]>(),
          accessMoved: false,
        };
      }
    }
    let result: { model: SyncedModel | null; updates: ModelUpdate[] };
    let others: ReadonlyMap<string, ModelUpdate[]>;
    let accessMoved: boolean;
    let givenAsset: string | undefined;
    let needs: readonly AssetNeed[] = [];
    if (def.managed === true) {
      if (session === undefined) throw forbidden();
      const id = op.kind === 'create' ? (meta.data.id ?? uuidv7()) : this.requireId(op.id);
      const managed = await writeManaged(
        trx,
        this.clock,
        session,
        accountId,
        def,
        op.kind,
        id,
        op.body,
      );
      result = managed;
      others = managed.others;
      accessMoved = managed.accessMoved;
    } else {
      const tx = new ModelTransaction(
        trx,
        this.clock,
        accountId,
        def,
        asServer,
        access,
        this.surfaces,
        this.machine,
        this.releaseKeys,
      );
      result =
        op.kind === 'create'
          ? await tx.create(meta.data.id, op.body)
          : op.kind === 'update'
            ? await tx.update(this.requireId(op.id), op.body)
            : await tx.remove(this.requireId(op.id));
      givenAsset = tx.givenAsset;
      needs = tx.needs;
      others = tx.others;
      accessMoved = tx.accessMoved;
      if (def.type === themeModel.type && op.kind === 'update' && result.model !== null) {
        // Every account that shows the theme gets its design anew, in this transaction.
        const shown = await relogThemeUsers(trx, accountId, result.model.id, this.clock.now());
        ({ result, others } = withUpdates(accountId, result, others, shown));
      }
      if (def.type === translationModel.type) {
        // The account's words changed: its browsers and those of the accounts below read them.
        const moved = await wordsChanged(trx, accountId, this.clock.now());
        ({ result, others } = withUpdates(accountId, result, others, moved));
      }
    }
    const answer: WriteAnswer = {
      status: op.kind === 'create' ? 201 : 200,
      body: { success: true, data: result.model, _events: result.updates },
    };
    if (mutationId !== undefined) {
      await mutations.record(accountId, {
        mutation_id: mutationId,
        op: fingerprint,
        status: answer.status,
        response: JSON.stringify(answer),
        created_at: isoAt(this.clock.now()),
        user_id: writerId,
        asset_checks: JSON.stringify(needs),
      });
    }
    return { answer, updates: result.updates, givenAsset, others, accessMoved };
  }

  /**
   * The server's own change of a model (a gateway's presence, a connection's reported state):
   * no session, may set serverFields, logged and published like any write.
   */
  async serverUpdate(
    accountId: string,
    collection: string,
    id: string,
    changes: Record<string, unknown>,
  ): Promise<void> {
    const written = await this.db
      .transaction()
      .execute((trx) =>
        this.applyIn(trx, accountId, { kind: 'update', collection, id, body: changes }, true),
      );
    this.announce(accountId, written);
  }

  /** A committed server write, published; its access moves re-checked. */
  private announce(
    accountId: string,
    written: { readonly updates: ModelUpdate[]; readonly accessMoved: boolean },
  ): void {
    this.feed.publish(accountId, written.updates);
    // A service request the server assigned (a call's agent): its browsers re-check now.
    if (written.accessMoved) this.feed.accessChanged(accountId);
  }

  /**
   * The server's own change of a model computed from the model as stored when it is written: the
   * account's writers are held from that read on (ChangeLogRepository.lock), so a change made
   * from an older read (a list of calls: a call's end written beside its start) cannot undo
   * another. `change` answers the attributes to set, or null for no write; nothing is written
   * for a model that is not there. Not for the models whose writes log in other accounts too
   * (managed ones, themes, translations): their clocks are locked in id order, this one first.
   */
  async serverUpdateWith<A>(
    accountId: string,
    collection: string,
    id: string,
    change: (attributes: A) => Record<string, unknown> | null,
  ): Promise<void> {
    const def = modelByCollection(collection);
    if (def === undefined) throw notFound('Collection');
    if (def.managed === true || def.type === themeModel.type || def.type === translationModel.type)
      throw new Error(`serverUpdateWith cannot write ${def.type}: its write locks other accounts`);
    const written = await this.db.transaction().execute(async (trx) => {
      await new ChangeLogRepository(trx).lock(accountId);
      const row = await new ModelRepository(trx).find(accountId, def.type, id);
      if (row === undefined) return undefined;
      const changes = change(JSON.parse(row.attributes) as A);
      if (changes === null) return undefined;
      return this.applyIn(trx, accountId, { kind: 'update', collection, id, body: changes }, true);
    });
    if (written !== undefined) this.announce(accountId, written);
  }

  /**
   * The server's own new model (a 3D model's levels): no session, may set serverFields, logged
   * and published like any write. Answers the model as stored.
   */
  async serverCreate(
    accountId: string,
    collection: string,
    body: Record<string, unknown>,
  ): Promise<SyncedModel> {
    const { answer, updates } = await this.db
      .transaction()
      .execute((trx) => this.applyIn(trx, accountId, { kind: 'create', collection, body }, true));
    this.feed.publish(accountId, updates);
    const model = answer.body.data;
    if (model === null) throw new Error('a server create answered no model');
    return model;
  }

  private requireId(id: string | undefined): string {
    const parsed = clientIdField.safeParse(id);
    if (!parsed.success) throw notFound('Model');
    return parsed.data;
  }
}
