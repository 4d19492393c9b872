import type { WorkerError } from '@plant/sync-worker/api';
import { syncWorker } from './worker';

/* A file to the user's disk: a module of its own, in the chunks of the screens that offer it. */

/**
 * Saves a file's bytes to the user's disk under its name (from this device when kept here);
 * answers why it could not, or null.
 */
export async function downloadFile(id: string, name: string): Promise<WorkerError | null> {
  const answer = await syncWorker().files.read(id, 'content');
  if ('error' in answer) return answer.error;
  saveBlob(answer.data, name);
  return null;
}

/** Bytes already here to the user's disk under a name (the browser's download). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
