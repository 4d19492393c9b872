import {
  hiddenUpdateOf,
  modelByCollection,
  sortKeyOf,
  updateSubjectType,
  type ModelDefinition,
  type ModelUpdate,
  type SyncedModel,
  type UpdateMessage,
  type Watermark,
} from '@plant/shared-schema';

/*
 * A test double of the server's write path: the same updates, in the same order, as
 * server/src/services/model.service.ts (create: updated + child_created (+ updated_list);
 * update: attributes_updated with the changed attributes (+ child_deleted/child_created on a
 * move, + updated_list); delete: item_deleted deepest first + child_deleted (+ updated_list)),
 * mutation ids answered again instead of applied twice, and hidden stand-ins for types the
 * client may not view (as the broker and mqttlogs send them). Kept apart from the code under
 * test on purpose: its sort key is the server's own copy.
 */

interface Row {
  type: string;
  id: string;
  parent_type: string;
  parent_id: string;
  sort_key: string;
  attributes: Record<string, unknown>;
  last_seq: number;
}

type Draft = Omit<ModelUpdate, 'muid' | 'ts' | 'seq'>;

export interface SimWrite {
  readonly kind: 'create' | 'update' | 'delete';
  readonly collection: string;
  readonly id: string;
  readonly body: Record<string, unknown>;
  readonly mutationId?: string;
}

export type SimAnswer =
  | { readonly ok: true; readonly events: readonly ModelUpdate[] }
  | { readonly ok: false; readonly status: number; readonly message: string };

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class SimServer {
  readonly rows = new Map<string, Row>();
  readonly log: ModelUpdate[] = [];
  /** How often each mutation id was applied (must never exceed 1). */
  readonly applied = new Map<string, number>();
  private readonly answers = new Map<string, SimAnswer>();
  private seq = 0;
  private ts = 1_000;

  constructor(
    readonly accountId: string,
    private readonly hiddenTypes: ReadonlySet<string>,
  ) {}

  clock(): Watermark {
    return { seq: this.seq, ts: this.ts };
  }

  write(op: SimWrite): SimAnswer {
    if (op.mutationId !== undefined) {
      const seen = this.answers.get(op.mutationId);
      if (seen !== undefined) return seen;
    }
    const def = modelByCollection(op.collection);
    if (def === undefined) return { ok: false, status: 404, message: 'Not found' };
    let answer: SimAnswer;
    try {
      const drafts =
        op.kind === 'create'
          ? this.create(def, op.id, op.body)
          : op.kind === 'update'
            ? this.update(def, op.id, op.body)
            : this.remove(def, op.id);
      answer = { ok: true, events: this.stamp(drafts) };
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      return { ok: false, status: error.status, message: error.message };
    }
    if (op.mutationId !== undefined) {
      this.answers.set(op.mutationId, answer);
      this.applied.set(op.mutationId, (this.applied.get(op.mutationId) ?? 0) + 1);
    }
    return answer;
  }

  /** What a client that may not view `hiddenTypes` receives for an update. */
  visible(update: ModelUpdate): UpdateMessage {
    return this.hiddenTypes.has(updateSubjectType(update)) ? hiddenUpdateOf(update) : update;
  }

  /** mqttlogs: every update after `fromTs`, oldest first, as this client sees them. */
  logAfter(fromTs: number): UpdateMessage[] {
    return this.log.filter((u) => u.ts > fromTs).map((u) => this.visible(u));
  }

  /** The models the client may view, as synced models. */
  viewable(): SyncedModel[] {
    return [...this.rows.values()]
      .filter((r) => !this.hiddenTypes.has(r.type))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((r) => ({
        type: r.type,
        id: r.id,
        parent_type: r.parent_type,
        parent_id: r.parent_id,
        attributes: structuredClone(r.attributes),
        last_seq: r.last_seq,
      }));
  }

  /** One snapshot page in id order (the account read model rides on the first, last_seq 0). */
  snapshotPage(after: string | null, limit: number): SyncedModel[] {
    const rows = this.viewable()
      .filter((m) => after === null || m.id > after)
      .slice(0, limit);
    if (after !== null) return rows;
    const account: SyncedModel = {
      type: 'account',
      id: this.accountId,
      parent_type: 'account',
      parent_id: '',
      attributes: { name: 'Sim account', active: true },
      last_seq: 0,
    };
    return [account, ...rows];
  }

  private create(def: ModelDefinition, id: string, body: Record<string, unknown>): Draft[] {
    const parsed = def.attributes.safeParse(body);
    if (!parsed.success) throw new Refused(422, parsed.error.issues[0]?.message ?? 'Invalid');
    const attributes = parsed.data;
    this.check(def, attributes);
    if (this.rows.has(id)) throw new Refused(409, 'This id is already taken.');
    const parentId = this.parentOf(def, attributes);
    const drafts: Draft[] = [
      { action: 'updated', type: def.type, id, attributes },
      {
        action: 'child_created',
        type: def.parentType,
        id: parentId,
        child_type: def.type,
        child_id: id,
      },
    ];
    this.rows.set(id, {
      type: def.type,
      id,
      parent_type: def.parentType,
      parent_id: parentId,
      sort_key: sortKeyOf(def, attributes),
      attributes,
      last_seq: this.seq + 1,
    });
    return [...drafts, ...this.listChange(def, parentId)];
  }

  private update(def: ModelDefinition, id: string, body: Record<string, unknown>): Draft[] {
    const row = this.rows.get(id);
    if (row === undefined || row.type !== def.type) throw new Refused(404, 'Model not found.');
    const before = row.attributes;
    const known = Object.keys(def.attributes.shape).filter((k) => k in body);
    const parsed = def.attributes.safeParse({
      ...before,
      ...Object.fromEntries(known.map((k) => [k, body[k]])),
    });
    if (!parsed.success) throw new Refused(422, parsed.error.issues[0]?.message ?? 'Invalid');
    const after = parsed.data;
    const changed = Object.fromEntries(
      known
        .filter((k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]))
        .map((k) => [k, after[k]]),
    );
    if (Object.keys(changed).length === 0) return [];
    this.check(def, after);
    const parentId = this.parentOf(def, after);
    const oldParent = row.parent_id;
    const oldSort = row.sort_key;
    const drafts: Draft[] = [
      { action: 'attributes_updated', type: def.type, id, attributes: changed },
    ];
    if (parentId !== oldParent) {
      const child = { child_type: def.type, child_id: id };
      drafts.push(
        { action: 'child_deleted', type: def.parentType, id: oldParent, ...child },
        { action: 'child_created', type: def.parentType, id: parentId, ...child },
      );
    }
    Object.assign(row, {
      attributes: after,
      parent_id: parentId,
      sort_key: sortKeyOf(def, after),
      last_seq: this.seq + 1,
    });
    if (parentId !== oldParent) {
      drafts.push(...this.listChange(def, oldParent), ...this.listChange(def, parentId));
    } else if (row.sort_key !== oldSort) {
      drafts.push(...this.listChange(def, parentId));
    }
    return drafts;
  }

  private remove(def: ModelDefinition, id: string): Draft[] {
    const row = this.rows.get(id);
    if (row === undefined || row.type !== def.type) throw new Refused(404, 'Model not found.');
    const doomed: Row[] = [];
    const visit = (r: Row) => {
      for (const child of this.rows.values())
        if (child.parent_type === r.type && child.parent_id === r.id) visit(child);
      doomed.push(r);
    };
    visit(row);
    for (const r of doomed) this.rows.delete(r.id);
    return [
      ...doomed.map((r): Draft => ({ action: 'item_deleted', type: r.type, id: r.id })),
      {
        action: 'child_deleted',
        type: row.parent_type,
        id: row.parent_id,
        child_type: row.type,
        child_id: id,
      },
      ...this.listChange(def, row.parent_id),
    ];
  }

  /** updated_list on the parent of an ordered model, from the rows as they are now. */
  private listChange(def: ModelDefinition, parentId: string): Draft[] {
    if (def.ordered !== true) return [];
    const list = [...this.rows.values()]
      .filter((r) => r.type === def.type && r.parent_id === parentId)
      .sort((a, b) =>
        a.sort_key === b.sort_key ? (a.id < b.id ? -1 : 1) : a.sort_key < b.sort_key ? -1 : 1,
      )
      .map((r) => r.id);
    const draft: Draft = {
      action: 'updated_list',
      type: def.parentType,
      id: parentId,
      child_type: def.type,
      list,
    };
    return [draft];
  }

  private check(def: ModelDefinition, attributes: Record<string, unknown>): void {
    for (const [field, type] of Object.entries(def.refs ?? {})) {
      const value = attributes[field];
      if (typeof value !== 'string') continue;
      if (this.rows.get(value)?.type !== type) throw new Refused(422, `Unknown ${type}.`);
    }
    if (def.type === 'datastream') {
      const group = this.rows.get(String(attributes.group_id));
      if (group?.attributes.asset_id !== attributes.asset_id)
        throw new Refused(422, 'The group belongs to another asset.');
    }
  }

  private parentOf(def: ModelDefinition, attributes: Record<string, unknown>): string {
    return def.parentField === undefined ? this.accountId : String(attributes[def.parentField]);
  }

  private stamp(drafts: readonly Draft[]): ModelUpdate[] {
    const updates = drafts.map((d): ModelUpdate => {
      this.seq += 1;
      this.ts += 1 + (this.seq % 3);
      return { ...d, muid: `mu-${this.seq}`, ts: this.ts, seq: this.seq };
    });
    this.log.push(...updates);
    return updates;
  }
}
