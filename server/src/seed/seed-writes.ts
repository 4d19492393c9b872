import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import type { ReleaseKeys } from '../releases/release-keys';
import { ChangeFeed } from '../services/change-feed';
import { ModelService } from '../services/model.service';

/**
 * The seed's writes of models, through the same code as a client's (checks, change log), as the
 * server (it may set the registry's serverFields: an article's number, a file's state). `what`
 * names the seed part in the error of a write that made nothing.
 */
export function seedWrites(
  trx: Db,
  clock: Clock,
  accountId: string,
  what: string,
  /** The accounts' release keys, for a seed that releases versions. */
  keys?: ReleaseKeys,
) {
  const models = new ModelService(trx, clock, new ChangeFeed(), undefined, keys);
  return {
    create: async (collection: string, body: Record<string, unknown>): Promise<string> => {
      const op = { kind: 'create', collection, body } as const;
      const { answer } = await models.applyIn(trx, accountId, op, true);
      const id = answer.body.data?.id;
      if (id === undefined) throw new Error(`${what}: no ${collection}`);
      return id;
    },
    update: async (
      collection: string,
      id: string,
      body: Record<string, unknown>,
    ): Promise<void> => {
      await models.applyIn(trx, accountId, { kind: 'update', collection, id, body }, true);
    },
  };
}
