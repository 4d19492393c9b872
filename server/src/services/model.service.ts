import {
  can,
  clientIdField,
  fieldErrorsOf,
  gatewayProblems,
  modelByCollection,
  modelByType,
  uuidv7,
  writeMetaSchema,
  type GatewayAttributes,
  type ModelDefinition,
  type ModelUpdate,
  type SyncedModel,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import { MutationRepository } from '../repositories/mutation.repository';
import type { ChangeFeed } from './change-feed';
import { DomainError, forbidden, invalidInput, notFound } from './domain-error';
import type { Session } from './user.service';

export type WriteKind = 'create' | 'update' | 'delete';

export interface WriteOp {
  readonly kind: WriteKind;
  readonly collection: string;
  /** The model's id, for update and delete (from the path, or from the batch item's data). */
  readonly id?: string;
  readonly body: Record<string, unknown>;
}

/** The answer to one write, kept as is for a repeated mutation id. */
export interface WriteAnswer {
  readonly status: 200 | 201;
  readonly body: { success: true; data: SyncedModel | null; _events: ModelUpdate[] };
}

type Draft = Omit<ModelUpdate, 'muid' | 'ts' | 'seq'>;

export function toSyncedModel(row: ModelRow): SyncedModel {
  return {
    type: row.type,
    id: row.id,
    parent_type: row.parent_type,
    parent_id: row.parent_id,
    attributes: JSON.parse(row.attributes) as Record<string, unknown>,
    last_seq: row.last_seq,
  };
}

/**
 * Generic writes for every model in the registry. One write is one transaction: the change, its
 * model-update rows with the account's next seq numbers, and the mutation id with its answer
 * (DESIGN.md invariants 2, 3, 6). The feed hears of the updates only after the commit.
 */
export class ModelService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly feed: ChangeFeed,
  ) {}

  async write(session: Session, op: WriteOp): Promise<WriteAnswer> {
    const def = modelByCollection(op.collection);
    if (def === undefined) throw notFound('Collection');
    const accountId = session.activeAccount?.id;
    if (accountId === undefined) throw forbidden();
    if (!can(session.ctx, def.permissions[op.kind])) throw forbidden();
    const { answer, updates } = await this.db
      .transaction()
      .execute((trx) => this.applyIn(trx, accountId, op));
    this.feed.publish(accountId, updates);
    return answer;
  }

  /**
   * The write itself, inside the caller's transaction, with no permission check: for `write`
   * above and for the demo seed. Answers the updates for the caller to publish after commit.
   */
  async applyIn(trx: Db, accountId: string, op: WriteOp) {
    const def = modelByCollection(op.collection);
    if (def === undefined) throw notFound('Collection');
    const meta = writeMetaSchema.safeParse(op.body);
    if (!meta.success) throw invalidInput(fieldErrorsOf(meta.error));
    const mutationId = meta.data.mutation_id;
    const mutations = new MutationRepository(trx);
    if (mutationId !== undefined) {
      const seen = await mutations.find(accountId, mutationId);
      if (seen !== undefined)
        return { answer: JSON.parse(seen.response) as WriteAnswer, updates: [] };
    }
    const tx = new Transactional(trx, this.clock, accountId, def);
    const result =
      op.kind === 'create'
        ? await tx.create(meta.data.id, op.body)
        : op.kind === 'update'
          ? await tx.update(this.requireId(op.id), op.body)
          : await tx.remove(this.requireId(op.id));
    const answer: WriteAnswer = {
      status: op.kind === 'create' ? 201 : 200,
      body: { success: true, data: result.model, _events: result.updates },
    };
    if (mutationId !== undefined) {
      await mutations.record(
        accountId,
        mutationId,
        answer.status,
        JSON.stringify(answer),
        isoAt(this.clock.now()),
      );
    }
    return { answer, updates: result.updates };
  }

  private requireId(id: string | undefined): string {
    const parsed = clientIdField.safeParse(id);
    if (!parsed.success) throw notFound('Model');
    return parsed.data;
  }
}

/** The work of one write inside its transaction. */
class Transactional {
  private readonly models: ModelRepository;
  private readonly log: ChangeLogRepository;
  private readonly now: number;

  constructor(
    trx: Db,
    clock: Clock,
    private readonly accountId: string,
    private readonly def: ModelDefinition,
  ) {
    this.models = new ModelRepository(trx);
    this.log = new ChangeLogRepository(trx);
    this.now = clock.now();
  }

  async create(id: string | undefined, body: Record<string, unknown>) {
    const parsed = this.def.attributes.safeParse(body);
    if (!parsed.success) throw invalidInput(fieldErrorsOf(parsed.error));
    const attributes = parsed.data;
    await this.check(attributes);
    const modelId = id ?? uuidv7(this.now);
    if (await this.models.idTaken(modelId)) {
      throw new DomainError('conflict', 'This id is already taken.', {
        fields: { id: ['This id is already taken.'] },
      });
    }
    const parentId = this.parentOf(attributes);
    const drafts: Draft[] = [
      { action: 'updated', type: this.def.type, id: modelId, attributes },
      {
        action: 'child_created',
        type: this.def.parentType,
        id: parentId,
        child_type: this.def.type,
        child_id: modelId,
      },
    ];
    drafts.push(
      ...(await this.listChange(parentId, { id: modelId, sortKey: this.sortKey(attributes) })),
    );
    const updates = await this.stamp(drafts);
    const at = isoAt(this.now);
    const row: Omit<ModelRow, 'account_id'> = {
      id: modelId,
      type: this.def.type,
      parent_type: this.def.parentType,
      parent_id: parentId,
      sort_key: this.sortKey(attributes),
      attributes: JSON.stringify(attributes),
      last_seq: updates[0]?.seq ?? 0,
      created_at: at,
      updated_at: at,
    };
    await this.models.insert(this.accountId, row);
    return { model: toSyncedModel({ ...row, account_id: this.accountId }), updates };
  }

  async update(id: string, body: Record<string, unknown>) {
    const existing = await this.models.find(this.accountId, this.def.type, id);
    if (existing === undefined) throw notFound('Model');
    const before = JSON.parse(existing.attributes) as Record<string, unknown>;
    const known = Object.keys(this.def.attributes.shape).filter((k) => k in body);
    const parsed = this.def.attributes.safeParse({
      ...before,
      ...Object.fromEntries(known.map((k) => [k, body[k]])),
    });
    if (!parsed.success) throw invalidInput(fieldErrorsOf(parsed.error));
    const after = parsed.data;
    const changed = Object.fromEntries(
      known
        .filter((k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]))
        .map((k) => [k, after[k]]),
    );
    if (Object.keys(changed).length === 0) return { model: toSyncedModel(existing), updates: [] };
    await this.check(after);
    const parentId = this.parentOf(after);
    const drafts: Draft[] = [
      { action: 'attributes_updated', type: this.def.type, id, attributes: changed },
    ];
    if (parentId !== existing.parent_id) {
      drafts.push(
        {
          action: 'child_deleted',
          type: this.def.parentType,
          id: existing.parent_id,
          child_type: this.def.type,
          child_id: id,
        },
        {
          action: 'child_created',
          type: this.def.parentType,
          id: parentId,
          child_type: this.def.type,
          child_id: id,
        },
      );
    }
    const sortKey = this.sortKey(after);
    if (parentId === existing.parent_id && sortKey !== existing.sort_key) {
      drafts.push(...(await this.listChange(parentId, { id, sortKey })));
    } else if (parentId !== existing.parent_id) {
      drafts.push(...(await this.listChange(existing.parent_id, { id, sortKey: null })));
      drafts.push(...(await this.listChange(parentId, { id, sortKey })));
    }
    const updates = await this.stamp(drafts);
    const changes = {
      attributes: JSON.stringify(after),
      last_seq: updates[0]?.seq ?? existing.last_seq,
      updated_at: isoAt(this.now),
      sort_key: sortKey,
      parent_id: parentId,
    };
    await this.models.update(this.accountId, id, changes);
    return { model: toSyncedModel({ ...existing, ...changes }), updates };
  }

  async remove(id: string) {
    const existing = await this.models.find(this.accountId, this.def.type, id);
    if (existing === undefined) throw notFound('Model');
    // Children go with their parent (an asset's groups and streams), deepest first.
    const doomed: ModelRow[] = [];
    const visit = async (row: ModelRow) => {
      for (const child of await this.models.children(this.accountId, row.type, row.id))
        await visit(child);
      doomed.push(row);
    };
    await visit(existing);
    const drafts: Draft[] = [
      ...doomed.map((row): Draft => ({ action: 'item_deleted', type: row.type, id: row.id })),
      {
        action: 'child_deleted',
        type: existing.parent_type,
        id: existing.parent_id,
        child_type: existing.type,
        child_id: id,
      },
    ];
    drafts.push(...(await this.listChange(existing.parent_id, { id, sortKey: null })));
    const updates = await this.stamp(drafts);
    for (const row of doomed) await this.models.remove(this.accountId, row.id);
    return { model: null, updates };
  }

  /**
   * For ordered models: `updated_list` on the parent with the children's ids in their new order,
   * after one child is placed at `sortKey` (null: removed).
   */
  private async listChange(
    parentId: string,
    change: { id: string; sortKey: string | null },
  ): Promise<Draft[]> {
    if (this.def.ordered !== true) return [];
    const siblings = (await this.models.children(this.accountId, this.def.parentType, parentId))
      .filter((row) => row.type === this.def.type && row.id !== change.id)
      .map((row) => ({ id: row.id, sortKey: row.sort_key }));
    if (change.sortKey !== null) siblings.push({ id: change.id, sortKey: change.sortKey });
    siblings.sort((a, b) =>
      a.sortKey === b.sortKey ? (a.id < b.id ? -1 : 1) : a.sortKey < b.sortKey ? -1 : 1,
    );
    return [
      {
        action: 'updated_list',
        type: this.def.parentType,
        id: parentId,
        child_type: this.def.type,
        list: siblings.map((sibling) => sibling.id),
      },
    ];
  }

  /** Model rules beyond the schema: references into the same account, and per-type checks. */
  private async check(attributes: Record<string, unknown>): Promise<void> {
    const problems: Record<string, string[]> = {};
    for (const [field, type] of Object.entries(this.def.refs ?? {})) {
      const value = attributes[field];
      if (typeof value !== 'string' || type === undefined) continue;
      const target = await this.models.find(this.accountId, type, value);
      if (target === undefined) problems[field] = [`Unknown ${modelByType(type)?.type ?? type}.`];
    }
    if (this.def.type === 'gateway')
      Object.assign(problems, gatewayProblems(attributes as GatewayAttributes));
    if (this.def.type === 'datastream' && problems.group_id === undefined) {
      const group = await this.models.find(
        this.accountId,
        'datastreamgroup',
        String(attributes.group_id),
      );
      const groupAsset =
        group === undefined
          ? undefined
          : (JSON.parse(group.attributes) as { asset_id?: unknown }).asset_id;
      if (group !== undefined && groupAsset !== attributes.asset_id) {
        problems.group_id = ['The group belongs to another asset.'];
      }
    }
    if (Object.keys(problems).length > 0) throw invalidInput(problems);
  }

  private parentOf(attributes: Record<string, unknown>): string {
    if (this.def.parentField === undefined) return this.accountId;
    return String(attributes[this.def.parentField]);
  }

  private sortKey(attributes: Record<string, unknown>): string {
    const value = attributes[this.def.sortField];
    if (typeof value === 'number') return value.toString().padStart(12, '0');
    return typeof value === 'string' ? value.toLowerCase() : '';
  }

  /** Gives each draft the account's next seq and ts, and writes them to the log. */
  private async stamp(drafts: readonly Draft[]): Promise<ModelUpdate[]> {
    const stamps = await this.log.take(this.accountId, drafts.length, this.now);
    const updates = drafts.map((d, i): ModelUpdate => {
      const s = stamps[i] ?? { seq: 0, ts: 0 };
      return { ...d, muid: uuidv7(s.ts), ts: s.ts, seq: s.seq };
    });
    await this.log.append(
      this.accountId,
      updates.map((u) => ({ seq: u.seq, ts: u.ts, muid: u.muid, msg: JSON.stringify(u) })),
    );
    return updates;
  }
}
