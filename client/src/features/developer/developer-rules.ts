import { ERROR_TEXTS, PERSONAL_TOKEN_MAX_DAYS } from '@plant/shared-schema';
import type { WorkerError } from '@plant/sync-worker/api';

export const DAY_MS = 24 * 3600 * 1000;

/**
 * What a failed call in a token or client dialog shows (spec 000 §5): the server's messages (a
 * 422's `errors`, flattened in field order, or its one message), `generic` when the answer's body
 * was not an object, `offline` when no answer came at all.
 */
export type DialogProblem =
  | { readonly kind: 'messages'; readonly messages: readonly string[] }
  | { readonly kind: 'generic' }
  | { readonly kind: 'offline' };

export function dialogProblem(error: WorkerError): DialogProblem {
  if (error.kind === 'network') return { kind: 'offline' };
  const fromFields = Object.values(error.fields ?? {}).flat();
  if (fromFields.length > 0) return { kind: 'messages', messages: [...new Set(fromFields)] };
  // The worker says ERROR_TEXTS.unknown for a body that was empty, not JSON or not an object.
  if (error.kind !== 'http' || error.message === ERROR_TEXTS.unknown) return { kind: 'generic' };
  return { kind: 'messages', messages: [error.message] };
}

/** A local date as an `<input type="date">` value. */
export function dateValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The expiry sent for a chosen day: the end of that day, but never past a year from now (the
 * server's limit; a minute is left for the request's way), or null for a day outside the year.
 */
export function expiryOf(day: string, now: number): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (match === null) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = new Date(year, month - 1, date).getTime();
  const end = new Date(year, month - 1, date, 23, 59, 59).getTime();
  const max = now + PERSONAL_TOKEN_MAX_DAYS * DAY_MS - 60_000;
  if (Number.isNaN(start) || end <= now || start > max) return null;
  return new Date(Math.min(end, max)).toISOString();
}
