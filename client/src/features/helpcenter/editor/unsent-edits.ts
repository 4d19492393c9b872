import { readJson, STORAGE_KEYS, writeJson } from '../../../state/storage';

/**
 * The editor's edits between a keystroke and their write to the worker (the drafts are written a
 * moment after typing rests, so that an hour of writing offline is not thousands of queued
 * writes). Kept synchronously in the browser's storage, by article and language, so a reload in
 * that moment loses nothing: the editor opens with them and writes them. Removed once written.
 */
export interface UnsentEdit {
  readonly title?: string;
  readonly content?: unknown;
}

type Edits = Record<string, UnsentEdit>;

function all(): Edits {
  const stored = readJson(STORAGE_KEYS.articleEdits);
  return typeof stored === 'object' && stored !== null ? (stored as Edits) : {};
}

export function unsentEdit(key: string): UnsentEdit | undefined {
  return all()[key];
}

export function keepUnsent(key: string, edit: UnsentEdit): void {
  const edits = all();
  edits[key] = { ...edits[key], ...edit };
  writeJson(STORAGE_KEYS.articleEdits, edits);
}

/** Forgets the fields of the key's edits that were written (a field changed since stays). */
export function forgetUnsent(key: string, written: UnsentEdit): void {
  const edits = all();
  const now = edits[key];
  if (now === undefined) return;
  const left: Record<string, unknown> = { ...now };
  for (const [field, value] of Object.entries(written))
    if (JSON.stringify(left[field]) === JSON.stringify(value)) delete left[field];
  if (Object.keys(left).length === 0) delete edits[key];
  else edits[key] = left;
  writeJson(STORAGE_KEYS.articleEdits, Object.keys(edits).length === 0 ? null : edits);
}
