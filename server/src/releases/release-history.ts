import { uuidv7, type ReleaseHistoryEntry } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { ReleaseHistoryTable } from '../db/types';

/*
 * Release management's history (DESIGN.md §15, issue 35 item 5): written in the transaction of
 * each change of a version, a rollout or a gateway's part of one (model-transaction.ts), so no
 * change is kept without its entry nor an entry without its change; read newest first.
 */

export type HistoryNote = Omit<ReleaseHistoryTable, 'id' | 'account_id' | 'at'>;

export async function noteReleaseHistory(
  trx: Db,
  accountId: string,
  now: number,
  notes: readonly HistoryNote[],
): Promise<void> {
  if (notes.length === 0) return;
  await trx
    .insertInto('release_history')
    .values(notes.map((n) => ({ ...n, id: uuidv7(now), account_id: accountId, at: now })))
    .execute();
}

/** The notes a write of a version, a rollout or a part makes: its creation, or its changes. */
export function historyNotes(
  subject: HistoryNote['subject'],
  subjectId: string,
  releaseId: string,
  before: Readonly<Record<string, unknown>> | null,
  after: Readonly<Record<string, unknown>>,
  changed: readonly string[],
  by: string | null,
  detail: string | null = null,
): HistoryNote[] {
  const state = (a: Readonly<Record<string, unknown>> | null) =>
    a === null || typeof a.state !== 'string' ? null : a.state;
  const base = { release_id: releaseId, subject, subject_id: subjectId, by_user: by };
  if (before === null)
    return [{ ...base, event: 'created', from_state: null, to_state: state(after), detail }];
  const notes: HistoryNote[] = [];
  if (changed.includes('state') && state(before) !== state(after))
    notes.push({
      ...base,
      event: 'state',
      from_state: state(before),
      to_state: state(after),
      detail,
    });
  const others = changed.filter((k) => k !== 'state' && !SERVER_STAMPS.has(k));
  if (others.length > 0)
    notes.push({
      ...base,
      event: 'changed',
      from_state: null,
      to_state: null,
      detail: JSON.stringify(others.sort()),
    });
  return notes;
}

/** The server's own stamps on a change: they are the change's, not a change of their own. */
const SERVER_STAMPS = new Set([
  'changed_by',
  'changed_at',
  'released_by',
  'released_at',
  'artifact_sha256',
  'signature',
  'key_id',
  'public_key',
  'counts',
  'batch',
  'reason',
  'message',
]);

export async function releaseHistory(
  db: Db,
  accountId: string,
  releaseId: string,
): Promise<ReleaseHistoryEntry[]> {
  const rows = await db
    .selectFrom('release_history')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('release_id', '=', releaseId)
    .orderBy('id', 'desc')
    .limit(5_000)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    subject: r.subject,
    subject_id: r.subject_id,
    event: r.event,
    from_state: r.from_state,
    to_state: r.to_state,
    detail: r.detail,
    by: r.by_user,
    at: Number(r.at),
  }));
}
