import type { ColumnType, Generated } from 'kysely';

/** Row types of the SQLite tables (see migrations/). Booleans are 0/1 integers in SQLite. */

export interface AccountsTable {
  id: string;
  parent_id: string | null;
  name: string;
  active: Generated<number>;
  /** The theme the account picked (issue 36); null: the nearest account above's. */
  theme_id: string | null;
  /** The host whose sign-in page shows the account's theme (unique). */
  host: string | null;
  /** When the account's translations last changed (ms; 0: never). */
  texts_changed: Generated<number>;
  /*
   * The design of issue 30, before themes: moved into a theme at start (themes/adopt-designs.ts)
   * and emptied; nothing else reads them.
   */
  color1: string | null;
  color2: string | null;
  title: string | null;
  logo_desktop: string | null;
  logo_mobile: string | null;
  login_image: string | null;
  /** Days values are kept (30, 90, 182 or 365). */
  value_retention_days: Generated<number>;
  /** 1: critical alarms reach recipients outside their notification window (default 0). */
  alarm_critical_override: Generated<number>;
  /** Who of the members must have a second factor: nobody, admins, everyone (issue 38). */
  second_factor: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: string;
  firstname: string;
  lastname: string;
  email: string;
  password_hash: string;
  language: Generated<string>;
  active_account_id: string | null;
  created_at: string;
  updated_at: string;
  phone: Generated<string>;
  /** NotificationSettings as JSON. */
  notifications: Generated<string>;
}

export interface RolesTable {
  id: string;
  account_id: string;
  slug: string;
  name: string;
  /** 1: the role sees every asset of the account; 0: only those in role_assets. */
  all_assets: Generated<number>;
}

/** An asset a role sees (DESIGN.md §10); edit 1: the role may change it too. */
export interface RoleAssetsTable {
  role_id: string;
  account_id: string;
  asset_id: string;
  edit: Generated<number>;
}

/** The attributes of a model type a role sees: a JSON array of names. No row: all of them. */
export interface RoleFieldsTable {
  role_id: string;
  account_id: string;
  type: string;
  fields: string;
}

export interface MembershipsTable {
  user_id: string;
  account_id: string;
  role_id: string;
  created_at: string;
}

export interface PermissionsTable {
  id: string;
  name: string;
  role_id: string;
  user_id: string | null;
  guard_name: Generated<string>;
  account_id: string;
}

export interface TagsTable {
  id: string;
  slug: string;
  account_id: string | null;
  /** JSON array of parent slugs. */
  parents: Generated<string>;
}

export interface UserTagsTable {
  user_id: string;
  tag_id: string;
}

export interface FeatureFlagsTable {
  id: string;
  key: string;
  visibility_scope: Generated<string>;
  tag_slug: string;
}

export interface OAuthClientsTable {
  id: string;
  name: string;
  secret_hash: string | null;
  redirect: Generated<string>;
  first_party: Generated<number>;
  password_client: Generated<number>;
  revoked: Generated<number>;
  created_at: string;
  /** The user who made it (null: the platform's own clients). */
  user_id: string | null;
  confidential: Generated<number>;
  personal_access: Generated<number>;
  /** The role client-credentials tokens act with (null: no client credentials). */
  role_id: string | null;
  updated_at: string | null;
}

export interface AccessTokensTable {
  id: string;
  user_id: string;
  client_id: string;
  token_hash: string;
  name: string | null;
  scopes: Generated<string>;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The role a scoped token acts with. */
  role_id: string | null;
  /** 1: its scopes narrow it (personal, application and client-credentials tokens). */
  scoped: Generated<number>;
  /** The refresh-token family it belongs to (authorization-code grants). */
  family_id: string | null;
  updated_at: string | null;
}

export interface OAuthRefreshTokensTable {
  id: string;
  access_token_id: string;
  family_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export interface OAuthAuthCodesTable {
  id: string;
  code_hash: string;
  client_id: string;
  user_id: string;
  role_id: string;
  scopes: string;
  redirect_uri: string;
  redirect_sent: Generated<number>;
  code_challenge: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  family_id: string | null;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ClientErrorsTable {
  id: string;
  user_id: string | null;
  address: string;
  path: string;
  params: string | null;
  status: number;
  message: string | null;
  app_url: string | null;
  created_at: string;
}

export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  public_key: string;
  auth_token: string;
  content_encoding: string;
  device_type: string | null;
  device_brand: string | null;
  created_at: string;
  updated_at: string;
  /** When a push to it last went through; null: never yet. */
  last_used_at: string | null;
  /** The sign-in (access token) it was sent with: signing out ends it. */
  token_id: string | null;
}

/** One row (id 1): bumped by triggers on every change to users, roles, permissions, tokens, …. */
export interface AccessVersionTable {
  id: number;
  v: number;
}

/** Every synced model (see shared-schema/src/models); attributes are JSON text. */
export interface ModelsTable {
  id: string;
  type: string;
  account_id: string;
  parent_type: string;
  parent_id: string;
  sort_key: Generated<string>;
  attributes: string;
  last_seq: number;
  created_at: string;
  updated_at: string;
  /** The asset the model belongs to (registry `asset`); null outside any asset. */
  asset_id: string | null;
}

export interface AccountClocksTable {
  account_id: string;
  seq: number;
  ts: number;
}

export interface ModelUpdatesTable {
  account_id: string;
  seq: number;
  ts: number;
  muid: string;
  msg: string;
}

export interface AppliedMutationsTable {
  account_id: string;
  mutation_id: string;
  status: number;
  response: string;
  created_at: string;
  /** What the id was used for: "<kind> <collection> <id>" ('' before it was recorded). */
  op: Generated<string>;
  /** Who made the write (null: the server's own, or a row from before it was recorded). */
  user_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the write needed of which assets: JSON `{asset, edit}[]` (AssetNeed). */
  asset_checks: Generated<string>;
}

export interface BrowserCredentialsTable {
  id: string;
  user_id: string;
  account_id: string;
  token_id: string;
  browser_id: string;
  username: string;
  clientid: string;
  password_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface GatewayCredentialsTable {
  id: string;
  account_id: string;
  gateway_id: string;
  /** SHA-256 (hex) of the secret, which is shown once. */
  secret_hash: string;
  created_by: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface GatewayConfigsTable {
  gateway_id: string;
  account_id: string;
  version: number;
  hash: string;
  updated_at: string;
}

export interface ConnectionSecretsTable {
  connection_id: string;
  account_id: string;
  /** JSON object of the write-only settings fields. */
  secrets: string;
}

/** The gateway terminal's audit list: every command sent, by whom, and what came back. */
export interface TerminalCommandsTable {
  id: string;
  account_id: string;
  gateway_id: string;
  user_id: string;
  line: string;
  /** 1 answered, 0 refused or failed, null while waiting for the agent. */
  ok: number | null;
  output: string | null;
  created_at: number;
}

/** An invitation into an account (spec 001 §6); the token only as its SHA-256. */
export interface InvitationsTable {
  id: string;
  account_id: string;
  role_id: string;
  email: string;
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  /** When it was revoked: its link is dead and says so. */
  revoked_at: string | null;
  /** When its current link was mailed (null on rows from before: `created_at`). */
  sent_at: string | null;
}

/** Where one alarm stands (alarms/evaluate.ts's state); `version` is its compare-and-set. */
export interface AlarmStatesTable {
  account_id: string;
  alarm_id: string;
  state: 'normal' | 'pending' | 'active';
  since: number | null;
  value: number | null;
  count: number;
  /** 1 when the latest raise was acknowledged (or none was raised), else 0. */
  acknowledged: number;
  last_ts: number | null;
  version: number;
  updated_at: number;
}

/** What happened to an alarm: raised, cleared, acknowledged (by whom, with a note). */
export interface AlarmEventsTable {
  id: string;
  account_id: string;
  alarm_id: string;
  asset_id: string | null;
  kind: 'raised' | 'cleared' | 'acknowledged';
  ts: number;
  value: number | null;
  count: number;
  by_user: string | null;
  note: string | null;
  created_at: number;
  /*
   * Optional here so that the evaluator's NewAlarmEvent need not name them: the dispatcher's
   * (notify/) alone sets them. When the dispatcher made the event's deliveries (its claim);
   * null: not yet.
   */
  expanded_at?: number | null;
  /** A critical raise's escalation: steps done so far; null: none. */
  escalation_step?: number | null;
  /** When its next escalation step is due; null: none (acknowledged, cleared, done). */
  escalate_at?: number | null;
}

/** One message to one recipient on one channel (notify/dispatcher.ts). */
export interface AlarmDeliveriesTable {
  id: string;
  account_id: string;
  event_id: string;
  alarm_id: string;
  /** 0: the transition itself; 1, 2, …: a critical raise's repeats and escalations. */
  step: number;
  kind: 'raised' | 'cleared' | 'repeat' | 'escalated';
  /** `u:<user id>` or `e:<address>`. */
  recipient_key: string;
  channel: 'mail' | 'sms' | 'push';
  due_at: number;
  state: 'waiting' | 'sending' | 'sent' | 'failed' | 'skipped';
  attempts: number;
  last_error: string | null;
  /** While sending: when the claim lapses and another process may take the row again. */
  lease_until: number | null;
  sent_at: number | null;
  /** The send that took the row (rows sent together as one message share it). */
  digest_id: string | null;
  created_at: number;
}

/** An outside address asked to confirm before it gets alarm notifications (spec 001 §3). */
export interface AlarmRecipientInvitesTable {
  id: string;
  account_id: string;
  email: string;
  /** SHA-256 of the token in the mail; null until the mail is being sent. */
  token_hash: string | null;
  state: 'pending' | 'confirmed' | 'declined';
  created_at: number;
  answered_at: number | null;
  mail_state: 'waiting' | 'sending' | 'sent' | 'failed';
  mail_due_at: number;
  mail_attempts: number;
  mail_error: string | null;
  lease_until: number | null;
}

/** One run of a report (reports/report-runs.repository.ts): made and sent once per run_key. */
/** A mail to a ticket's reporter (migration 20261130000200): its answer, decline or progress. */
/** An open, assigned service request: its agent sees its asset (migration 20261130000300). */
export interface ServiceAccessTable {
  request_id: string;
  account_id: string;
  user_id: string;
  asset_id: string;
}

/** A call of a service request (migration 20261130000400). */
export interface ServiceCallsTable {
  id: string;
  account_id: string;
  request_id: string;
  caller_id: string;
  agent_id: string;
  kind: string;
  started_at: ColumnType<number, number, number>;
  ended_at: ColumnType<number | null, number | null, number | null>;
}

/** Release management's history (issue 35 item 5; releases/release-history.ts). */
export interface ReleaseHistoryTable {
  id: string;
  account_id: string;
  release_id: string;
  subject: 'release' | 'deployment' | 'gateway';
  /** The release's, the rollout's or the gateway's id. */
  subject_id: string;
  event: 'created' | 'changed' | 'state';
  from_state: string | null;
  to_state: string | null;
  /** The fields changed (JSON), a rollout's gateway count, a gateway's message. */
  detail: string | null;
  /** The user who did it; null: the server, or a gateway's agent. */
  by_user: string | null;
  at: number;
}

/** One post of a webhook integration: the outbox and the delivery log (integrations/). */
export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  integration_id: string;
  /** `alarm:<event id>` or `values:<asset>:<id>`: unique per integration. */
  key: string;
  event_type: 'alarm.raised' | 'alarm.cleared' | 'alarm.acknowledged' | 'values';
  asset_id: string | null;
  alarm_id: string | null;
  points: number | null;
  /** The JSON posted, fixed when the row was made. */
  body: string;
  state: 'waiting' | 'sending' | 'sent' | 'failed';
  attempts: number;
  /** JSON list of WebhookAttempt. */
  attempt_log: string;
  next_at: number | null;
  lease_until: number | null;
  created_at: number;
}

/** How far the webhooks' leader read alarm_events (integrations/webhook-events.ts). */
export interface WebhookCursorTable {
  name: string;
  created_at: number;
  event_id: string;
}

/** A webhook's signing secret, sealed with the server's key (integrations/secret-box.ts). */
export interface IntegrationSecretsTable {
  integration_id: string;
  account_id: string;
  sealed: string;
  created_at: number;
}

export interface TicketNoticesTable {
  id: string;
  account_id: string;
  ticket_id: string;
  /** Who is told: the ticket's reporter. */
  user_id: string;
  kind: 'answered' | 'declined' | 'progress';
  /** The ticket's title when the step was made. */
  title: string;
  /** What the reporter is told: the answer, or the progress step's words. */
  body: string;
  created_at: number;
  sent_at: number | null;
  attempts: number;
  retry_at: number | null;
  lease_until: number | null;
  error: string | null;
}

export interface ReportRunsTable {
  id: string;
  account_id: string;
  report_id: string;
  /** `<report id>@<due ms>` (or `…@now:<ms>` for "Send now"): unique across the cluster. */
  run_key: string;
  due_at: number;
  manual: number;
  from_ms: number;
  to_ms: number;
  state: 'running' | 'sent' | 'failed' | 'nobody';
  error: string | null;
  attempts: number;
  retry_at: number | null;
  lease_until: number | null;
  /** JSON: StoredRecipient[]. */
  recipients: string;
  /** JSON: StoredFile[]. */
  files: string;
  created_at: number;
  finished_at: number | null;
}

/** One published article text, as the help centre's search reads it (migration 20261130000100). */
export interface ArticleSearchTable {
  text_id: string;
  account_id: string;
  article_id: string;
  number: number | null;
  lang: string;
  title: string;
  body: string;
  /** The folded words (shared-schema help/fold.ts `indexedText`). */
  terms: string;
}

/** SQLite only: the FTS5 table the triggers keep equal to article_search (by rowid). */
export interface ArticleFtsTable {
  rowid: number;
  terms: string;
  rank: number;
}

/** The last article number each account gave (numbers only go up). */
export interface ArticleNumbersTable {
  account_id: string;
  last: number;
}

/** A user's authenticator app (issue 38 item 2): the secret sealed, on once confirmed. */
export interface UserTotpTable {
  user_id: string;
  sealed_secret: string;
  confirmed_at: number | null;
  /** The 30-second step of the last code taken: no code is taken twice. */
  last_step: number | null;
  created_at: number;
}

/** A recovery code: its SHA-256, used once. */
export interface UserRecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

/** A WebAuthn credential of a user (a passkey). */
export interface UserPasskeysTable {
  id: string;
  user_id: string;
  /** base64url, as the browser names it. */
  credential_id: string;
  /** The public key as JWK JSON. */
  public_key: string;
  /** COSE algorithm: -7 (ES256) or -257 (RS256). */
  algorithm: number;
  sign_count: Generated<number>;
  /** JSON: the transports the browser named. */
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn challenge, by its SHA-256: single use, short-lived. */
export interface TwoFactorChallengesTable {
  challenge_hash: string;
  purpose: 'register' | 'sign-in';
  user_id: string | null;
  expires_at: number;
}

/** Changes of second factors: who, whose, in which account (an admin's reset), what. */
export interface TwoFactorLogTable {
  id: string;
  user_id: string;
  actor_id: string;
  account_id: string | null;
  action: string;
  at: number;
}

/** Security events of an account per UTC day, counted (issue 38 item 1; migration 20261203003000). */
export interface SecurityEventCountsTable {
  account_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** signin_failed, rate_limited, broker_refused, revoked_key, csp_report. */
  kind: string;
  /** '' (the day's total, key ''), or address, user, client, gateway, directive. */
  dim: string;
  /** The address, user id, … ('*': the rest of the day's, beyond the kept top keys). */
  key: string;
  count: number;
}

/** When a scoped token was last used (ms), written at most hourly. */
export interface SecurityTokenUsesTable {
  token_id: string;
  last_used_at: number;
}

/** A check an admin dismissed until `expires_at` (ms). */
export interface SecurityInsightDismissalsTable {
  account_id: string;
  check_id: string;
  reason: string;
  expires_at: number;
  by_user: string;
  at: number;
}

/** Dismissals and their taking back, as they happened. */
export interface SecurityInsightLogTable {
  id: string;
  account_id: string;
  check_id: string;
  /** dismissed, restored. */
  action: string;
  reason: string | null;
  expires_at: number | null;
  actor_id: string;
  at: number;
}

/** Each check's state and count of one UTC day (JSON: { [check]: { state, count } }). */
export interface SecurityInsightSnapshotsTable {
  account_id: string;
  day: string;
  checks: string;
  taken_at: number;
}

/** The weekly digest sent to an account's admins, once per ISO week (YYYY-Www). */
export interface SecurityInsightDigestsTable {
  account_id: string;
  week: string;
  sent_at: number;
}

export interface Database {
  security_event_counts: SecurityEventCountsTable;
  security_token_uses: SecurityTokenUsesTable;
  security_insight_dismissals: SecurityInsightDismissalsTable;
  security_insight_log: SecurityInsightLogTable;
  security_insight_snapshots: SecurityInsightSnapshotsTable;
  security_insight_digests: SecurityInsightDigestsTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodesTable;
  user_passkeys: UserPasskeysTable;
  two_factor_challenges: TwoFactorChallengesTable;
  two_factor_log: TwoFactorLogTable;
  article_search: ArticleSearchTable;
  article_fts: ArticleFtsTable;
  article_numbers: ArticleNumbersTable;
  report_runs: ReportRunsTable;
  ticket_notices: TicketNoticesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  integration_secrets: IntegrationSecretsTable;
  webhook_cursor: WebhookCursorTable;
  release_history: ReleaseHistoryTable;
  service_access: ServiceAccessTable;
  service_calls: ServiceCallsTable;
  alarm_states: AlarmStatesTable;
  alarm_events: AlarmEventsTable;
  alarm_deliveries: AlarmDeliveriesTable;
  alarm_recipient_invites: AlarmRecipientInvitesTable;
  invitations: InvitationsTable;
  terminal_commands: TerminalCommandsTable;
  gateway_credentials: GatewayCredentialsTable;
  gateway_configs: GatewayConfigsTable;
  connection_secrets: ConnectionSecretsTable;
  browser_credentials: BrowserCredentialsTable;
  models: ModelsTable;
  account_clocks: AccountClocksTable;
  model_updates: ModelUpdatesTable;
  applied_mutations: AppliedMutationsTable;
  access_version: AccessVersionTable;
  accounts: AccountsTable;
  users: UsersTable;
  roles: RolesTable;
  role_assets: RoleAssetsTable;
  role_fields: RoleFieldsTable;
  memberships: MembershipsTable;
  permissions: PermissionsTable;
  tags: TagsTable;
  user_tags: UserTagsTable;
  feature_flags: FeatureFlagsTable;
  oauth_clients: OAuthClientsTable;
  access_tokens: AccessTokensTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  oauth_auth_codes: OAuthAuthCodesTable;
  password_resets: PasswordResetsTable;
  client_errors: ClientErrorsTable;
  push_subscriptions: PushSubscriptionsTable;
}
