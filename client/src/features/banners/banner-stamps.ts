import { TIMINGS } from '@plant/shared-schema';
import { readString, STORAGE_KEYS, writeString } from '../../state/storage';

/**
 * When a banner was last dismissed (spec 000 §3: the `pwa-banner` and `notification-banner`
 * timestamps, epoch ms): it stays away for 7 days (spec 000 §9), then offers itself again.
 */
export type BannerKind = 'notification' | 'pwa';

const KEYS = {
  notification: STORAGE_KEYS.notificationBanner,
  pwa: STORAGE_KEYS.pwaBanner,
} as const;

/** Whether `kind` was dismissed less than 7 days before `now` (a stamp in the future counts). */
export function dismissedRecently(kind: BannerKind, now = Date.now()): boolean {
  const raw = readString(KEYS[kind]);
  if (raw === null || raw === '') return false;
  const at = Number(raw);
  return Number.isFinite(at) && now - at < TIMINGS.bannerReshowMs;
}

export function stampDismissed(kind: BannerKind, now = Date.now()): void {
  writeString(KEYS[kind], String(now));
}
