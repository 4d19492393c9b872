/**
 * What the values cache knows it holds: per stream, time spans read from the server at a
 * resolution (`step`, ms between the points asked for; 0 for raw points). A read at a coarser
 * resolution is answered by a span of a finer one; the parts of a range no good-enough span
 * covers are the gaps to fetch. Pure functions over sorted, disjoint lists.
 */
export interface Span {
  readonly from: number;
  readonly to: number;
  readonly step: number;
}

/** Most spans kept per stream: past it the oldest go (they only cost a refetch). */
export const MAX_SPANS = 64;

/** The parts of [from, to] that no span of `step` or finer covers, in time order. */
export function gapsOf(
  spans: readonly Span[],
  from: number,
  to: number,
  step: number,
): { from: number; to: number }[] {
  const usable = merge(spans.filter((s) => s.step <= step).map((s) => ({ ...s, step: 0 })));
  const gaps: { from: number; to: number }[] = [];
  let at = from;
  for (const s of usable) {
    if (s.to < at) continue;
    if (s.from > to) break;
    if (s.from > at) gaps.push({ from: at, to: Math.min(s.from, to) });
    at = Math.max(at, s.to);
    if (at >= to) break;
  }
  if (at < to) gaps.push({ from: at, to });
  return gaps;
}

/**
 * Adds a span: where it overlaps a span of the same or a coarser step, the finer one wins the
 * overlap; spans of one step that touch become one. The list stays sorted and disjoint.
 */
export function addSpan(spans: readonly Span[], added: Span): Span[] {
  if (added.to <= added.from) return [...spans];
  const out: Span[] = [];
  for (const s of spans) {
    if (s.to <= added.from || s.from >= added.to || s.step < added.step) {
      out.push(s);
      continue;
    }
    // `added` is as fine or finer: it takes the overlap; what sticks out of s stays.
    if (s.from < added.from) out.push({ ...s, to: added.from });
    if (s.to > added.to) out.push({ ...s, from: added.to });
  }
  // A finer span already there keeps its part; `added` fills the rest.
  const finer = out.filter((s) => s.step < added.step && s.to > added.from && s.from < added.to);
  let at = added.from;
  const pieces: Span[] = [];
  for (const f of finer.sort((a, b) => a.from - b.from)) {
    if (f.from > at) pieces.push({ from: at, to: f.from, step: added.step });
    at = Math.max(at, f.to);
  }
  if (at < added.to) pieces.push({ from: at, to: added.to, step: added.step });
  const all = merge([...out, ...pieces]);
  return all.length > MAX_SPANS ? all.slice(all.length - MAX_SPANS) : all;
}

/** Removes [from, to) from every span (evicted values). */
export function cutSpans(spans: readonly Span[], from: number, to: number): Span[] {
  const out: Span[] = [];
  for (const s of spans) {
    if (s.to <= from || s.from >= to) {
      out.push(s);
      continue;
    }
    if (s.from < from) out.push({ ...s, to: from });
    if (s.to > to) out.push({ ...s, from: to });
  }
  return out;
}

/** Sorted by start; neighbours of one step that touch or overlap are joined. */
function merge(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.from - b.from || a.step - b.step);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last !== undefined && last.step === s.step && s.from <= last.to) {
      out[out.length - 1] = { ...last, to: Math.max(last.to, s.to) };
    } else {
      out.push(s);
    }
  }
  return out;
}

/**
 * The parts of [from, to] a stream's cache holds (issue 31 item 3: a widget offline says which
 * part of its range it shows): every span read from the server, whatever its resolution, and
 * the live points cached after the last of them (`firstTs`/`lastTs`: the first and last cached
 * point within the range, if any). Sorted, disjoint, clipped to the range.
 */
export function heldOf(
  spans: readonly Span[],
  from: number,
  to: number,
  firstTs: number | undefined,
  lastTs: number | undefined,
): { from: number; to: number }[] {
  const held: { from: number; to: number }[] = [];
  for (const s of merge(spans.map((s) => ({ ...s, step: 0 })))) {
    const a = Math.max(from, s.from);
    const b = Math.min(to, s.to);
    if (b > a) held.push({ from: a, to: b });
  }
  if (firstTs === undefined || lastTs === undefined) return held;
  const last = held.at(-1);
  if (last === undefined) {
    // Only live points: from the first to the last.
    if (lastTs > firstTs) held.push({ from: firstTs, to: lastTs });
  } else if (lastTs > last.to) {
    // Live values went on arriving after the last read: held up to the newest of them.
    held[held.length - 1] = { from: last.from, to: lastTs };
  }
  return held;
}
