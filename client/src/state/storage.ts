/**
 * What the browser keeps (spec 000 §3), by the spec's key names. Everything the page stores goes
 * through here, so that sign-out and "clear storage" (spec 000 §4) know every key.
 */
export const STORAGE_KEYS = {
  user: 'user',
  role: 'role',
  token: 'access_token',
  direction: 'direction',
  language: 'currentLanguage',
  account: 'account',
  dateFrom: 'datepicker_from',
  dateTo: 'datepicker_to',
  dateMode: 'datepicker_mode',
  dateDuration: 'datepicker_duration',
  dateSetAt: 'datepicker_set',
  pwaBanner: 'pwa-banner',
  notificationBanner: 'notification-banner',
  disableInternalFeatures: 'disableInternalFeatures',
  /** Ours: broker credentials are per browser (sync-worker SessionOptions.browserId). */
  browserId: 'browserId',
  /** Ours: the side menu's display state (0 to 3). */
  menuState: 'menuState',
  /** Ours: the page transition (fade or slide). */
  transition: 'transition',
  /** Ours: the asset overview's view (panel, table or map). */
  devicesView: 'devicesView',
  /** Ours: the asset table's optional columns shown (a JSON list of column ids). */
  devicesColumns: 'devicesColumns',
  /** Ours: the assets and dashboards recently opened, per user and account (state/recent.ts). */
  recentlyOpened: 'recentlyOpened',
  /**
   * Ours: the sign-in screen's brand, the last active account's theme (title, login image, logo,
   * colours: features/shell/account-brand.tsx); kept over sign-out, like the language.
   */
  loginBrand: 'loginBrand',
  /** Ours: the words (translations) of the account last worked in, for a start offline. */
  accountWords: 'accountWords',
  /** Ours: the brand of the account tied to this host, as /staticconf said last (issue 36). */
  hostBrand: 'hostBrand',
  /**
   * Ours: an article's edits typed in the last moment before they reached the worker (the help
   * centre's editor writes its drafts a moment after typing rests): a reload restores them.
   */
  articleEdits: 'articleEdits',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** Keys that belong to the signed-in user: removed on sign-out and when the account is gone. */
const SESSION_KEYS: readonly StorageKey[] = [
  STORAGE_KEYS.user,
  STORAGE_KEYS.role,
  STORAGE_KEYS.token,
  STORAGE_KEYS.account,
  STORAGE_KEYS.articleEdits,
];

function store(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // storage disabled: the app still runs, nothing is remembered
  }
}

export function readString(key: StorageKey): string | null {
  return store()?.getItem(key) ?? null;
}

export function writeString(key: StorageKey, value: string | null): void {
  const s = store();
  if (s === undefined) return;
  if (value === null) s.removeItem(key);
  else s.setItem(key, value);
}

/** A stored JSON value, or null when missing or unreadable. */
export function readJson(key: StorageKey): unknown {
  const raw = readString(key);
  if (raw === null || raw === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function writeJson(key: StorageKey, value: unknown): void {
  writeString(key, value === null || value === undefined ? null : JSON.stringify(value));
}

/** Sign-out: the user's keys go; language, direction and the browser id stay. */
export function clearSession(): void {
  for (const key of SESSION_KEYS) writeString(key, null);
}

/** Spec 000 §4 "storage is cleared": everything but the browser's own id. */
export function clearAll(): void {
  for (const key of Object.values(STORAGE_KEYS)) {
    if (key !== STORAGE_KEYS.browserId) writeString(key, null);
  }
}

/** Stable per browser: the broker credentials are issued per browser. */
export function browserId(): string {
  const stored = readString(STORAGE_KEYS.browserId);
  if (stored !== null) return stored;
  const made = `browser-${crypto.randomUUID()}`;
  writeString(STORAGE_KEYS.browserId, made);
  return made;
}
