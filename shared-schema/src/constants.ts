/**
 * Business constants and limits of spec 000 §9 and spec 001 §5, shared by server, worker and client.
 * Values are the spec's; where the spec gives several readings, the issue that covers the area decides
 * (new passwords: 8 to 16 characters satisfies all three readings).
 */
export const LIMITS = {
  emailMin: 4,
  emailMax: 250,
  nameMin: 3,
  nameMax: 250,
  newPasswordMin: 8,
  newPasswordMax: 16,
  /** An existing password is checked, not judged: only an upper bound against abuse. */
  passwordMaxOnSignIn: 250,
  searchMin: 3,
} as const;

export const TIMINGS = {
  bannerReshowMs: 604_800_000,
  missedUpdatePollMs: 60_000,
  missedUpdateDebounceMs: 300,
  missedUpdateWipeThreshold: 100,
  permissionRecheckMs: 100,
  batchWaitMs: 400,
  identicalRequestGuardMs: 1_000,
  chunkLoadTimeoutMs: 120_000,
  brokerKeepaliveS: 55,
  brokerReconnectMs: 5_000,
  brokerPublishRetryMs: 5_000,
  brokerSubscriptionCheckMs: 1_000,
  brokerResubscribeAfterConnectMs: 2_000,
  loginErrorClearMs: 3_000,
  loginProcessingEndMs: 1_000,
  accountSwitchDotTimeoutMs: 4_000,
  passwordResetTokenTtlMs: 60 * 60 * 1_000,
} as const;

export const LANGUAGES = ['en', 'de', 'pt', 'ru', 'plain'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const DEFAULT_DIRECTION = 'ltr';

/** Role slugs with a meaning of their own (spec 000 §6). */
export const ROLE_SLUGS = { admin: 'admin', norole: 'norole' } as const;

/** Global tags that grant everything unless internal features are disabled. */
export const INTERNAL_TAGS = ['internal', 'internal_fe_dev'] as const;

/** Header by which the client says that internal features are disabled (stored disableInternalFeatures). */
export const DISABLE_INTERNAL_FEATURES_HEADER = 'X-Disable-Internal-Features';

/**
 * Header by which a write names the account it was made in. A write queued in one account and sent
 * after a switch to another is refused (409) instead of landing in the wrong account.
 */
export const ACCOUNT_HEADER = 'X-Account-Id';
/** The 409's message for such a write: the client keeps it for when that account is active again. */
export const ACCOUNT_CHANGED_MESSAGE =
  'This change was made in another account than the active one.';

/** Spec 000 §8's texts (spelling as the spec has them: clients and catalogues match on them). */
export const ERROR_TEXTS = {
  /** A failure without a message of its own. */
  unknown: 'An unknown error occured.',
  /** A response with an empty body. */
  emptyBody: 'Error in endpoint occured',
} as const;

/** Request bodies past this are refused (413); the worker sizes its batches below it. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The agent's heartbeat; a gateway unheard for 3 beats is offline. */
export const GATEWAY_HEARTBEAT_MS = 30_000;
