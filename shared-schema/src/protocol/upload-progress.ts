import { z } from 'zod';
import { deferred } from '../deferred';

/** Upload progress on `account/{id}/_notify/upload` (spec 000 §7): progress from 0 to 1. */
export const uploadProgressSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string().min(1).max(64),
    message: z.string().max(500),
    progress: z.number().min(0).max(1),
  }),
);
export type UploadProgress = z.infer<typeof uploadProgressSchema>;
