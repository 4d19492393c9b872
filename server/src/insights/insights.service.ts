import {
  ASSET_BOUND_CHECKS,
  assetModel,
  can,
  connectionModel,
  gatewayModel,
  INSIGHT_CHECK_IDS,
  INSIGHT_LIMITS,
  OTHERS_KEY,
  releaseModel,
  SECURITY_INSIGHTS_TEXTS,
  compareVersions,
  type AssetAttributes,
  type ConnectionAttributes,
  type GatewayAttributes,
  type InsightCheck,
  type InsightCheckId,
  type InsightDismiss,
  type InsightDismissal,
  type InsightItem,
  type InsightState,
  type InsightTrendDay,
  type ReleaseAttributes,
  type SecurityInsights,
  type SecurityThreats,
  type ThreatDay,
  type ThreatTop,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import type { Logger } from '../logger';
import { DomainError, forbidden, invalidInput } from '../services/domain-error';
import type { Session } from '../services/session';
import {
  evaluateChecks,
  lastDays,
  type CheckItem,
  type CheckResult,
  type InsightFacts,
} from './checks';
import { InsightFactsRepository } from './insight-facts.repository';
import { InsightsRepository, type DismissalRow, type SnapshotCheck } from './insights.repository';
import { dayOf, EVENT_KINDS } from './security-events';
import { SecurityEventsRepository, type EventCountRow } from './security-events.repository';

const DAY_MS = 86_400_000;
export const INSIGHTS_PERMISSION = 'security-insights::view';
/**
 * Dismissing a check (and taking a dismissal back) needs account::edit besides the view: it
 * changes what the whole account is told about its security, as the account's other settings
 * (alarm settings, value retention, the second-factor rule) do, which account::edit guards.
 * Admins hold it; a role made to read the insights (a security officer's) does not by itself.
 */
export const DISMISS_PERMISSION = 'account::edit';

/** One evaluation of an account's checks. */
export interface Evaluation {
  readonly takenAt: number;
  readonly results: readonly CheckResult[];
  readonly facts: InsightFacts;
}

/** Which gateways the viewer may see in items (by the assets it sees, DESIGN.md §10). */
type GatewaySight = (gatewayId: string) => boolean;

function stateOf(result: CheckResult, dismissed: boolean): InsightState {
  if (!result.failing) return 'passing';
  return dismissed ? 'dismissed' : 'failing';
}

/** The answer's item: without the gateway it was filtered by. */
const shown = (item: CheckItem): InsightItem => ({
  type: item.type,
  id: item.id,
  name: item.name,
  reasons: item.reasons,
  count: item.count,
  at: item.at,
  detail: item.detail,
});

/**
 * Security insights of the active account (issue 38 item 1): the checks evaluated on each read
 * (cheap: a few queries of one account), each item only when the viewer may see it, dismissals,
 * the trend from the leader's daily snapshots, and the threat overview from the event counters.
 */
export class InsightsService {
  private readonly facts: InsightFactsRepository;
  private readonly repo: InsightsRepository;
  private readonly events: SecurityEventsRepository;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.facts = new InsightFactsRepository(db);
    this.repo = new InsightsRepository(db);
    this.events = new SecurityEventsRepository(db);
  }

  /** Every check of the account now (the routes, the leader's snapshot and digest). */
  async evaluate(accountId: string): Promise<Evaluation> {
    const now = this.clock.now();
    const [members, tokens, models, counts] = await Promise.all([
      this.facts.members(accountId),
      this.facts.tokens(accountId, isoAt(now)),
      this.facts.modelsOf(accountId, [gatewayModel.type, connectionModel.type, releaseModel.type]),
      this.events.since(accountId, dayOf(now - (INSIGHT_LIMITS.knockDays - 1) * DAY_MS)),
    ]);
    const gateways = [];
    const insecureConnections = [];
    let activeAgent: string | null = null;
    for (const row of models) {
      if (row.type === gatewayModel.type) {
        const a = JSON.parse(row.attributes) as GatewayAttributes;
        gateways.push({ id: row.id, name: a.name, agentVersion: a.agent?.version ?? null });
      } else if (row.type === connectionModel.type) {
        const a = JSON.parse(row.attributes) as ConnectionAttributes;
        const mode = (a.settings as { security_mode?: unknown }).security_mode;
        if (a.protocol === 'opcua' && a.enabled && (mode === undefined || mode === 'none'))
          insecureConnections.push({ id: row.id, name: a.name, gatewayId: a.gateway_id });
      } else {
        const a = JSON.parse(row.attributes) as ReleaseAttributes;
        if (a.target === 'agent' && a.state === 'active') {
          if (activeAgent === null || compareVersions(a.version, activeAgent) > 0)
            activeAgent = a.version;
        }
      }
    }
    const facts: InsightFacts = {
      now,
      members,
      tokens,
      gateways,
      activeAgent,
      insecureConnections,
      counts,
    };
    return { takenAt: now, results: evaluateChecks(facts), facts };
  }

  /** GET security-insights. */
  async overview(session: Session): Promise<SecurityInsights> {
    const accountId = this.viewable(session);
    const evaluation = await this.evaluate(accountId);
    const now = evaluation.takenAt;
    const dismissals = new Map(
      (await this.repo.liveDismissals(accountId, now)).map((d) => [d.check_id, d]),
    );
    const names = await this.repo.namesOf([
      ...new Set([...dismissals.values()].map((d) => d.by_user)),
    ]);
    const sees = await this.gatewaySight(session, accountId);
    const checks = evaluation.results.map((r) => this.asSeen(r, dismissals.get(r.id), names, sees));
    const whole = session.access.allAssets && session.access.types.has(gatewayModel.type);
    const trend = await this.trend(accountId, evaluation, dismissals, whole);
    return { taken_at: now, checks, trend, may_dismiss: can(session.ctx, DISMISS_PERMISSION) };
  }

  /** A check as this viewer sees it: its asset-bound items filtered, its state and count with them. */
  private asSeen(
    r: CheckResult,
    dismissal: DismissalRow | undefined,
    names: ReadonlyMap<string, string>,
    sees: GatewaySight,
  ): InsightCheck {
    const items = r.items.filter((i) => i.gateway === undefined || sees(i.gateway));
    const seen = ASSET_BOUND_CHECKS.has(r.id)
      ? { ...r, failing: items.length > 0, count: items.length }
      : r;
    return {
      id: r.id,
      state: stateOf(seen, dismissal !== undefined),
      count: seen.count,
      severity: r.severity,
      items: items.slice(0, INSIGHT_LIMITS.itemsMax).map(shown),
      dismissal:
        dismissal === undefined
          ? null
          : {
              reason: dismissal.reason,
              expires_at: dismissal.expires_at,
              by: names.get(dismissal.by_user) ?? null,
              at: dismissal.at,
            },
    };
  }

  /**
   * The last INSIGHT_LIMITS.historyDays days: the daily snapshots, today's from this evaluation.
   * A viewer who does not see every asset gets no figures of the asset-bound checks (they were
   * taken over every gateway).
   */
  private async trend(
    accountId: string,
    evaluation: Evaluation,
    dismissals: ReadonlyMap<string, DismissalRow>,
    whole: boolean,
  ): Promise<InsightTrendDay[]> {
    const today = dayOf(evaluation.takenAt);
    const from = dayOf(evaluation.takenAt - (INSIGHT_LIMITS.historyDays - 1) * DAY_MS);
    const days = (await this.repo.snapshots(accountId, from)).filter((s) => s.day !== today);
    days.push({ day: today, checks: snapshotOf(evaluation.results, dismissals) });
    return days.map((s) => {
      const counts: Record<string, number> = {};
      let failing = 0;
      for (const id of INSIGHT_CHECK_IDS) {
        const check = s.checks[id];
        if (check === undefined || (!whole && ASSET_BOUND_CHECKS.has(id))) continue;
        counts[id] = check.count;
        if (check.state === 'failing') failing += 1;
      }
      return { day: s.day, failing, counts };
    });
  }

  /** GET security-insights/threats: the counters of the period, per day and their top keys. */
  async threats(session: Session, days: number): Promise<SecurityThreats> {
    const accountId = this.viewable(session);
    const now = this.clock.now();
    const period = [...lastDays(now, days)].sort();
    const rows = await this.events.since(accountId, period[0] ?? dayOf(now));
    const series: ThreatDay[] = period.map((day) => ({
      day,
      signin_failed: 0,
      rate_limited: 0,
      broker_refused: 0,
      csp_reports: 0,
    }));
    const byDay = new Map(series.map((d) => [d.day, d]));
    const field = {
      [EVENT_KINDS.signinFailed]: 'signin_failed',
      [EVENT_KINDS.rateLimited]: 'rate_limited',
      [EVENT_KINDS.brokerRefused]: 'broker_refused',
      [EVENT_KINDS.csp]: 'csp_reports',
    } as const satisfies Record<string, keyof Omit<ThreatDay, 'day'>>;
    for (const r of rows) {
      if (r.dim !== '') continue;
      const day = byDay.get(r.day);
      const name = (field as Record<string, keyof Omit<ThreatDay, 'day'> | undefined>)[r.kind];
      if (day !== undefined && name !== undefined) day[name] += r.count;
    }
    const sees = await this.gatewaySight(session, accountId);
    const users = top(rows, EVENT_KINDS.signinFailed, 'user');
    const clients = top(rows, EVENT_KINDS.brokerRefused, 'client');
    const gatewayNames = await this.gatewayNames(accountId);
    const emails = await this.facts.emailsOf(accountId, [
      ...users.map((u) => u.key),
      ...clients.filter((c) => c.key.startsWith('user:')).map((c) => c.key.slice(5)),
    ]);
    return {
      taken_at: now,
      days,
      series,
      signin_by_address: cut(top(rows, EVENT_KINDS.signinFailed, 'address')),
      signin_by_user: cut(users.map((u) => ({ ...u, name: emails.get(u.key) ?? null }))),
      rate_limited_by_address: cut(top(rows, EVENT_KINDS.rateLimited, 'address')),
      broker_by_client: cut(
        foldHidden(
          clients.map((c) => {
            if (c.key.startsWith('gateway:')) {
              const id = c.key.slice('gateway:'.length);
              return { ...c, name: gatewayNames.get(id) ?? null, hidden: !sees(id) };
            }
            return { ...c, name: emails.get(c.key.slice('user:'.length)) ?? null, hidden: false };
          }),
        ),
      ),
      csp_by_directive: cut(top(rows, EVENT_KINDS.csp, 'directive')),
    };
  }

  /** POST security-insights/checks/{id}/dismissal. */
  async dismiss(
    session: Session,
    checkId: InsightCheckId,
    body: InsightDismiss,
  ): Promise<InsightDismissal> {
    const accountId = this.dismissable(session);
    const now = this.clock.now();
    if (body.expires_at <= now || body.expires_at > now + INSIGHT_LIMITS.dismissMaxDays * DAY_MS)
      throw invalidInput({ expires_at: [SECURITY_INSIGHTS_TEXTS.expiryInvalid] });
    const row: DismissalRow = {
      check_id: checkId,
      reason: body.reason,
      expires_at: body.expires_at,
      by_user: session.user.id,
      at: now,
    };
    await this.repo.dismiss(accountId, row);
    this.log.info('security insight dismissed', {
      account: accountId,
      check: checkId,
      by: session.user.id,
      until: isoAt(body.expires_at),
    });
    const name = `${session.user.firstname} ${session.user.lastname}`.trim();
    return { reason: row.reason, expires_at: row.expires_at, by: name, at: now };
  }

  /** DELETE security-insights/checks/{id}/dismissal. */
  async restore(session: Session, checkId: InsightCheckId): Promise<void> {
    const accountId = this.dismissable(session);
    const now = this.clock.now();
    if (!(await this.repo.restore(accountId, checkId, session.user.id, now)))
      throw new DomainError('not_found', SECURITY_INSIGHTS_TEXTS.notDismissed);
    this.log.info('security insight dismissal taken back', {
      account: accountId,
      check: checkId,
      by: session.user.id,
    });
  }

  /** A day's snapshot of the account (the leader's, once a day): every check's state and count. */
  async snapshot(accountId: string): Promise<Evaluation> {
    const evaluation = await this.evaluate(accountId);
    const dismissals = new Map(
      (await this.repo.liveDismissals(accountId, evaluation.takenAt)).map((d) => [d.check_id, d]),
    );
    await this.repo.saveSnapshot(
      accountId,
      dayOf(evaluation.takenAt),
      snapshotOf(evaluation.results, dismissals),
      evaluation.takenAt,
    );
    return evaluation;
  }

  /** The active account, when the viewer may read its insights. */
  private viewable(session: Session): string {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, INSIGHTS_PERMISSION)) throw forbidden();
    return accountId;
  }

  private dismissable(session: Session): string {
    const accountId = this.viewable(session);
    if (!can(session.ctx, DISMISS_PERMISSION))
      throw forbidden(SECURITY_INSIGHTS_TEXTS.dismissForbidden);
    return accountId;
  }

  /**
   * The gateways the viewer may see: with the gateways' view, every one when it sees every
   * asset, else those of the assets it sees (an asset names its gateway).
   */
  private async gatewaySight(session: Session, accountId: string): Promise<GatewaySight> {
    const access = session.access;
    if (!access.types.has(gatewayModel.type)) return () => false;
    if (access.allAssets) return () => true;
    const assets = await this.facts.modelsOf(accountId, [assetModel.type]);
    const seen = new Set<string>();
    for (const row of assets) {
      if (!access.seesAsset(row.id)) continue;
      const gatewayId = (JSON.parse(row.attributes) as AssetAttributes).gateway_id;
      if (gatewayId !== null) seen.add(gatewayId);
    }
    return (id) => seen.has(id);
  }

  private async gatewayNames(accountId: string): Promise<Map<string, string>> {
    const rows = await this.facts.modelsOf(accountId, [gatewayModel.type]);
    return new Map(rows.map((r) => [r.id, (JSON.parse(r.attributes) as GatewayAttributes).name]));
  }
}

/** The checks as a snapshot keeps them. */
function snapshotOf(
  results: readonly CheckResult[],
  dismissals: ReadonlyMap<string, unknown>,
): Record<string, SnapshotCheck> {
  return Object.fromEntries(
    results.map((r) => [r.id, { state: stateOf(r, dismissals.has(r.id)), count: r.count }]),
  );
}

/** A kind's keys of one dimension summed over the rows' days, biggest first. */
function top(rows: readonly EventCountRow[], kind: string, dim: string): ThreatTop[] {
  const sums = new Map<string, number>();
  for (const r of rows)
    if (r.kind === kind && r.dim === dim) sums.set(r.key, (sums.get(r.key) ?? 0) + r.count);
  return [...sums]
    .map(([key, count]) => ({ key, name: null, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** Entries of gateways the viewer may not see go into the others. */
function foldHidden(entries: readonly (ThreatTop & { hidden: boolean })[]): ThreatTop[] {
  let others = 0;
  const out: ThreatTop[] = [];
  for (const { hidden, ...entry } of entries) {
    if (hidden || entry.key === OTHERS_KEY) others += entry.count;
    else out.push(entry);
  }
  if (others > 0) out.push({ key: OTHERS_KEY, name: null, count: others });
  return out;
}

/** At most INSIGHT_LIMITS.topKeys entries, the rest (and OTHERS_KEY) summed last. */
function cut(entries: readonly ThreatTop[]): ThreatTop[] {
  const named = entries.filter((e) => e.key !== OTHERS_KEY);
  const rest =
    named.slice(INSIGHT_LIMITS.topKeys).reduce((n, e) => n + e.count, 0) +
    entries.filter((e) => e.key === OTHERS_KEY).reduce((n, e) => n + e.count, 0);
  const kept = named.slice(0, INSIGHT_LIMITS.topKeys);
  return rest > 0 ? [...kept, { key: OTHERS_KEY, name: null, count: rest }] : kept;
}
