import type { FacetCount, ModelQuery } from '../api';
import { SORT_KEY_MAX } from '../apply/keys';
import type { ModelDoc } from '../store/docs';

/*
 * What a list query may ask beyond its range and search (issue 16): a filter on a list attribute
 * (`contains`: the assets that carry a tag), another order than the registry's (`sort`: a
 * table's column) and the values an attribute takes over the list (`facet`: the tags to choose
 * from). A view keeps its keys by one string per model (sorted-keys.ts), so another order is just
 * another string: the attribute's value, then the registry's sort key for equal values.
 */

/** The string a model sorts by in a view: compared as the store's index compares (`<`). */
export type Order = (doc: ModelDoc) => string;

/** The registry's order: what the list indexes hold, so a window can be read from them. */
export const indexOrder: Order = (doc) => doc.sort_key;

/** An attribute's value as sort text: numbers zero-padded as the registry's sort key pads them. */
function sortText(value: unknown): string {
  if (typeof value === 'number') return value.toString().padStart(12, '0');
  if (typeof value === 'string') return value.toLowerCase();
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Array.isArray(value)) {
    return value
      .filter((v): v is string => typeof v === 'string')
      .map((v) => v.toLowerCase())
      .join('\u0001');
  }
  return '';
}

/**
 * Reverses the order of texts: every code unit mirrored, then a terminator above any of them, so
 * that a text sorts after the longer texts it begins (descending, "ab" before "a").
 */
export function descending(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(0xfffe - text.charCodeAt(i));
  return `${out}\uffff`;
}

/** The order of a query: the registry's, or by an attribute (equal values in registry order). */
export function orderOf(sort: ModelQuery['sort']): Order {
  if (sort === undefined) return indexOrder;
  const { field, direction } = sort;
  return (doc) => {
    const text = sortText(doc.attributes?.[field]).slice(0, SORT_KEY_MAX);
    return direction === 'desc'
      ? `${descending(text)}\u0000${doc.sort_key}`
      : `${text}\u0000${doc.sort_key}`;
  };
}

/** The values a doc's attribute gives a facet: a list's texts (each once), or one text. */
function facetValues(doc: ModelDoc, field: string): readonly string[] {
  const value = doc.attributes?.[field];
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((v): v is string => typeof v === 'string' && v !== ''))];
}

/** Whether a doc's attribute holds `value`: a list that has it, or that very text. */
export function containsOf(contains: NonNullable<ModelQuery['contains']>) {
  const { field, value } = contains;
  return (doc: ModelDoc): boolean => {
    const held = doc.attributes?.[field];
    return Array.isArray(held) ? held.includes(value) : held === value;
  };
}

/**
 * The values of one attribute over a view's models, with counts, kept as models come, change and
 * go (each model's values are remembered, so a change takes back exactly what it gave).
 */
export class FacetCounts {
  private readonly counts = new Map<string, number>();
  private readonly held = new Map<string, readonly string[]>();
  private cached: readonly FacetCount[] | undefined;
  /** Bumped with every change of the counts: a window compares it to what it sent. */
  version = 0;

  constructor(readonly field: string) {}

  /** A model of the view, as it is now (again: its old values are replaced). */
  set(key: string, doc: ModelDoc): void {
    const next = facetValues(doc, this.field);
    const before = this.held.get(key);
    if (before !== undefined && sameValues(before, next)) return;
    this.take(key);
    if (next.length === 0) return;
    this.held.set(key, next);
    for (const v of next) this.counts.set(v, (this.counts.get(v) ?? 0) + 1);
    this.changed();
  }

  /** A model left the view. */
  delete(key: string): void {
    if (this.take(key)) this.changed();
  }

  clear(): void {
    this.counts.clear();
    this.held.clear();
    this.changed();
  }

  /** The values in text order (case-insensitive), each with its count. */
  values(): readonly FacetCount[] {
    this.cached ??= [...this.counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => {
        const la = a.value.toLowerCase();
        const lb = b.value.toLowerCase();
        if (la !== lb) return la < lb ? -1 : 1;
        return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
      });
    return this.cached;
  }

  private take(key: string): boolean {
    const before = this.held.get(key);
    if (before === undefined) return false;
    this.held.delete(key);
    for (const v of before) {
      const n = (this.counts.get(v) ?? 0) - 1;
      if (n > 0) this.counts.set(v, n);
      else this.counts.delete(v);
    }
    return true;
  }

  private changed(): void {
    this.cached = undefined;
    this.version += 1;
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
