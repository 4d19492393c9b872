import { z } from 'zod';
import { deferred } from '../deferred';
import { boundedJson } from './json-value';

/** POST /api/v1/requestFailed: the client reports a failed or empty response (spec 000 §7). */
export const requestFailedSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    path: z.string({ error: 'The path is required' }).min(1, 'The path is required').max(2000),
    params: boundedJson().optional(),
    status: z.number({ error: 'The status must be a number' }).int().min(0).max(999),
    message: z.string().max(2000).optional(),
    appUrl: z.string().max(2000).optional(),
  }),
);
export type RequestFailed = z.infer<typeof requestFailedSchema>;

/** The params are stored as JSON text; more than this is cut off, not rejected. */
export const REQUEST_FAILED_PARAMS_MAX_CHARS = 4000;
