import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  ACCOUNT_HEADER,
  batchRequestSchema,
  ERROR_TEXTS,
  OBJECT_BODY_MESSAGE,
  type BatchItem,
} from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import { requestHeader, type AppEnv } from '../http/context';
import { parse, readJson, withoutNul } from '../http/validate';
import type { Services } from '../services';
import { DomainError, invalidInput } from '../services/domain-error';
import type { WriteKind, WriteOp } from '../services/model.service';
import type { Logger } from '../logger';

function asObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput({ body: [OBJECT_BODY_MESSAGE] });
  }
  return value as Record<string, unknown>;
}

/**
 * The generic write routes of every model in the registry (DESIGN.md §5):
 * POST /{collection}, PUT and DELETE /{collection}/{id}; a list of {batch_id, data} posted to the
 * collection URL (POST creates, PUT and DELETE name the id in each item's data) is batch mode.
 */
export function modelRoutes(services: Services, log: Logger) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  const opOf = (
    c: Context<AppEnv>,
    kind: WriteKind,
    id: string | undefined,
    body: Record<string, unknown>,
  ): WriteOp => {
    const accountId = requestHeader(c, ACCOUNT_HEADER);
    return {
      kind,
      collection: c.req.param('collection') ?? '',
      ...(id === undefined ? {} : { id }),
      ...(accountId === undefined ? {} : { accountId }),
      body,
    };
  };

  const one = async (
    c: Context<AppEnv>,
    kind: WriteKind,
    id: string | undefined,
    body: unknown,
  ) => {
    const answer = await services.models.write(c.get('session'), opOf(c, kind, id, asObject(body)));
    return c.json(answer.body, answer.status);
  };

  /** Every item is its own write: one that fails carries its error, the others still apply. */
  const batch = async (c: Context<AppEnv>, kind: WriteKind, body: unknown) => {
    const items: BatchItem[] = parse(batchRequestSchema, body);
    // A batch made in another account is refused whole, before any item applies.
    services.models.checkAccount(c.get('session'), requestHeader(c, ACCOUNT_HEADER));
    const data: { batch_id: string | number; data: unknown }[] = [];
    let allApplied = true;
    for (const item of items) {
      const id = kind === 'create' ? undefined : z.string().max(64).safeParse(item.data.id).data;
      try {
        const answer = await services.models.write(c.get('session'), opOf(c, kind, id, item.data));
        data.push({ batch_id: item.batch_id, data: answer.body });
      } catch (err) {
        allApplied = false;
        if (!(err instanceof DomainError)) {
          // The items before this one are committed: failing the whole request would hide that.
          log.error('batch item failed', { error: String(err) });
          data.push({
            batch_id: item.batch_id,
            data: { success: false, message: ERROR_TEXTS.unknown },
          });
          continue;
        }
        const fields = err.details.fields;
        data.push({
          batch_id: item.batch_id,
          data: {
            success: false,
            message: err.message,
            ...(fields === undefined ? {} : { errors: fields }),
          },
        });
      }
    }
    return c.json({ success: allApplied, data });
  };

  app.post('/:collection', auth, async (c) => {
    const body = await readJson(c);
    return Array.isArray(body) ? batch(c, 'create', body) : one(c, 'create', undefined, body);
  });
  app.put('/:collection', auth, async (c) => batch(c, 'update', await readJson(c)));
  app.delete('/:collection', auth, async (c) => batch(c, 'delete', await readJson(c)));
  // The id is looked up before any schema reads it: a NUL in it is refused first (Postgres).
  const pathId = (c: Context<AppEnv>) => withoutNul({ id: c.req.param('id') ?? '' }).id ?? '';
  app.put('/:collection/:id', auth, async (c) => one(c, 'update', pathId(c), await readJson(c)));
  app.delete('/:collection/:id', auth, async (c) => one(c, 'delete', pathId(c), await readJson(c)));

  return app;
}
