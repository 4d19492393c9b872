import { z } from 'zod';
import { deferred } from '../deferred';

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
export const modelUpdateSchema = /* @__PURE__ */ deferred(() =>
  z.object({
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
    /**
     * The asset the update's subject belongs to (the child's for child_* and updated_list), for
     * access per asset (DESIGN.md §10): who may not see that asset gets the stand-in. Absent for
     * subjects outside any asset.
     */
    asset: z.string().optional(),
    /**
     * The template the subject belongs to, for a model that may sit under an asset or a template
     * (registry `altParents`: a template's 3D model, scene or file) when it has no asset: such an
     * update without either is one logged before updates named their asset, and only who sees
     * every asset receives it.
     */
    template: z.string().optional(),
    /** The same for an article's image (a file under an article, registry `altParents`). */
    article: z.string().optional(),
    /** The same for a ticket's photo (a file under a feedback ticket): who sees tickets sees it. */
    ticket: z.string().optional(),
    /** The same for a release's artifact (a file under a version): who sees releases sees it. */
    release: z.string().optional(),
    /**
     * The asset the subject belonged to before this update, when the update moved it to another
     * (a stream moved to another asset's group): who saw the old asset but not the new one gets
     * `item_deleted` instead of a stand-in, so its copy goes. Server-side only: never sent on.
     */
    asset_was: z.string().optional(),
  }),
);
export type ModelUpdate = z.infer<typeof modelUpdateSchema>;

/** The update as clients receive it: without the server's own `asset_was`. */
export function withoutAssetWas(update: ModelUpdate): ModelUpdate {
  if (update.asset_was === undefined) return update;
  const sent = { ...update };
  delete sent.asset_was;
  return sent;
}

/**
 * Stands in for an update the receiver may not see (a type its user may not view), on the topic
 * and in mqttlogs. It keeps `seq` gapless for every receiver: a client advances its lastSeq and
 * lastTs and applies nothing, instead of taking the hole for missed updates (invariant 4).
 */
export const hiddenUpdateSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    action: z.literal('hidden'),
    muid: z.string(),
    ts: z.number().int(),
    seq: z.number().int().positive(),
  }),
);
export type HiddenUpdate = z.infer<typeof hiddenUpdateSchema>;

/** What a client receives on `_modelupdates` and in mqttlogs: an update, or its stand-in. */
export const updateMessageSchema = /* @__PURE__ */ deferred(() =>
  z.union([modelUpdateSchema, hiddenUpdateSchema]),
);
export type UpdateMessage = ModelUpdate | HiddenUpdate;

/** The stand-in for `update`: same seq, ts and muid, nothing about what changed. */
export function hiddenUpdateOf(update: Pick<ModelUpdate, 'muid' | 'ts' | 'seq'>): HiddenUpdate {
  return { action: 'hidden', muid: update.muid, ts: update.ts, seq: update.seq };
}

/** A synced model as the server answers it (writes, snapshot, graph). */
export const syncedModelSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    type: z.string(),
    id: z.string(),
    parent_type: z.string(),
    parent_id: z.string(),
    attributes: z.record(z.string(), z.unknown()),
    last_seq: z.number().int(),
  }),
);
export type SyncedModel = z.infer<typeof syncedModelSchema>;

/** Where a bootstrap's log replay starts: the account's clock before the first snapshot page. */
export const watermarkSchema = /* @__PURE__ */ deferred(() =>
  z.object({ ts: z.number().int(), seq: z.number().int() }),
);
export type Watermark = z.infer<typeof watermarkSchema>;

/**
 * The model type an update is about, for permission filtering: the child's for child_created,
 * child_deleted and updated_list (they are sent on the parent), else the model's own.
 */
export function updateSubjectType(update: Pick<ModelUpdate, 'type' | 'child_type'>): string {
  return update.child_type ?? update.type;
}
