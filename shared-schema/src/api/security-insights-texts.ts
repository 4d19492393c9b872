/*
 * The texts of security insights (issue 38 item 1) that the server and the shared schemas give
 * people, apart from the schemas (no zod here): the area's translation table
 * (client/src/features/security-insights/server-texts.ts) takes them without the schemas.
 */
export const SECURITY_INSIGHTS_TEXTS = {
  /** A dismissal without a reason. */
  reasonMissing: 'Please say why this check is dismissed.',
  /** A dismissal's end in the past, or further ahead than a year. */
  expiryInvalid: 'Choose an end in the future, at most a year from today.',
  /** Dismissing, or taking a dismissal back, without the right to change the account. */
  dismissForbidden: 'Only an administrator of the account dismisses a check.',
  /** Taking back a dismissal that is not there (ended, or taken back by someone else). */
  notDismissed: 'This check is not dismissed.',
  /** The threat overview's period, not one of THREAT_PERIODS. */
  periodInvalid: 'Choose 7, 30 or 90 days.',
} as const;

/**
 * The facts the checks weigh, in one place: the screens say the same numbers the server uses.
 * Days are whole days of 24 hours counted back from the moment the check is evaluated.
 */
export const INSIGHT_LIMITS = {
  /** A member without activity (a sign-in, a token's use) for this long is inactive. */
  inactiveDays: 90,
  /** A token older than this, or unused for this long, is flagged. */
  tokenDays: 90,
  /** A token that lives this long or longer (the most one may be given) has no expiry of its own. */
  tokenNoExpiryDays: 365,
  /** More admins than this fail the admins check. */
  adminsMax: 3,
  /** Refusals (sign-in, broker) within the last 24 hours from this many on fail their check. */
  refusalsPerDay: 10,
  /** A revoked gateway key that knocked within this many days fails its check. */
  knockDays: 7,
  /** Items listed per check at most (the check's count says how many there are). */
  itemsMax: 50,
  /** Days of the trend and of the threat overview; counters are kept this long. */
  historyDays: 90,
  /** Addresses, users and clients kept per day and kind (heavy hitters; the rest summed). */
  topKeys: 20,
  /** The longest a dismissal may last, in days. */
  dismissMaxDays: 366,
  /** The longest a dismissal's reason may be. */
  reasonMaxChars: 500,
} as const;
