/**
 * apply/: pure functions from what the server says (updates, snapshot pages, write answers) and
 * what the store holds to the local writes (DESIGN.md invariants 3, 5, 6). No RxDB here: the
 * store runs the writes, in one queued write with the new cursor.
 */
export { checkSeq, type SeqCheck, type SyncCursor } from './seq';
export {
  applyUpdate,
  applyUpdates,
  docKeyOf,
  trackWrite,
  type ApplyResult,
  type BatchResult,
  type UpdateInput,
} from './apply-update';
export {
  addMutation,
  confirmMutation,
  rejectMutation,
  settleConfirmed,
  throughSeqOf,
} from './mutations';
export { applySnapshotPage, sweepAfterSnapshot } from './snapshot';
export { overlaying, rebase, settle, serverStateOf, type ServerState } from './rebase';
export { placementOf, sortKeyOf, SORT_KEY_MAX, type Placement } from './keys';
export { compactWrites, sameJson, type ApplyContext, type LocalWrite } from './writes';
