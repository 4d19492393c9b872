import type { z } from 'zod';
import { ERROR_TEXTS } from '@plant/shared-schema';
import type { CallOptions, Result, WorkerError } from '@plant/sync-worker/api';
import { syncWorker } from '../sync/worker';

/**
 * Calls through the worker's API client (DESIGN.md invariant 1), with the answer parsed by its
 * shared schema. `envelope`: the answer is `{ data }` and `data` is what is parsed.
 */
export async function callApi<T>(
  method: string,
  path: string,
  schema: z.ZodType<T>,
  options: CallOptions & { readonly body?: unknown; readonly envelope?: boolean } = {},
): Promise<Result<T>> {
  const { body, envelope = true, ...callOptions } = options;
  const answer = await syncWorker().http.call(method, path, body, callOptions);
  if ('error' in answer) return answer;
  const value = envelope ? (answer.data as { data?: unknown } | null)?.data : answer.data;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const error: WorkerError = { kind: 'invalid', message: ERROR_TEXTS.unknown };
    return { error };
  }
  return { data: parsed.data };
}
