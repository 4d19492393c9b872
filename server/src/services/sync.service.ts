import { z } from 'zod';
import {
  accountModel,
  can,
  roleModel,
  tagModel,
  modelByType,
  type ModelUpdate,
  type SyncedModel,
  type SnapshotFirst,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import { AccountRepository } from '../repositories/account.repository';
import { ThemeResolver } from '../themes/theme-resolver';
import { accountModelOf, memberModels, roleModels, tagModels } from './managed-log';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import { DomainError, forbidden, notFound } from './domain-error';
import { toSyncedModel } from './model-transaction';
import type { Session } from './user.service';
import type { AccessDecision } from './access-decision';
import { answerableAttributes } from '../help/stored-document';

export const MQTTLOGS_PAGE = 1000;
export const SNAPSHOT_DEFAULT_LIMIT = 500;
export const SNAPSHOT_MAX_LIMIT = 2000;
/** The first rows of the list the user looks at, with a bootstrap's first page. */
export const SNAPSHOT_FIRST_ROWS = 200;

/**
 * A snapshot cursor names the account it pages through: after an account switch, a cursor of the
 * old account would page the new account's models against the old account's watermark.
 */
const cursorSchema = z.object({
  a: z.string().max(64),
  t: z.number().int().min(0),
  w: z.object({ ts: z.number().int(), seq: z.number().int() }),
  after: z.string().max(64),
});
type Cursor = z.infer<typeof cursorSchema>;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(cursor: string, accountId: string): Cursor {
  const invalid = () =>
    new DomainError('invalid', 'Invalid cursor.', { fields: { cursor: ['Invalid cursor.'] } });
  let decoded: Cursor;
  try {
    decoded = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw invalid();
  }
  if (decoded.a !== accountId) throw invalid();
  return decoded;
}

/** Reads for the sync engine: missed updates, the bootstrap snapshot, one model's graph. */
export class SyncService {
  constructor(private readonly db: Db) {}

  private account(session: Session): string {
    const id = session.activeAccount?.id;
    if (id === undefined) throw forbidden();
    return id;
  }

  /**
   * Updates after `fromTs`, oldest first, at most MQTTLOGS_PAGE (`more` says there are others).
   * `resync` says the log no longer reaches back to `fromTs` (retention): bootstrap again.
   */
  async missedUpdates(session: Session, fromTs: number) {
    const accountId = this.account(session);
    const log = new ChangeLogRepository(this.db);
    const rows = await log.readFrom(accountId, fromTs, MQTTLOGS_PAGE + 1);
    const oldest = await log.oldest(accountId);
    const clock = await log.clock(accountId);
    // Entries were pruned if the oldest kept is not the first. The newest pruned one is older than
    // the oldest kept, so the client misses something only if it asks from before that.
    const pruned = oldest === undefined ? clock.seq > 0 : oldest.seq > 1;
    const horizon = oldest === undefined ? clock.ts : oldest.ts - 1;
    const resync = pruned && fromTs < horizon;
    const { access } = session;
    const page = rows.slice(0, MQTTLOGS_PAGE);
    // The log holds only messages this server wrote (ModelService); no need to validate again.
    // An update the user may not see (its type, or its asset: DESIGN.md §10) becomes its
    // stand-in, so seq stays gapless; one it sees loses the attributes hidden from it.
    const data = page.map((r) => {
      const msg = JSON.parse(r.msg) as ModelUpdate;
      return { ts: r.ts, msg: access.asSeen(msg) };
    });
    // Where this page of the log ends: the next call asks from `through.ts`.
    const end = page.at(-1);
    const through = end === undefined ? null : { ts: end.ts, seq: end.seq };
    return { data, more: rows.length > MQTTLOGS_PAGE, resync, through };
  }

  /**
   * One page of the account's models. The first page (no cursor) takes the watermark, the
   * account's clock before any model is read; every later page carries it in its cursor. Replaying
   * the log from the watermark over the pages gives the current state (models carry last_seq).
   */
  async snapshot(
    session: Session,
    cursor: string | undefined,
    limit: number,
    first?: SnapshotFirst,
  ) {
    const accountId = this.account(session);
    const start = cursor === undefined ? undefined : decodeCursor(cursor, accountId);
    const watermark = start?.w ?? (await new ChangeLogRepository(this.db).clock(accountId));
    const repo = new ModelRepository(this.db);
    const { access } = session;
    const types = [...access.types];
    const assets = access.assetFilter;
    const rows = await repo.page(accountId, types, start?.after ?? '', limit, assets);
    const last = rows.at(-1);
    const readModels = start === undefined ? await this.readModels(session, accountId) : [];
    const total = start?.t ?? readModels.length + (await repo.count(accountId, types, assets));
    // The list the user looks at, first (issue 13), of a viewable type. Read after the
    // watermark like the page, so the replay from it covers these rows too.
    const firstRows =
      first !== undefined && access.types.has(first.type)
        ? await repo.firstInOrder(accountId, first.type, first.parent, SNAPSHOT_FIRST_ROWS, assets)
        : undefined;
    const shown = (row: ModelRow) => this.shown(access, row);
    return {
      ...(firstRows === undefined ? {} : { first: firstRows.map(shown) }),
      models: [...readModels, ...rows.map(shown)],
      total,
      next_cursor:
        rows.length === limit && last !== undefined
          ? encodeCursor({ a: accountId, t: total, w: watermark, after: last.id })
          : null,
      watermark,
    };
  }

  /**
   * The managed models (models/managed.ts) and the tags, on the first snapshot page: the active
   * account and, with account::view, the accounts below it; the members (user::view, else only
   * oneself); the roles (account::view or user::view); the tags. Their changes are logged as
   * whole states, so replaying the log from the watermark over these ends where the server is.
   */
  private async readModels(session: Session, accountId: string): Promise<SyncedModel[]> {
    const account = session.activeAccount;
    if (account === null) return [];
    const { access } = session;
    const accounts = access.types.has(accountModel.type)
      ? await new AccountRepository(this.db).descendantsForMember(session.user.id, [accountId])
      : [];
    const members = (await memberModels(this.db, accountId)).filter(
      (m) => access.types.has(m.type) || access.seesItself(m.type, m.id),
    );
    const roles = access.types.has(roleModel.type)
      ? (await roleModels(this.db, accountId)).map((r) => ({
          ...r,
          attributes: access.project(r.type, r.attributes),
        }))
      : [];
    const tags = access.types.has(tagModel.type) ? await tagModels(this.db, accountId) : [];
    const themes = new ThemeResolver(this.db);
    return [
      await accountModelOf(account, accountId, themes),
      ...(await Promise.all(accounts.map((a) => accountModelOf(a, accountId, themes)))),
      ...members,
      ...roles,
      ...tags,
    ];
  }

  /** A model and everything under it (an asset's groups and streams), as far as the user may see. */
  async graph(session: Session, type: string, id: string) {
    const accountId = this.account(session);
    const { access } = session;
    const def = modelByType(type);
    if (def === undefined || !can(session.ctx, def.permissions.view)) throw notFound('Model');
    const models = new ModelRepository(this.db);
    const root = await models.find(accountId, type, id);
    // A model of an asset the user may not see is as unknown as one that does not exist.
    if (root === undefined || !access.seesStored(root)) {
      throw notFound('Model');
    }
    const children: SyncedModel[] = [];
    const visit = async (row: ModelRow, depth: number) => {
      if (depth > 4) return;
      for (const child of await models.children(accountId, row.type, row.id)) {
        if (!access.seesStored(child)) continue;
        children.push(this.shown(access, child));
        await visit(child, depth + 1);
      }
    };
    await visit(root, 0);
    return { model: this.shown(access, root), children };
  }

  /** A stored model as this user may see it: without the attributes hidden from its roles. */
  private shown(access: AccessDecision, row: ModelRow): SyncedModel {
    const model = toSyncedModel(row);
    const attributes = answerableAttributes(row.type, row.attributes, model.attributes);
    return { ...model, attributes: access.project(row.type, attributes) };
  }
}
