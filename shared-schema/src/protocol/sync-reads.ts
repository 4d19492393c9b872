import { z } from 'zod';
import { deferred } from '../deferred';
import { syncedModelSchema, updateMessageSchema, watermarkSchema } from './model-update';

/**
 * GET account/mqttlogs?from=: updates after `from`, oldest first. `more`: the page was capped, ask
 * again from `through.ts`. `resync`: the log no longer reaches back to `from` (retention), so the
 * client must bootstrap again. `through`: where this page of the log ends (null: nothing after).
 */
export const mqttlogsAnswerSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    data: z.array(z.object({ ts: z.number().int(), msg: updateMessageSchema })),
    more: z.boolean(),
    resync: z.boolean(),
    through: watermarkSchema.nullable(),
  }),
);
export type MqttlogsAnswer = z.infer<typeof mqttlogsAnswerSchema>;

/**
 * GET sync/snapshot?cursor=&limit=: one page of the account's models in id order. The watermark
 * is the account's clock before the first page; replaying the log from it gives the present.
 */
export const snapshotPageSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    models: z.array(syncedModelSchema),
    /** How many models the whole snapshot has (counted at the first page): for progress. */
    total: z.number().int().min(0),
    next_cursor: z.string().nullable(),
    watermark: watermarkSchema,
    /**
     * When asked for: the first rows of the list the user looks at, in list order (sort key, then
     * id), read after the watermark like the page. They come again in their own page.
     */
    first: z.array(syncedModelSchema).optional(),
  }),
);
export type SnapshotPage = z.infer<typeof snapshotPageSchema>;

/** GET graph/{type}/{id}: the model and everything under it that the user may view. */
export const graphAnswerSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    model: syncedModelSchema,
    children: z.array(syncedModelSchema),
  }),
);
export type GraphAnswer = z.infer<typeof graphAnswerSchema>;

/** GET user/browser/mqtt?browser_id=: this browser's broker credentials for the active account. */
export const brokerCredentialsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    username: z.string(),
    clientid: z.string(),
    password: z.string(),
  }),
);
export type BrokerCredentials = z.infer<typeof brokerCredentialsSchema>;
