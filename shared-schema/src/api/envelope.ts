import { z } from 'zod';
import { deferred } from '../deferred';
export { NUL_TEXT_MESSAGE } from './envelope-texts';

/**
 * The response envelope of DESIGN.md §5. `_events` (model updates) and `_permissionChecks` arrive
 * with the sync issues; they are optional here so that every answer already fits the shape.
 */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    data,
    success: z.boolean().optional(),
    message: z.string().optional(),
    translationParams: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    _events: z.array(z.unknown()).optional(),
    _permissionChecks: z.array(z.unknown()).optional(),
  });
}

/** A 422 answer: the first message, and every message per field. */
export const validationErrorSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    success: z.literal(false),
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())),
  }),
);
export type ValidationError = z.infer<typeof validationErrorSchema>;

export const OBJECT_BODY_MESSAGE = 'The request body must be a JSON object.';

/**
 * A zod error as the 422 answer's `errors`: every message per field, each once. An issue about the
 * whole value (not an object at all) is reported on `body`.
 */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const root = issue.path.length === 0;
    const key = root ? 'body' : issue.path.map(String).join('.');
    const message = root ? OBJECT_BODY_MESSAGE : issue.message;
    const list = (fields[key] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return fields;
}
