import type { FormValues } from '@plant/shared-schema';
import { keyedStore } from '../../storage/keyed-store';

/*
 * Drafts of filled-in forms (issue 37 item 2): what a technician has typed, photographed and
 * signed, kept in this browser's IndexedDB as it changes, so a reload, a crash or a flat battery
 * loses nothing. A draft is the user's own on this device (keyed by user, account, asset, form
 * and task) and goes once the entry is sent to the worker's outbox (which then keeps it).
 * The photos and the signature are kept as Blobs beside the typed answers.
 */

const DB_NAME = 'plant-form-drafts';
const STORE = 'drafts';

export interface FormDraft {
  readonly key: string;
  readonly values: FormValues;
  /** Number and time fields as typed. */
  readonly texts: Readonly<Record<string, string>>;
  /** The photos and signature taken, by field id, in order. */
  readonly files: Readonly<Record<string, readonly DraftFile[]>>;
  readonly savedAt: number;
}

export interface DraftFile {
  readonly id: string;
  readonly name: string;
  readonly blob: Blob;
}

/** A draft's key: one draft per user, account, asset, form and task. */
export function draftKey(parts: {
  readonly userId: string;
  readonly accountId: string;
  readonly assetId: string;
  readonly formId: string;
  readonly taskId: string | null;
}): string {
  return [parts.userId, parts.accountId, parts.assetId, parts.formId, parts.taskId ?? '-'].join(
    '/',
  );
}

const drafts = keyedStore<FormDraft>(DB_NAME, STORE);

export function readDraft(key: string): Promise<FormDraft | undefined> {
  return drafts.get(key);
}

export function saveDraft(draft: FormDraft): Promise<void> {
  return drafts.put(draft);
}

export function dropDraft(key: string): Promise<void> {
  return drafts.delete(key);
}
