/**
 * Route builders for the calls of spec 000 §7 that exist so far. Paths are relative to the API base
 * (`/api/v1/`), except staticconf which lives at the origin. Never build these strings in place.
 */
const seg = (value: string) => encodeURIComponent(value);

export const API_BASE = '/api/v1';

/**
 * Every API answer's header with the server's time in milliseconds since the epoch: the sync
 * worker measures the device's clock against it (relative times count on the server's clock).
 */
export const SERVER_TIME_HEADER = 'X-Server-Time';

/** A list by type, optionally under one parent: what a bootstrap loads first. */
export interface SnapshotFirst {
  readonly type: string;
  readonly parent?: { readonly type: string; readonly id: string };
}

export const apiPaths = {
  staticconf: () => '/staticconf',
  token: () => 'oauth/token',
  register: () => 'register',
  logout: () => 'logout',
  user: () => 'user',
  userById: (id: string) => `users/${seg(id)}`,
  userAccount: () => 'user/account',
  /** The account switcher's tree (AccountTree). */
  userAccounts: () => 'user/accounts',
  setActiveAccount: (userId: string, accountId: string) =>
    `user/${seg(userId)}/setActiveAccount/${seg(accountId)}`,
  style: (accountId?: string) =>
    accountId === undefined ? 'style' : `style?account=${seg(accountId)}`,
  requestFailed: () => 'requestFailed',
  browserMqtt: (browserId: string) => `user/browser/mqtt?browser_id=${seg(browserId)}`,
  subscriptions: () => 'subscriptions',
  /** The VAPID public key browsers subscribe to web push with (PushKey). */
  pushKey: () => 'push/key',
  /** What wants the user's attention (NotificationTrigger): active unacknowledged alarms. */
  notificationTrigger: (userId: string) => `user/${seg(userId)}/notificationtrigger`,
  /** One alarm's history (AlarmHistoryPage), newest first. */
  alarmHistory: (alarmId: string) => `alarms/${seg(alarmId)}/history`,
  /** The active account's alarm history (AlarmHistoryPage), of one asset with `asset_id`. */
  accountAlarmHistory: () => 'alarm-history',
  /** The active account's alarm settings (AlarmSettings): GET, PUT. */
  alarmSettings: () => 'account/alarm-settings',
  /** The account's release key's public half (ReleaseKeyInfo; release::view), null before any. */
  releaseKey: () => 'releases/key',
  /** A version's history, its rollouts' and their gateways' steps (ReleaseHistoryEntry[]; release::view). */
  releaseHistory: (releaseId: string) => `releases/${seg(releaseId)}/history`,
  /** A released version's artifact, for a gateway its rollout wants to run it (gateway auth). */
  gatewayArtifact: (releaseId: string) => `gateway/releases/${seg(releaseId)}/artifact`,
  /** The help centre's search over published articles (DESIGN.md §14; helpcenter::view). */
  articleSearch: (q: string, lang: string) =>
    `articles/search?q=${encodeURIComponent(q)}&lang=${encodeURIComponent(lang)}`,
  /** Sends a report now (POST; report::edit): answers the run (ReportRun). */
  reportSend: (reportId: string) => `reports/${seg(reportId)}/send`,
  /** A report's runs, newest first (ReportRun[]). */
  reportRuns: (reportId: string) => `reports/${seg(reportId)}/runs`,
  /** One file of a run (GET), served with the reader's access checked. */
  reportRunFile: (reportId: string, runId: string, index: number) =>
    `reports/${seg(reportId)}/runs/${seg(runId)}/files/${index}`,
  /** A webhook's delivery log, newest first (WebhookDelivery[]; integration::view), one asset's. */
  integrationDeliveries: (integrationId: string, assetId?: string) =>
    assetId === undefined
      ? `integrations/${seg(integrationId)}/deliveries`
      : `integrations/${seg(integrationId)}/deliveries?asset_id=${seg(assetId)}`,
  /** A webhook's signing secret (IntegrationSecret; integration::edit): GET reads, POST makes anew. */
  integrationSecret: (integrationId: string) => `integrations/${seg(integrationId)}/secret`,
  passwordForgot: () => 'password/forgot',
  passwordReset: () => 'password/reset',
  collection: (collection: string) => seg(collection),
  model: (collection: string, id: string) => `${seg(collection)}/${seg(id)}`,
  /** A file's bytes (GET), served with the reader's access checked. */
  fileContent: (id: string) => `files/${seg(id)}/content`,
  /** A small WebP of an image file (GET). */
  fileThumbnail: (id: string) => `files/${seg(id)}/thumbnail`,
  /** Where a file's upload stands (GET), and its next chunk (PUT ?offset=). */
  fileUpload: (id: string, offset?: number) =>
    offset === undefined ? `files/${seg(id)}/upload` : `files/${seg(id)}/upload?offset=${offset}`,
  mqttlogs: (fromTs: number) => `account/mqttlogs?from=${fromTs}`,
  /** POST makes a subaccount (AccountView). */
  subaccounts: () => 'account/subaccounts',
  /** One account in reach (AccountView): GET, PUT (name, active, parent). */
  accountById: (id: string) => `accounts/${seg(id)}`,
  /** The words of the active account and those above it (InheritedTexts), for every member. */
  inheritedTexts: () => 'translations/inherited',
  /** An account's design (AccountDesign): PUT. */
  accountDesign: (id: string) => `accounts/${seg(id)}/design`,
  /** POST an image of the account's design (its bytes as the body). */
  accountDesignImages: (id: string) => `accounts/${seg(id)}/design/images`,
  /** Where an image of an account's design is served (to anyone, while the design names it). */
  designImage: (account: string, name: string) =>
    `${API_BASE}/design-images/${seg(account)}/${seg(name)}`,
  /** A user's details (UserProfile): GET, PUT. */
  userProfile: (id: string) => `users/${seg(id)}/profile`,
  /** A user's notification channels and window (NotificationSettings): GET, PUT. */
  userNotifications: (id: string) => `users/${seg(id)}/notifications`,
  /** The active account's members with their roles (Member[]). */
  members: () => 'account/users',
  /** DELETE removes the user from the active account. */
  member: (id: string) => `account/users/${seg(id)}`,
  /** PUT gives the member the role, DELETE takes it. */
  memberRole: (id: string, roleId: string) => `account/users/${seg(id)}/roles/${seg(roleId)}`,
  /** POST mails the member a link to set a new password (spec 001 §6). */
  memberPasswordReset: (id: string) => `account/users/${seg(id)}/password-reset`,
  /** POST invites a person into the active account by e-mail (InvitationSent); GET lists them. */
  invitations: () => 'account/invitations',
  /** POST mails an invitation again with a new link; the old link dies (SentInvitation). */
  invitationResend: (id: string) => `account/invitations/${seg(id)}/resend`,
  /** POST revokes an invitation: its link dies and says so (SentInvitation). */
  invitationRevoke: (id: string) => `account/invitations/${seg(id)}/revoke`,
  /** What an invitation link is for (InvitationInfo), the token in the body. */
  invitationInfo: () => 'invitations/info',
  /** Answers an invitation: joins (new person) or accepts (existing user); signs in. */
  invitationAccept: () => 'invitations/accept',
  /** The active account's roles (RoleAdmin[]); POST makes one. */
  roles: () => 'account/roles',
  /** One role: PUT renames, DELETE deletes. */
  role: (id: string) => `account/roles/${seg(id)}`,
  rolePermissions: (id: string) => `account/roles/${seg(id)}/permissions`,
  /** The key button: every asset or only those given. */
  roleAccess: (id: string) => `account/roles/${seg(id)}/access`,
  /** An asset given to the role: PUT gives (with edit or not), DELETE takes away. */
  roleAsset: (id: string, assetId: string) => `account/roles/${seg(id)}/assets/${seg(assetId)}`,
  roleFields: (id: string, type: string) => `account/roles/${seg(id)}/fields/${seg(type)}`,
  /**
   * A snapshot page. `first`: the list the user looks at, whose first rows in list order come
   * with the page (`SnapshotPage.first`).
   */
  snapshot: (cursor?: string, limit?: number, first?: SnapshotFirst) => {
    const q = new URLSearchParams();
    if (cursor !== undefined) q.set('cursor', cursor);
    if (limit !== undefined) q.set('limit', String(limit));
    if (first !== undefined) {
      q.set('first_type', first.type);
      if (first.parent !== undefined) {
        q.set('first_parent', `${first.parent.type}:${first.parent.id}`);
      }
    }
    const s = q.toString();
    return s === '' ? 'sync/snapshot' : `sync/snapshot?${s}`;
  },
  graph: (type: string, id: string) => `graph/${seg(type)}/${seg(id)}`,
  /** A scanned gateway QR code: its id or serial (LinkGatewayResult). */
  linkGateway: (idOrSerial: string) => `linkGateway?id=${seg(idOrSerial)}`,
  /** One stream's values over a range, downsampled to `points` (StreamValues). */
  streamValues: (id: string, from: number, to: number, points?: number) =>
    `datastreams/${seg(id)}/values?from=${from}&to=${to}${points === undefined ? '' : `&points=${points}`}`,
  /** One stream's hourly count, sum, min and max over a range (StreamValues with `hours`). */
  streamHours: (id: string, from: number, to: number) =>
    `datastreams/${seg(id)}/values?from=${from}&to=${to}&aggregate=hour`,
  /** The raw points of a range as CSV. */
  streamValuesCsv: (id: string, from: number, to: number) =>
    `datastreams/${seg(id)}/values.csv?from=${from}&to=${to}`,
  /** Several streams' values over one range (StreamValues[]). */
  severalValues: (ids: readonly string[], from: number, to: number, points?: number) =>
    `datastreams/values?streams=${ids.map(seg).join(',')}&from=${from}&to=${to}${points === undefined ? '' : `&points=${points}`}`,
  /** Tries pre-processing code on one value of the stream (PreprocessingTry). */
  preprocessingTry: (id: string) => `datastreams/${seg(id)}/preprocessing/try`,
  /** The latest value of each of an asset's streams (LatestValues). */
  latestValues: (assetId: string) => `assets/${seg(assetId)}/values/latest`,
  /** An asset's service booklet as a PDF (GET, application/pdf): the kinds given, in `lang`. */
  serviceBookletPdf: (
    assetId: string,
    q: { readonly kinds: readonly string[]; readonly lang: string; readonly tz?: string },
  ) => {
    const query = new URLSearchParams({ kinds: q.kinds.join(','), lang: q.lang });
    if (q.tz !== undefined) query.set('tz', q.tz);
    return `assets/${seg(assetId)}/servicebooklet.pdf?${query.toString()}`;
  },
  /** How long the active account keeps machine values (ValueRetention). */
  valueRetention: () => 'account/value-retention',
  /** A gateway's broker credentials: POST makes (rotates), GET lists, DELETE revokes. */
  gatewayCredentials: (gatewayId: string) => `gateways/${seg(gatewayId)}/credentials`,
  /** OPC UA address space through the gateway's agent (spec 001 §9: up to a minute). */
  /** A gateway agent's recent log lines, oldest first (GatewayLogLine[]). */
  gatewayLogs: (gatewayId: string) => `gateways/${seg(gatewayId)}/logs`,
  /** The gateway terminal's audit list (TerminalAudit). */
  terminalAudit: (gatewayId: string) => `gateways/${seg(gatewayId)}/terminal`,
  /** POST: starts a call of a service request with a free agent (ServiceCallStart). */
  serviceCalls: (requestId: string) => `service_requests/${seg(requestId)}/calls`,
  /** POST: ends one call of a service request (either party). */
  serviceCallEnd: (requestId: string, callId: string) =>
    `service_requests/${seg(requestId)}/calls/${seg(callId)}/end`,
  /** GET: the ICE servers (STUN/TURN) browsers use for calls, for the pre-call check. */
  callConfig: () => 'calls/config',
  opcuaBrowse: (gatewayId: string) => `gateways/${seg(gatewayId)}/opcua/browse`,
  opcuaSearch: (gatewayId: string) => `gateways/${seg(gatewayId)}/opcua/search`,
  /** The signed-in user's personal access tokens: GET lists, POST makes one (Passport's shapes). */
  personalAccessTokens: () => 'oauth/personal-access-tokens',
  /** DELETE revokes one personal access token (204). */
  personalAccessToken: (id: string) => `oauth/personal-access-tokens/${seg(id)}`,
  /** Every scope a token may be given ([{ id, description }]). */
  oauthScopes: () => 'oauth/scopes',
  /** The user's OAuth clients: GET lists, POST makes one (its secret shown once). */
  oauthClients: () => 'oauth/clients',
  /** One client: PUT (name, redirect), DELETE (204). */
  oauthClient: (id: string) => `oauth/clients/${seg(id)}`,
  /** POST: a new secret for the client (shown once); the old one stops working. */
  oauthClientSecret: (id: string) => `oauth/clients/${seg(id)}/secret`,
  /** The Authorized Applications: tokens the user gave third-party clients (GET). */
  oauthTokens: () => 'oauth/tokens',
  /** DELETE revokes an application's token and its refresh tokens (204). */
  oauthToken: (id: string) => `oauth/tokens/${seg(id)}`,
  /** The consent screen: GET (with the request's query) shows, POST answers. */
  oauthAuthorize: (query?: string) =>
    query === undefined || query === '' ? 'oauth/authorize' : `oauth/authorize?${query}`,
  /** The API reference: OpenAPI 3.1, generated from the shared schemas. */
  openapi: () => 'openapi.json',
  // Security insights (issue 38 item 1): the active account's checks and threats.
  /** GET: the checks, their states and the 90-day trend (SecurityInsights). */
  securityInsights: () => 'security-insights',
  /** GET: the threat overview over 7, 30 or 90 days (SecurityThreats). */
  securityThreats: (days?: number) =>
    days === undefined ? 'security-insights/threats' : `security-insights/threats?days=${days}`,
  /** POST `{ reason, expires_at }` dismisses a check; DELETE takes the dismissal back. */
  insightDismissal: (checkId: string) => `security-insights/checks/${seg(checkId)}/dismissal`,
  /** POST: a Content-Security-Policy violation the app saw (CspReport). */
  cspReports: () => 'csp-reports',
  // Two-factor sign-in (issue 38 item 2): the signed-in user's own factors.
  /** GET: the user's second factors (TwoFactorStatus). */
  twoFactor: () => 'user/2fa',
  /** POST: a new authenticator app secret (TotpSetup); DELETE with `{ otp }` turns the app off. */
  twoFactorTotp: () => 'user/2fa/totp',
  /** POST `{ code }`: turns the app on, answers the recovery codes (RecoveryCodes). */
  twoFactorTotpConfirm: () => 'user/2fa/totp/confirm',
  /** POST `{ otp }`: new recovery codes in place of the old ones (RecoveryCodes). */
  twoFactorRecoveryCodes: () => 'user/2fa/recovery-codes',
  /** POST: the options of a new passkey (PasskeyCreationOptions). */
  twoFactorPasskeyOptions: () => 'user/2fa/passkeys/options',
  /** POST: registers a passkey (PasskeyRegistration -> PasskeyView). */
  twoFactorPasskeys: () => 'user/2fa/passkeys',
  /** DELETE: removes one of the user's passkeys (204). */
  twoFactorPasskey: (id: string) => `user/2fa/passkeys/${seg(id)}`,
  /** POST, signed out: a challenge for a passkey at sign-in (PasskeyRequestOptions). */
  passkeySignInOptions: () => '2fa/passkey/options',
  /** POST, signed out: the authenticator app of a member who must have one (TwoFactorEnrol). */
  twoFactorEnrol: () => '2fa/enrol/totp',
  /** POST, signed out: turns it on and signs in (TwoFactorEnrolConfirm -> TwoFactorEnrolled). */
  twoFactorEnrolConfirm: () => '2fa/enrol/totp/confirm',
  /** POST, signed out: a passkey's options for that member (PasskeyCreationOptions). */
  twoFactorEnrolPasskeyOptions: () => '2fa/enrol/passkey/options',
  /** POST, signed out: registers its passkey (TwoFactorEnrolPasskey -> PasskeyView, 201). */
  twoFactorEnrolPasskey: () => '2fa/enrol/passkey',
  /** GET, PUT: who of an account's members needs a second factor (AccountTwoFactor). */
  accountTwoFactor: (accountId: string) => `accounts/${seg(accountId)}/two-factor`,
  /** GET: the active account's members and their second factors (MemberTwoFactor[]). */
  membersTwoFactor: () => 'account/users/two-factor',
  /** GET: the two-factor log of the active account and its members (TwoFactorLogEntry[]). */
  twoFactorLog: () => 'account/users/two-factor/log',
  /** DELETE: an admin resets a member's second factor (logged). */
  memberTwoFactor: (userId: string) => `account/users/${seg(userId)}/two-factor`,
} as const;

/**
 * Client routes (spec 000 §2) that the server names in its answers (linkGateway's `path`). Absolute
 * paths of the web app, not of the API.
 */
export const appPaths = {
  gatewayDetails: (id: string) => `/app/gateways/${seg(id)}/details`,
  gatewayList: () => '/app/gateways/list',
  gatewayLogs: (id: string) => `/app/gateways/${seg(id)}/logs`,
  gatewayTerminal: (id: string) => `/app/gateways/${seg(id)}/terminal`,
  /** A user's details: name, phone, language. */
  userDetails: (userId: string) => `/app/users/${seg(userId)}/details`,
  /** A user's alarm notifications: channels and the times they may reach the user. */
  notificationSettings: (userId: string) => `/app/users/${seg(userId)}/notifications`,
  /** A user's personal access tokens, OAuth clients and authorized applications. */
  accessTokens: (userId: string) => `/app/users/${seg(userId)}/accesstokens`,
  /** The user's own two-factor sign-in: authenticator app, recovery codes, passkeys. */
  twoFactor: (userId: string) => `/app/users/${seg(userId)}/security`,
  /** An account's two-factor rule and its members' second factors. */
  accountTwoFactor: (accountId: string) => `/app/accounts/${seg(accountId)}/security`,
  /** The consent screen a third-party application sends the user to (with its query). */
  oauthConsent: () => '/app/oauth/authorize',
  /** The API reference, and the map of models and their relations. */
  apiReference: () => '/app/api',
  apiMap: () => '/app/api/map',
} as const;
