import { z } from 'zod';

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
export const validationErrorSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type ValidationError = z.infer<typeof validationErrorSchema>;
