import {
  compareVersions,
  INSIGHT_CHECK_IDS,
  INSIGHT_LIMITS,
  OTHERS_KEY,
  ROLE_SLUGS,
  type InsightCheckId,
  type InsightItem,
  type InsightReason,
  type InsightSeverity,
} from '@plant/shared-schema';
import type { EventCountRow } from './security-events.repository';
import type { MemberFact, TokenFact } from './insight-facts.repository';
import { dayOf, EVENT_KINDS } from './security-events';

/*
 * The checks of security insights (issue 38 item 1): pure functions of the facts read for one
 * account at one moment. Evaluated on every read of the overview (and by the leader's daily
 * snapshot and weekly digest), so a fix shows at the next read: a revoked token, a member with a
 * second factor, an agent updated. Events (refusals, knocks) reach the facts through the counters
 * the recorder writes every INSIGHTS_EVENTS_MS.
 */

const DAY_MS = 86_400_000;

export interface GatewayFact {
  readonly id: string;
  readonly name: string;
  /** What its agent reported last; null: never reported. */
  readonly agentVersion: string | null;
}

export interface ConnectionFact {
  readonly id: string;
  readonly name: string;
  readonly gatewayId: string;
}

export interface InsightFacts {
  readonly now: number;
  readonly members: readonly MemberFact[];
  readonly tokens: readonly TokenFact[];
  readonly gateways: readonly GatewayFact[];
  /** The highest version among the account's active agent releases; null: none active. */
  readonly activeAgent: string | null;
  /** Enabled OPC UA connections whose security mode is None. */
  readonly insecureConnections: readonly ConnectionFact[];
  /** The counters of the last days (at least INSIGHT_LIMITS.knockDays). */
  readonly counts: readonly EventCountRow[];
}

/** An item with the gateway it is about (the viewer's filter), which the answer leaves out. */
export interface CheckItem extends InsightItem {
  readonly gateway?: string;
}

export interface CheckResult {
  readonly id: InsightCheckId;
  readonly failing: boolean;
  readonly count: number;
  readonly severity: InsightSeverity;
  /** Every failing item, in the order shown. */
  readonly items: readonly CheckItem[];
}

export const SEVERITY: Readonly<Record<InsightCheckId, InsightSeverity>> = {
  second_factor: 'high',
  inactive_members: 'medium',
  admins: 'medium',
  tokens: 'medium',
  gateway_agents: 'medium',
  revoked_keys: 'high',
  opcua_security: 'high',
  signin_refusals: 'high',
  broker_refusals: 'medium',
};

const item = (
  type: InsightItem['type'],
  id: string,
  name: string,
  reasons: InsightReason[],
  extra: Partial<Pick<CheckItem, 'count' | 'at' | 'detail' | 'gateway'>> = {},
): CheckItem => ({
  type,
  id,
  name,
  reasons,
  count: extra.count ?? null,
  at: extra.at ?? null,
  detail: extra.detail ?? null,
  ...(extra.gateway === undefined ? {} : { gateway: extra.gateway }),
});

const isAdmin = (m: MemberFact) => m.slugs.includes(ROLE_SLUGS.admin);
/** A member whose only roles are norole cannot sign in: it has no factor or activity to weigh. */
const maySignIn = (m: MemberFact) => m.slugs.some((s) => s !== ROLE_SLUGS.norole);
const byName = (a: MemberFact, b: MemberFact) => a.name.localeCompare(b.name);

function result(id: InsightCheckId, items: CheckItem[], count = items.length): CheckResult {
  return { id, failing: items.length > 0, count, severity: SEVERITY[id], items };
}

function secondFactor(f: InsightFacts): CheckResult {
  const without = f.members.filter((m) => maySignIn(m) && !m.secondFactor);
  // Admins first: theirs is the account's widest door.
  const ordered = [
    ...without.filter(isAdmin).sort(byName),
    ...without.filter((m) => !isAdmin(m)).sort(byName),
  ];
  return result(
    'second_factor',
    ordered.map((m) =>
      item(
        'member',
        m.userId,
        m.name,
        isAdmin(m) ? ['admin', 'no_second_factor'] : ['no_second_factor'],
        {
          detail: m.email,
        },
      ),
    ),
  );
}

function inactiveMembers(f: InsightFacts): CheckResult {
  const since = f.now - INSIGHT_LIMITS.inactiveDays * DAY_MS;
  const inactive = f.members.filter(
    (m) => maySignIn(m) && m.joinedAt < since && (m.lastActive === null || m.lastActive < since),
  );
  return result(
    'inactive_members',
    inactive
      .sort((a, b) => (a.lastActive ?? 0) - (b.lastActive ?? 0) || byName(a, b))
      .map((m) =>
        item('member', m.userId, m.name, isAdmin(m) ? ['admin', 'inactive'] : ['inactive'], {
          at: m.lastActive,
          detail: m.email,
        }),
      ),
  );
}

function admins(f: InsightFacts): CheckResult {
  const list = f.members.filter(isAdmin).sort(byName);
  const failing = list.length > INSIGHT_LIMITS.adminsMax;
  return {
    id: 'admins',
    failing,
    count: list.length,
    severity: SEVERITY.admins,
    items: failing
      ? list.map((m) =>
          item(
            'member',
            m.userId,
            m.name,
            m.secondFactor ? ['admin'] : ['admin', 'no_second_factor'],
            {
              at: m.lastActive,
              detail: m.email,
            },
          ),
        )
      : [],
  };
}

function tokens(f: InsightFacts): CheckResult {
  const old = f.now - INSIGHT_LIMITS.tokenDays * DAY_MS;
  // A token made without an expiry of its own gets the longest one may have (an hour's slack:
  // the expiry is counted from the moment it was made).
  const noExpiry = INSIGHT_LIMITS.tokenNoExpiryDays * DAY_MS - 3_600_000;
  const flagged: CheckItem[] = [];
  for (const t of [...f.tokens].sort((a, b) => a.createdAt - b.createdAt)) {
    const reasons: InsightReason[] = [];
    if (t.expiresAt - t.createdAt >= noExpiry) reasons.push('no_expiry');
    if (t.createdAt < old) reasons.push('old');
    if ((t.lastUsed ?? t.createdAt) < old) reasons.push('unused');
    if (reasons.length > 0)
      flagged.push(item('token', t.id, t.name, reasons, { at: t.lastUsed, detail: t.owner }));
  }
  return result('tokens', flagged);
}

function gatewayAgents(f: InsightFacts): CheckResult {
  const active = f.activeAgent;
  if (active === null) return result('gateway_agents', []);
  const behind = f.gateways.filter(
    (g) => g.agentVersion !== null && compareVersions(g.agentVersion, active) < 0,
  );
  return result(
    'gateway_agents',
    behind
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((g) =>
        item('gateway', g.id, g.name, ['behind'], { detail: g.agentVersion, gateway: g.id }),
      ),
  );
}

/** Sums of a kind's keys of one dimension over the given days, biggest first. */
function keySums(
  counts: readonly EventCountRow[],
  kind: string,
  dim: string,
  days: ReadonlySet<string>,
): { key: string; count: number; lastDay: string }[] {
  const sums = new Map<string, { count: number; lastDay: string }>();
  for (const r of counts) {
    if (r.kind !== kind || r.dim !== dim || !days.has(r.day)) continue;
    const had = sums.get(r.key);
    sums.set(r.key, {
      count: (had?.count ?? 0) + r.count,
      lastDay: had === undefined || r.day > had.lastDay ? r.day : had.lastDay,
    });
  }
  return [...sums]
    .map(([key, s]) => ({ key, ...s }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** The UTC days from `n - 1` days ago to today. */
export function lastDays(now: number, n: number): Set<string> {
  const days = new Set<string>();
  for (let i = 0; i < n; i++) days.add(dayOf(now - i * DAY_MS));
  return days;
}

function revokedKeys(f: InsightFacts): CheckResult {
  const names = new Map(f.gateways.map((g) => [g.id, g.name]));
  const knocks = keySums(
    f.counts,
    EVENT_KINDS.revokedKey,
    'gateway',
    lastDays(f.now, INSIGHT_LIMITS.knockDays),
  );
  return result(
    'revoked_keys',
    knocks
      .filter((k) => k.key !== OTHERS_KEY)
      .map((k) =>
        item('gateway', k.key, names.get(k.key) ?? k.key, ['revoked_key'], {
          count: k.count,
          at: Date.parse(`${k.lastDay}T00:00:00Z`),
          gateway: k.key,
        }),
      ),
  );
}

function opcuaSecurity(f: InsightFacts): CheckResult {
  const names = new Map(f.gateways.map((g) => [g.id, g.name]));
  return result(
    'opcua_security',
    [...f.insecureConnections]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((c) =>
        item('connection', c.id, c.name, ['no_security'], {
          detail: names.get(c.gatewayId) ?? c.gatewayId,
          gateway: c.gatewayId,
        }),
      ),
  );
}

/** Today's and yesterday's totals of a kind: a refusal check looks at the last day or two. */
function recentTotals(f: InsightFacts, kind: string): { today: number; yesterday: number } {
  const today = dayOf(f.now);
  const yesterday = dayOf(f.now - DAY_MS);
  let t = 0;
  let y = 0;
  for (const r of f.counts) {
    if (r.kind !== kind || r.dim !== '') continue;
    if (r.day === today) t += r.count;
    if (r.day === yesterday) y += r.count;
  }
  return { today: t, yesterday: y };
}

function signInRefusals(f: InsightFacts): CheckResult {
  const { today, yesterday } = recentTotals(f, EVENT_KINDS.signinFailed);
  const failing = Math.max(today, yesterday) >= INSIGHT_LIMITS.refusalsPerDay;
  const days = lastDays(f.now, 2);
  const emails = new Map(f.members.map((m) => [m.userId, m.email]));
  const items = failing
    ? [
        ...keySums(f.counts, EVENT_KINDS.signinFailed, 'address', days).map((k) =>
          item('address', k.key, k.key, ['refused'], { count: k.count }),
        ),
        ...keySums(f.counts, EVENT_KINDS.signinFailed, 'user', days).map((k) =>
          item('user', k.key, emails.get(k.key) ?? k.key, ['refused'], { count: k.count }),
        ),
      ]
    : [];
  return {
    id: 'signin_refusals',
    failing,
    count: today + yesterday,
    severity: SEVERITY.signin_refusals,
    items,
  };
}

function brokerRefusals(f: InsightFacts): CheckResult {
  const { today, yesterday } = recentTotals(f, EVENT_KINDS.brokerRefused);
  const failing = Math.max(today, yesterday) >= INSIGHT_LIMITS.refusalsPerDay;
  const names = new Map(f.gateways.map((g) => [g.id, g.name]));
  const emails = new Map(f.members.map((m) => [m.userId, m.email]));
  const items = failing
    ? keySums(f.counts, EVENT_KINDS.brokerRefused, 'client', lastDays(f.now, 2)).map((k) => {
        if (k.key.startsWith('gateway:')) {
          const id = k.key.slice('gateway:'.length);
          return item('gateway', id, names.get(id) ?? id, ['refused'], {
            count: k.count,
            gateway: id,
          });
        }
        const id = k.key.startsWith('user:') ? k.key.slice('user:'.length) : k.key;
        return item('user', id, emails.get(id) ?? id, ['refused'], { count: k.count });
      })
    : [];
  return {
    id: 'broker_refusals',
    failing,
    count: today + yesterday,
    severity: SEVERITY.broker_refusals,
    items,
  };
}

const CHECKS: Readonly<Record<InsightCheckId, (f: InsightFacts) => CheckResult>> = {
  second_factor: secondFactor,
  inactive_members: inactiveMembers,
  admins,
  tokens,
  gateway_agents: gatewayAgents,
  revoked_keys: revokedKeys,
  opcua_security: opcuaSecurity,
  signin_refusals: signInRefusals,
  broker_refusals: brokerRefusals,
};

/** Every check over the facts, in the overview's order. */
export function evaluateChecks(facts: InsightFacts): CheckResult[] {
  return INSIGHT_CHECK_IDS.map((id) => CHECKS[id](facts));
}
