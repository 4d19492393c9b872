import { modelByType, type UpdateMessage } from '@plant/shared-schema';
import { modelKey, type Attributes, type ModelDoc, type OutboxDoc } from '../../store/docs';
import { applyUpdates, docKeyOf, trackWrite } from '../apply-update';
import { addMutation, confirmMutation, rejectMutation, settleConfirmed } from '../mutations';
import type { SyncCursor } from '../seq';
import { applySnapshotPage, sweepAfterSnapshot } from '../snapshot';
import type { ApplyContext, LocalWrite } from '../writes';
import type { SimServer } from './sim-server';

/*
 * The worker's sync loop in miniature, over an in-memory store, driving only the pure apply
 * functions: what the real loop will do with RxDB, minus the I/O. Used by the property test.
 */
export class SimClient {
  readonly docs = new Map<string, ModelDoc>();
  readonly outbox = new Map<string, OutboxDoc>();
  cursor: SyncCursor = { lastSeq: 0, lastTs: 0 };
  /** Mutation ids the server refused (rolled back here). */
  readonly rejected = new Set<string>();
  /** Every mutation id made here. */
  readonly made = new Set<string>();
  /** Keys an attributes_updated named that the store did not have (should stay empty). */
  readonly refreshes: string[] = [];
  private readonly ctx: ApplyContext;
  private clock = 0;

  constructor(private readonly server: SimServer) {
    this.ctx = { accountId: server.accountId };
  }

  private mutationsOf(keys: Iterable<string>): Map<string, OutboxDoc[]> {
    const wanted = new Set(keys);
    const byKey = new Map<string, OutboxDoc[]>([...wanted].map((k) => [k, []]));
    for (const m of this.outbox.values()) if (wanted.has(m.key)) byKey.get(m.key)?.push(m);
    return byKey;
  }

  private commit(writes: readonly LocalWrite[]): void {
    const byKey = this.mutationsOf([...this.outbox.values()].map((m) => m.key));
    for (const write of writes) trackWrite(write, this.docs, byKey);
    this.outbox.clear();
    for (const list of byKey.values()) for (const m of list) this.outbox.set(m.mutation_id, m);
  }

  /** A message from the broker: applied if next, dropped if seen, a gap fetches the log. */
  receive(msg: UpdateMessage): void {
    const result = this.applyRun([msg]);
    if (result === 'gap') this.catchUp();
  }

  /** mqttlogs from lastTs, applied in order. */
  catchUp(): void {
    const result = this.applyRun(this.server.logAfter(this.cursor.lastTs));
    if (result === 'gap') throw new Error('The log itself has a gap.');
    this.commit(settleConfirmed(this.ctx, this.cursor, this.docs, this.mutationsOf(this.keys())));
  }

  private applyRun(msgs: readonly UpdateMessage[]): 'ok' | 'gap' {
    const keys = msgs.flatMap((m) => docKeyOf(m) ?? []);
    const result = applyUpdates(this.ctx, this.cursor, msgs, this.docs, this.mutationsOf(keys));
    this.commit(result.writes);
    this.cursor = result.cursor;
    this.refreshes.push(...result.refresh);
    return result.gap === undefined ? 'ok' : 'gap';
  }

  private keys(): string[] {
    return [...new Set([...this.docs.keys(), ...[...this.outbox.values()].map((m) => m.key)])];
  }

  /**
   * Bootstrap (DESIGN.md invariant 5): the watermark, pages in id order with `between` run
   * between pages (the server goes on changing), the sweep, then the log from the watermark.
   */
  bootstrap(pageSize: number, between: () => void): void {
    const watermark = this.server.clock();
    const seen = new Set<string>();
    let after: string | null = null;
    for (;;) {
      const page = this.server.snapshotPage(after, pageSize);
      const keys = page.map((m) => modelKey(m.type, m.id));
      keys.forEach((k) => seen.add(k));
      this.commit(applySnapshotPage(this.ctx, page, this.docs, this.mutationsOf(keys)));
      const last = page.filter((m) => m.type !== 'account').at(-1);
      if (last === undefined || page.length < pageSize) break;
      after = last.id;
      between();
    }
    this.commit(
      sweepAfterSnapshot(
        this.ctx,
        [...this.docs.values()],
        seen,
        watermark,
        this.mutationsOf(this.keys()),
      ),
    );
    this.cursor = { lastSeq: watermark.seq, lastTs: watermark.ts };
    this.catchUp();
  }

  /** A local write: optimistic at once, queued in the outbox. */
  mutate(kind: OutboxDoc['kind'], type: string, id: string, attributes: Attributes): void {
    const def = modelByType(type);
    if (def === undefined) throw new Error(`Unknown type ${type}`);
    this.clock += 1;
    const entry: OutboxDoc = {
      mutation_id: `mut-${this.clock}`,
      created_at: this.clock,
      account_id: this.ctx.accountId,
      collection_name: def.collection,
      kind,
      type,
      id,
      key: modelKey(type, id),
      attributes,
      state: 'pending',
      attempts: 0,
      last_error: null,
      through_seq: 0,
    };
    this.made.add(entry.mutation_id);
    const key = entry.key;
    this.commit(
      addMutation(this.ctx, entry, this.docs.get(key), this.mutationsOf([key]).get(key) ?? []),
    );
  }

  /**
   * Sends the oldest `count` pending mutations, in order. `lose`: the server applies them but
   * the answers never come back (they stay pending and go again later, same mutation ids).
   */
  send(count: number, lose: boolean): void {
    const batch = [...this.outbox.values()]
      .filter((m) => m.state === 'pending')
      .sort((a, b) => a.created_at - b.created_at)
      .slice(0, count);
    for (const entry of batch) {
      const answer = this.server.write({
        kind: entry.kind,
        collection: entry.collection_name,
        id: entry.id,
        body: entry.attributes,
        mutationId: entry.mutation_id,
      });
      if (lose) continue;
      const current = this.outbox.get(entry.mutation_id) ?? entry;
      const doc = this.docs.get(entry.key);
      const list = this.mutationsOf([entry.key]).get(entry.key) ?? [];
      if (answer.ok) {
        this.commit(confirmMutation(this.ctx, current, answer.events, this.cursor, doc, list));
      } else {
        this.rejected.add(entry.mutation_id);
        this.commit(rejectMutation(this.ctx, current, answer.message, false, doc, list));
      }
    }
  }

  /** Docs the UI would list (hidden ones, deleted here or on the server, left out). */
  visibleDocs(): ModelDoc[] {
    return [...this.docs.values()].filter((d) => d.attributes !== null);
  }
}
