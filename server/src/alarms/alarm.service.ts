import {
  ALARM_SEVERITIES,
  alarmEventSchema,
  ALARM_SETTINGS_PERMISSION,
  type AlarmSettings,
  alarmModel,
  can,
  type AlarmAttributes,
  type AlarmEvent,
  type AlarmHistoryPage,
  type AlarmHistoryQuery,
  type NotificationTrigger,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { AlarmEventsTable } from '../db/types';
import { AlarmRepository } from '../repositories/alarm.repository';
import { ModelRepository } from '../repositories/model.repository';
import { forbidden, notFound } from '../services/domain-error';
import type { Session } from '../services/user.service';

/** The columns of an event that the history shows. */
type EventRow = Pick<
  AlarmEventsTable,
  'id' | 'alarm_id' | 'asset_id' | 'kind' | 'ts' | 'value' | 'count' | 'by_user' | 'note'
>;

function toEvent(row: EventRow): AlarmEvent {
  return {
    id: row.id,
    alarm_id: row.alarm_id,
    asset_id: row.asset_id,
    kind: alarmEventSchema.shape.kind.parse(row.kind),
    ts: Number(row.ts),
    value: row.value,
    count: row.count,
    by_user: row.by_user,
    note: row.note,
  };
}

/** The active account of a session that may view alarms. */
function alarmAccount(session: Session): string {
  const accountId = session.activeAccount?.id;
  if (accountId === undefined || !can(session.ctx, alarmModel.permissions.view)) throw forbidden();
  return accountId;
}

/** A page of rows (newest first) as the caller may see them, and where the next page starts. */
function page(session: Session, rows: readonly EventRow[], limit: number): AlarmHistoryPage {
  const last = rows[rows.length - 1];
  return {
    events: rows.filter((r) => session.access.seesModel(alarmModel.type, r.asset_id)).map(toEvent),
    // A full page may have more behind it; the next one starts before its oldest.
    before: rows.length === limit && last !== undefined ? Number(last.ts) : null,
  };
}

const rank = (s: string) => ALARM_SEVERITIES.indexOf(s as (typeof ALARM_SEVERITIES)[number]);

/**
 * Alarm history and what wants attention (issue 17 items 2 and 6). The alarms themselves, with
 * their status, are synced models; their history (raised, cleared, acknowledged) is kept by the
 * server and read here, each event only for who sees its asset.
 */
export class AlarmService {
  constructor(private readonly db: Db) {}

  /** One alarm's history, newest first; an alarm the caller does not see is not found. */
  async alarmHistory(
    session: Session,
    alarmId: string,
    q: Omit<AlarmHistoryQuery, 'asset_id'>,
  ): Promise<AlarmHistoryPage> {
    const accountId = alarmAccount(session);
    const alarm = await new ModelRepository(this.db).find(accountId, alarmModel.type, alarmId);
    if (alarm === undefined || !session.access.seesModel(alarmModel.type, alarm.asset_id))
      throw notFound('Alarm');
    const rows = await new AlarmRepository(this.db).history(accountId, {
      alarmId,
      ...(q.before === undefined ? {} : { before: q.before }),
      limit: q.limit,
    });
    return page(session, rows, q.limit);
  }

  /** The active account's history, or one asset's, newest first. */
  async accountHistory(session: Session, q: AlarmHistoryQuery): Promise<AlarmHistoryPage> {
    const accountId = alarmAccount(session);
    if (q.asset_id !== undefined && !session.access.seesAsset(q.asset_id)) throw notFound('Asset');
    const rows = await new AlarmRepository(this.db).history(accountId, {
      ...(q.asset_id === undefined ? {} : { assetId: q.asset_id }),
      ...(q.before === undefined ? {} : { before: q.before }),
      limit: q.limit,
    });
    return page(session, rows, q.limit);
  }

  /** The active account's alarm settings (any member that may view alarms reads them). */
  async settings(session: Session): Promise<AlarmSettings> {
    const accountId = alarmAccount(session);
    const row = await this.db
      .selectFrom('accounts')
      .select('alarm_critical_override')
      .where('id', '=', accountId)
      .executeTakeFirst();
    return { critical_overrides_window: row?.alarm_critical_override === 1 };
  }

  /** Changes them (account::edit). */
  async setSettings(session: Session, settings: AlarmSettings): Promise<AlarmSettings> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, ALARM_SETTINGS_PERMISSION)) throw forbidden();
    await this.db
      .updateTable('accounts')
      .set({ alarm_critical_override: settings.critical_overrides_window ? 1 : 0 })
      .where('id', '=', accountId)
      .execute();
    return settings;
  }

  /**
   * GET user/{id}/notificationtrigger: the active, unacknowledged alarms the user sees in its
   * active account, worst first, then oldest first. Another user's is not found.
   */
  async trigger(session: Session, userId: string): Promise<NotificationTrigger> {
    if (userId !== session.user.id) throw notFound('User');
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, alarmModel.permissions.view))
      return { count: 0, alarms: [] };
    const alarms: NotificationTrigger['alarms'] = [];
    const rows = await new ModelRepository(this.db).allOfTypes(accountId, [alarmModel.type]);
    for (const row of rows) {
      if (!session.access.seesModel(alarmModel.type, row.asset_id)) continue;
      const a = JSON.parse(row.attributes) as AlarmAttributes;
      const s = a.status;
      if (!a.enabled || s === null || s.state !== 'active' || s.acknowledged) continue;
      alarms.push({
        id: row.id,
        name: a.name,
        asset_id: a.asset_id,
        severity: a.severity,
        state: s.state,
        since: s.since,
        count: s.count,
      });
    }
    alarms.sort((a, b) => rank(b.severity) - rank(a.severity) || (a.since ?? 0) - (b.since ?? 0));
    return { count: alarms.length, alarms };
  }
}
