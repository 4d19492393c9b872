import { z } from 'zod';

export const UPDATE_ACTIONS = [
  'updated',
  'updated_list',
  'child_deleted',
  'child_created',
  'item_deleted',
  'attributes_updated',
] as const;
export type UpdateAction = (typeof UPDATE_ACTIONS)[number];

/**
 * A model update (DESIGN.md §5), on `account/{id}/_modelupdates`, in mqttlogs and in `_events`.
 * `seq` is gapless per account, `ts` strictly increasing per account, `muid` unique.
 */
export const modelUpdateSchema = z.object({
  action: z.enum(UPDATE_ACTIONS),
  type: z.string(),
  id: z.string(),
  muid: z.string(),
  ts: z.number().int(),
  seq: z.number().int().positive(),
  list: z.array(z.string()).optional(),
  child_type: z.string().optional(),
  child_id: z.string().optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});
export type ModelUpdate = z.infer<typeof modelUpdateSchema>;

/** A synced model as the server answers it (writes, snapshot, graph). */
export const syncedModelSchema = z.object({
  type: z.string(),
  id: z.string(),
  parent_type: z.string(),
  parent_id: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  last_seq: z.number().int(),
});
export type SyncedModel = z.infer<typeof syncedModelSchema>;

/** Where a bootstrap's log replay starts: the account's clock before the first snapshot page. */
export const watermarkSchema = z.object({ ts: z.number().int(), seq: z.number().int() });
export type Watermark = z.infer<typeof watermarkSchema>;

/**
 * The model type an update is about, for permission filtering: the child's for child_created,
 * child_deleted and updated_list (they are sent on the parent), else the model's own.
 */
export function updateSubjectType(update: Pick<ModelUpdate, 'type' | 'child_type'>): string {
  return update.child_type ?? update.type;
}
