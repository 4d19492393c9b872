import { isManaged, modelByType, type SyncedModel } from '@plant/shared-schema';
import type { ReadPoint } from './fault-agent';
import type { FaultServer, LoggedUpdate } from './fault-server';
import type { StoredState } from './fault-tab';
import type { LogMark, TabWorkload } from './fault-workload';

/**
 * The fault suite's checks after a run (issue 38 item 4), each answering its problems as lines
 * (empty: it holds), so a failure says every problem at once:
 * - `storeProblems`: a tab's store equals the server's snapshot for its user (same models, same
 *   `last_seq`, same attributes, nothing pending) and stands at the account's clock;
 * - `writeProblems`: every write a tab made is in the change log exactly once, applied (its
 *   mutation id recorded), and the server holds its last value; deleted models are gone; files
 *   are whole; acknowledged alarms say so;
 * - `pointProblems`: every point the agent read is stored once with its value, and the rollups
 *   count each stored point once.
 */

/** JSON with sorted keys: two values are equal when their texts are. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );
}

const MAX_LINES = 12;

function capped(lines: string[]): string[] {
  return lines.length <= MAX_LINES
    ? lines
    : [...lines.slice(0, MAX_LINES), `… and ${lines.length - MAX_LINES} more`];
}

function managed(type: string): boolean {
  const def = modelByType(type);
  return def !== undefined && isManaged(def);
}

export function storeProblems(
  stored: StoredState,
  snapshot: readonly SyncedModel[],
  clock: number,
): string[] {
  const problems: string[] = [];
  if (stored.lastSeq !== clock) problems.push(`store at seq ${stored.lastSeq}, server at ${clock}`);
  const server = new Map(snapshot.map((m) => [`${m.type}:${m.id}`, m]));
  const local = new Map(stored.docs.map((d) => [`${d.type}:${d.id}`, d]));
  for (const [key, m] of server) {
    const doc = local.get(key);
    if (doc === undefined) problems.push(`${key}: on the server, not in the store`);
    else if (doc.server === null) problems.push(`${key}: in the store without the server's state`);
    // A managed model (roles, members, accounts) is read from its own tables: its snapshot says
    // last_seq 0 (services/managed-log.ts), the store the seq of the update it applied last.
    else if (doc.last_seq !== m.last_seq && !managed(m.type))
      problems.push(`${key}: last_seq ${doc.last_seq} in the store, ${m.last_seq} on the server`);
    else if (canonical(doc.server) !== canonical(m.attributes))
      problems.push(
        `${key}: attributes differ:\n  store  ${canonical(doc.server)}\n  server ${canonical(m.attributes)}`,
      );
    else if (canonical(doc.attributes) !== canonical(doc.server))
      problems.push(`${key}: a local change still shows over the server's state`);
  }
  for (const [key, doc] of local) {
    if (!server.has(key))
      problems.push(`${key}: in the store (last_seq ${doc.last_seq}), not on the server`);
  }
  return capped(problems);
}

function markProblems(log: readonly LoggedUpdate[], marks: readonly LogMark[]): string[] {
  const problems: string[] = [];
  for (const mark of marks) {
    const found = log.filter(
      (u) =>
        u.action === mark.action &&
        u.type === mark.type &&
        u.id === mark.id &&
        (mark.name === undefined || u.attributes?.name === mark.name),
    );
    if (found.length !== 1)
      problems.push(
        `${mark.what}: ${found.length === 0 ? 'not in the change log (lost)' : `${found.length} times in the change log (seq ${found.map((u) => u.seq).join(', ')})`}`,
      );
  }
  return problems;
}

/** `values`' fields as the server's model has them (lists of permissions compared sorted). */
function valueProblems(
  what: string,
  values: Readonly<Record<string, unknown>>,
  attributes: Readonly<Record<string, unknown>>,
): string[] {
  const problems: string[] = [];
  for (const [field, want] of Object.entries(values)) {
    let have = attributes[field];
    if (field === 'permissions' && Array.isArray(have)) have = [...(have as string[])].sort();
    if (canonical(have) !== canonical(want))
      problems.push(
        `${what}.${field}: ${canonical(have)} on the server, written ${canonical(want)}`,
      );
  }
  return problems;
}

export function writeProblems(
  workloads: readonly TabWorkload[],
  models: readonly SyncedModel[],
  log: readonly LoggedUpdate[],
  applied: ReadonlyMap<string, number>,
  sharedAsset: string,
): string[] {
  const problems: string[] = [];
  const byKey = new Map(models.map((m) => [`${m.type}:${m.id}`, m]));
  for (const w of workloads) {
    problems.push(...markProblems(log, w.marks).map((p) => `${w.tab.name}: ${p}`));
    for (const id of w.mutationIds) {
      const status = applied.get(id);
      if (status === undefined) problems.push(`${w.tab.name}: mutation ${id} never applied`);
      else if (status >= 300)
        problems.push(`${w.tab.name}: mutation ${id} answered ${status} (refused)`);
    }
    for (const [key, written] of w.written) {
      const model = byKey.get(key);
      if (written.deleted) {
        if (model !== undefined)
          problems.push(`${w.tab.name}: ${key} deleted, still on the server`);
        continue;
      }
      if (model === undefined) {
        problems.push(`${w.tab.name}: ${key} written, not on the server`);
        continue;
      }
      problems.push(...valueProblems(`${w.tab.name}: ${key}`, written.values, model.attributes));
    }
    for (const file of w.files) {
      const state = byKey.get(`file:${file.id}`)?.attributes.state;
      if (state !== 'ready') problems.push(`${w.tab.name}: file ${file.id} is ${String(state)}`);
    }
    for (const ack of w.acks) {
      const status = byKey.get(`alarm:${ack.alarm}`)?.attributes.status as
        { acknowledged?: unknown } | null | undefined;
      if (status?.acknowledged !== true)
        problems.push(
          `${w.tab.name}: alarm ${ack.alarm} acknowledged (${ack.id}), not on the server`,
        );
    }
  }
  // The shared asset: both tabs renamed it; the later of their last renames in the log wins.
  const lasts = new Set(workloads.flatMap((w) => w.sharedNames.slice(-1)));
  const renames = log.filter(
    (u) =>
      u.action === 'attributes_updated' &&
      u.id === sharedAsset &&
      typeof u.attributes?.name === 'string' &&
      lasts.has(u.attributes.name),
  );
  const winner = renames[renames.length - 1]?.attributes?.name;
  const shared = byKey.get(`asset:${sharedAsset}`)?.attributes.name;
  if (lasts.size > 0 && shared !== winner)
    problems.push(`shared asset named ${String(shared)}, its last rename was ${String(winner)}`);
  return capped(problems);
}

/** The stored points and rollup counts of the agent's streams. */
export interface StoredPoints {
  /** Per stream: ts -> value. */
  readonly points: ReadonlyMap<string, ReadonlyMap<number, unknown>>;
  /** Per stream: numeric points the minute and hour rollups count. */
  readonly minuteCounts: ReadonlyMap<string, number>;
  readonly hourCounts: ReadonlyMap<string, number>;
}

export function storedPoints(server: FaultServer, streams: readonly string[]): StoredPoints {
  return server.timeSeries((db) => {
    const points = new Map<string, Map<number, unknown>>();
    const minuteCounts = new Map<string, number>();
    const hourCounts = new Map<string, number>();
    const seriesOf = db.prepare('select id from ts_series where stream = ?').pluck();
    const rows = db.prepare('select ts, value from ts_points where series = ?').raw();
    const count = (table: string) =>
      db.prepare(`select coalesce(sum("count"), 0) from ${table} where series = ?`).pluck();
    const minutes = count('ts_minute');
    const hours = count('ts_hour');
    for (const stream of streams) {
      const series = seriesOf.get(stream) as number | undefined;
      const found = new Map<number, unknown>();
      points.set(stream, found);
      if (series === undefined) continue;
      for (const [ts, value] of rows.all(series) as [number, unknown][]) found.set(ts, value);
      minuteCounts.set(stream, minutes.get(series) as number);
      hourCounts.set(stream, hours.get(series) as number);
    }
    return { points, minuteCounts, hourCounts };
  });
}

export function pointProblems(read: readonly ReadPoint[], stored: StoredPoints): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const p of read) {
    const key = `${p.stream}@${p.ts}`;
    if (seen.has(key)) problems.push(`read twice by the agent: ${key}`);
    seen.add(key);
    const want = typeof p.value === 'boolean' ? (p.value ? 1 : 0) : p.value;
    const have = stored.points.get(p.stream)?.get(p.ts);
    if (have === undefined) problems.push(`point ${key} = ${String(want)} not stored (lost)`);
    else if (have !== want)
      problems.push(`point ${key} stored as ${canonical(have)}, read ${String(want)}`);
  }
  const readPer = new Map<string, number>();
  for (const p of read) readPer.set(p.stream, (readPer.get(p.stream) ?? 0) + 1);
  for (const [stream, points] of stored.points) {
    if (points.size > (readPer.get(stream) ?? 0))
      problems.push(
        `stream ${stream}: ${points.size} points stored, ${readPer.get(stream) ?? 0} read`,
      );
    const numeric = [...points.values()].filter((v) => typeof v === 'number').length;
    for (const [table, counts] of [
      ['minute', stored.minuteCounts],
      ['hour', stored.hourCounts],
    ] as const) {
      const counted = counts.get(stream) ?? 0;
      if (counted !== numeric)
        problems.push(
          `stream ${stream}: ${numeric} numeric points, the ${table} rollups count ${counted}`,
        );
    }
  }
  return capped(problems);
}
