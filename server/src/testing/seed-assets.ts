import { systemClock } from '../lib/clock';
import { ChangeFeed } from '../services/change-feed';
import { ModelService } from '../services/model.service';
import type { TestServer } from './harness';

/**
 * Seeds assets through the service layer (validation, sort key, change log), 1000 a transaction,
 * on a feed nobody listens to: the broker does not fan the seeding out to anyone.
 */
export async function seedAssets(
  server: TestServer,
  accountId: string,
  count: number,
  nameOf: (i: number) => string = (i) => `Bench asset ${String(i).padStart(6, '0')}`,
): Promise<void> {
  const models = new ModelService(server.db, systemClock, new ChangeFeed());
  for (let from = 0; from < count; from += 1000) {
    await server.db.transaction().execute(async (trx) => {
      for (let i = from; i < Math.min(count, from + 1000); i++) {
        await models.applyIn(trx, accountId, {
          kind: 'create',
          collection: 'assets',
          body: {
            name: nameOf(i),
            description: `Seeded for a large account, number ${i}.`,
            tags: ['bench'],
          },
        });
      }
    });
  }
}
