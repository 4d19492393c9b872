import type { Insertable, Selectable } from 'kysely';
import {
  integrationModel,
  WEBHOOK_KIND,
  type IntegrationAttributes,
  type WebhookSettings,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type {
  AlarmEventsTable,
  IntegrationSecretsTable,
  WebhookDeliveriesTable,
} from '../db/types';
import { scopeTo } from '../repositories/account-scope';
import { ModelRepository } from '../repositories/model.repository';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewDelivery = Omit<Insertable<WebhookDeliveriesTable>, 'account_id'>;
export type AlarmEventRow = Selectable<AlarmEventsTable>;

/** Where the leader stands in `alarm_events`: the last event it looked at. */
export interface EventCursor {
  readonly createdAt: number;
  readonly id: string;
}

const CURSOR_NAME = 'alarm_events';

async function saveCursorIn(db: Db, cursor: EventCursor): Promise<void> {
  await db
    .insertInto('webhook_cursor')
    .values({ name: CURSOR_NAME, created_at: cursor.createdAt, event_id: cursor.id })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({ created_at: cursor.createdAt, event_id: cursor.id }),
    )
    .execute();
}

/** An enabled webhook integration of an account, as stored. */
export interface Webhook {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly webhook: WebhookSettings;
}

/** The integration's webhook part, when it is an enabled webhook (else undefined). */
export function webhookOf(
  accountId: string,
  id: string,
  attributes: IntegrationAttributes,
): Webhook | undefined {
  if (attributes.kind !== WEBHOOK_KIND || !attributes.enabled || attributes.webhook === null)
    return undefined;
  return { id, accountId, name: attributes.name, webhook: attributes.webhook };
}

/** The account's enabled webhooks, read now. */
export async function webhooksOf(db: Db, accountId: string): Promise<Webhook[]> {
  const rows = await new ModelRepository(db).allOfTypes(accountId, [integrationModel.type]);
  return rows.flatMap((row) => {
    const found = webhookOf(accountId, row.id, JSON.parse(row.attributes) as IntegrationAttributes);
    return found === undefined ? [] : [found];
  });
}

/**
 * The webhooks' queries (integrations/). The outbox reads (the alarm events, `due`, `nextDue`,
 * `integrationsWithRows`) and the cursor go across accounts on purpose: they are the server's own queues, and
 * every row they find is then handled within its own account. Every other query is scoped.
 */
export class WebhookRepository {
  constructor(private readonly db: Db) {}

  /** Alarm events after the cursor, in (created_at, id) order. */
  eventsAfter(cursor: EventCursor, limit: number): Promise<AlarmEventRow[]> {
    return this.db
      .selectFrom('alarm_events')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('created_at', '>', cursor.createdAt),
          eb.and([eb('created_at', '=', cursor.createdAt), eb('id', '>', cursor.id)]),
        ]),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** The ids of the events made in (from, to]: those a late commit may have put behind the cursor. */
  eventIdsBetween(
    from: number,
    to: number,
    limit: number,
  ): Promise<{ id: string; created_at: number }[]> {
    return this.db
      .selectFrom('alarm_events')
      .select(['id', 'created_at'])
      .where('created_at', '>', from)
      .where('created_at', '<=', to)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  eventsByIds(ids: readonly string[]): Promise<AlarmEventRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('alarm_events')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
  }

  /** The cursor kept by the last leader, if any. */
  async cursor(): Promise<EventCursor | undefined> {
    const row = await this.db
      .selectFrom('webhook_cursor')
      .selectAll()
      .where('name', '=', CURSOR_NAME)
      .executeTakeFirst();
    return row === undefined ? undefined : { createdAt: Number(row.created_at), id: row.event_id };
  }

  async saveCursor(cursor: EventCursor): Promise<void> {
    await saveCursorIn(this.db, cursor);
  }

  /**
   * Deliveries of alarm events (per account), with the cursor that passed them, in one
   * transaction: the cursor is never kept ahead of deliveries it did not make. A row already
   * made (another leader, a look again after a restart) is left as it is: one delivery per event
   * and webhook.
   */
  async enqueueEvents(
    byAccount: ReadonlyMap<string, readonly NewDelivery[]>,
    cursor: EventCursor,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [accountId, rows] of byAccount)
        await scopeTo(trx, accountId)
          .insertInto('webhook_deliveries', rows)
          .onConflict((oc) => oc.columns(['integration_id', 'key']).doNothing())
          .execute();
      await saveCursorIn(trx, cursor);
    });
  }

  async insert(accountId: string, rows: readonly NewDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    await scopeTo(this.db, accountId)
      .insertInto('webhook_deliveries', rows)
      .onConflict((oc) => oc.columns(['integration_id', 'key']).doNothing())
      .execute();
  }

  /** Deliveries due now: waiting ones whose time came, and claims whose lease ran out. */
  due(now: number, limit: number): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'waiting'), eb('next_at', '<=', now)]),
          eb.and([eb('state', '=', 'sending'), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('next_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** The earliest time a waiting delivery is due (undefined: none waits). */
  async nextDue(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_at').as('next'))
      .where('state', '=', 'waiting')
      .executeTakeFirst();
    return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
  }

  /** Claims a due delivery (compare-and-set): true for exactly one caller. */
  async claim(row: DeliveryRow, now: number, leaseUntil: number): Promise<boolean> {
    const result = await scopeTo(this.db, row.account_id)
      .updateTable('webhook_deliveries')
      .set({ state: 'sending', lease_until: leaseUntil })
      .where('id', '=', row.id)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'waiting'), eb('next_at', '<=', now)]),
          eb.and([eb('state', '=', 'sending'), eb('lease_until', '<', now)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Writes a try's outcome onto a delivery this process holds. */
  async settle(
    accountId: string,
    id: string,
    change: Pick<DeliveryRow, 'state' | 'attempts' | 'attempt_log' | 'next_at'>,
  ): Promise<void> {
    await scopeTo(this.db, accountId)
      .updateTable('webhook_deliveries')
      .set({ ...change, lease_until: null })
      .where('id', '=', id)
      .execute();
  }

  /** An integration's log, newest first; with `assetId`, that asset's deliveries only. */
  log(
    accountId: string,
    integrationId: string,
    assetId: string | undefined,
    limit: number,
  ): Promise<DeliveryRow[]> {
    let query = scopeTo(this.db, accountId)
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('integration_id', '=', integrationId);
    if (assetId !== undefined) query = query.where('asset_id', '=', assetId);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** The (account, integration) pairs that have deliveries or a secret. */
  async integrationsWithRows(): Promise<{ account_id: string; integration_id: string }[]> {
    const deliveries = await this.db
      .selectFrom('webhook_deliveries')
      .select(['account_id', 'integration_id'])
      .distinct()
      .execute();
    const secrets = await this.db
      .selectFrom('integration_secrets')
      .select(['account_id', 'integration_id'])
      .execute();
    const seen = new Map<string, { account_id: string; integration_id: string }>();
    for (const row of [...deliveries, ...secrets])
      seen.set(`${row.account_id}/${row.integration_id}`, row);
    return [...seen.values()];
  }

  /** Everything kept for an integration that is gone: its deliveries and its secret. */
  async forget(accountId: string, integrationId: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .deleteFrom('webhook_deliveries')
      .where('integration_id', '=', integrationId)
      .execute();
    await scopeTo(this.db, accountId)
      .deleteFrom('integration_secrets')
      .where('integration_id', '=', integrationId)
      .execute();
  }

  /** Deletes an integration's finished deliveries past the newest `keep`; answers how many. */
  async prune(accountId: string, integrationId: string, keep: number): Promise<number> {
    const old = await scopeTo(this.db, accountId)
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('integration_id', '=', integrationId)
      .where('state', 'in', ['sent', 'failed'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(keep)
      .limit(1_000)
      .execute();
    if (old.length === 0) return 0;
    await scopeTo(this.db, accountId)
      .deleteFrom('webhook_deliveries')
      .where(
        'id',
        'in',
        old.map((r) => r.id),
      )
      .execute();
    return old.length;
  }

  secret(
    accountId: string,
    integrationId: string,
  ): Promise<Selectable<IntegrationSecretsTable> | undefined> {
    return scopeTo(this.db, accountId)
      .selectFrom('integration_secrets')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .executeTakeFirst();
  }

  /** Keeps a new secret; with `replace` false, one already there stays (made by another). */
  async putSecret(
    accountId: string,
    integrationId: string,
    sealed: string,
    now: number,
    replace: boolean,
  ): Promise<void> {
    await scopeTo(this.db, accountId)
      .insertInto('integration_secrets', [
        { integration_id: integrationId, sealed, created_at: now },
      ])
      .onConflict((oc) =>
        replace
          ? oc.columns(['account_id', 'integration_id']).doUpdateSet({ sealed, created_at: now })
          : oc.columns(['account_id', 'integration_id']).doNothing(),
      )
      .execute();
  }
}
