import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { ERROR_TEXTS, fieldErrorsOf } from '@plant/shared-schema';
import { ScryptBusy } from '../lib/secrets';
import type { Logger } from '../logger';
import { DomainError, invalidInput, type DomainErrorKind } from '../services/domain-error';

export function validationFailure(error: z.ZodError): DomainError {
  return invalidInput(fieldErrorsOf(error));
}

/** The body could not be parsed at all: 400. */
export class MalformedBody extends Error {
  constructor(message = 'The request body is not valid JSON.') {
    super(message);
    this.name = 'MalformedBody';
  }
}

const STATUS: Record<DomainErrorKind, ContentfulStatusCode> = {
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid: 422,
  rate_limited: 429,
  unavailable: 503,
  timeout: 504,
};

/**
 * Turns every thrown error into the envelope `{ success: false, message, errors? }`. Expected
 * failures keep their message; anything else is logged and answered with the spec's generic text,
 * so no internals reach the client.
 */
export function errorResponse(err: unknown, c: Context, log: Logger): Response {
  if (err instanceof MalformedBody) return c.json({ success: false, message: err.message }, 400);
  if (err instanceof DomainError) {
    if (err.details.retryAfterS !== undefined)
      c.header('Retry-After', String(err.details.retryAfterS));
    const body =
      err.details.fields === undefined
        ? { success: false, message: err.message }
        : { success: false, message: err.message, errors: err.details.fields };
    return c.json(body, STATUS[err.kind]);
  }
  if (err instanceof ScryptBusy) {
    c.header('Retry-After', '1');
    return c.json({ success: false, message: err.message }, 503);
  }
  if (err instanceof HTTPException) {
    return c.json({ success: false, message: err.message || 'Request failed.' }, err.status);
  }
  log.error('unhandled error', {
    path: c.req.path,
    error: err instanceof Error ? (err.stack ?? err.message) : String(err),
  });
  return c.json({ success: false, message: ERROR_TEXTS.unknown }, 500);
}
