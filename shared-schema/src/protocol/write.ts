import { z } from 'zod';
import { deferred } from '../deferred';
import { UUID_V7_PATTERN } from '../uuid';
import { modelUpdateSchema } from './model-update';

/** A client-made mutation id: the server answers a repeated one again instead of applying it. */
export const mutationIdField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: 'Invalid mutation id.' })
    .min(8, 'Invalid mutation id.')
    .max(64, 'Invalid mutation id.')
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid mutation id.'),
);

/** Ids of models made on the client are UUIDv7 (DESIGN.md §4). */
export const clientIdField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: 'The id must be a UUIDv7.' })
    .regex(UUID_V7_PATTERN, 'The id must be a UUIDv7.'),
);

/** The fields every write body may carry besides the model's attributes. */
export const writeMetaSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: clientIdField.optional(),
    mutation_id: mutationIdField.optional(),
  }),
);

/** Batch mode (spec 000 §7): a list of items posted to the one URL. */
export const batchItemSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    batch_id: z.union([z.string().min(1).max(64), z.number().int()]),
    data: z.record(z.string(), z.unknown()),
  }),
);
export const batchRequestSchema = /* @__PURE__ */ deferred(() =>
  z.array(batchItemSchema).min(1).max(500),
);
export type BatchItem = z.infer<typeof batchItemSchema>;

export const BATCH_MAX_ITEMS = 500;

/** One item's answer in batch mode: a write's answer, or its own failure. */
export const batchItemAnswerSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    batch_id: z.union([z.string(), z.number()]),
    data: z.object({
      success: z.boolean(),
      data: z.unknown().optional(),
      message: z.string().optional(),
      errors: z.record(z.string(), z.array(z.string())).optional(),
      _events: z.array(modelUpdateSchema).optional(),
    }),
  }),
);
export type BatchItemAnswer = z.infer<typeof batchItemAnswerSchema>;

/** Batch mode's answer: `success` only when every item applied. */
export const batchAnswerSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    success: z.boolean(),
    data: z.array(batchItemAnswerSchema),
  }),
);
export type BatchAnswer = z.infer<typeof batchAnswerSchema>;
