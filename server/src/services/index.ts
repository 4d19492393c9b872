import { OAuthService } from './oauth.service';
import type { ReleaseKeys } from '../releases/release-keys';
import { ReleaseService } from '../releases/release.service';
import type { IceServer } from '@plant/shared-schema';
import type { SurfaceCheck } from '../threed/surface';
import { MemoryRateCounters, type RateCounters } from '../lib/rate-limiter';
import type { Db } from '../db/database';
import { InvitationService } from './invitation.service';
import { AccountAdminService } from './account-admin.service';
import { MemberService } from './member.service';
import { ProfileService } from './profile.service';
import { RoleService } from './role.service';
import type { BackgroundTasks } from '../lib/background';
import type { Clock } from '../lib/clock';
import type { Logger } from '../logger';
import { AccountService } from './account.service';
import { AuthService, type AuthLimits } from './auth.service';
import { ClientReportService } from './client-report.service';
import { PushSubscriptionService } from './push-subscription.service';
import type { Mailer } from './mail.service';
import { BrowserCredentialService } from './browser-credential.service';
import type { ChangeFeed } from './change-feed';
import { GatewayService } from './gateway.service';
import { GatewayCredentialService } from './gateway-credential.service';
import { ModelService } from './model.service';
import { PasswordService } from './password.service';
import { SyncService } from './sync.service';
import { SessionService } from './session.service';
import { UserService } from './user.service';
import { AlarmService } from '../alarms/alarm.service';
import { ArticleService } from '../help/article.service';
import { CallService } from '../service/calls';
import { IntegrationService } from '../integrations/integration.service';
import { WebhookSecrets } from '../integrations/webhook-secrets';
import type { SecretBox } from '../integrations/secret-box';
import { TwoFactorService } from '../auth/two-factor.service';
import { TwoFactorAccountsService } from '../auth/two-factor-accounts.service';
import { RELYING_PARTY_NAME } from '../auth/relying-party';
import { SecurityEvents } from '../insights/security-events';
import { InsightsService } from '../insights/insights.service';

export interface Services {
  readonly auth: AuthService;
  readonly alarms: AlarmService;
  readonly articles: ArticleService;
  readonly sessions: SessionService;
  readonly users: UserService;
  readonly accounts: AccountService;
  readonly passwords: PasswordService;
  readonly clientReports: ClientReportService;
  readonly pushSubscriptions: PushSubscriptionService;
  readonly models: ModelService;
  readonly gateways: GatewayService;
  readonly gatewayCredentials: GatewayCredentialService;
  readonly browserCredentials: BrowserCredentialService;
  readonly sync: SyncService;
  readonly roles: RoleService;
  readonly invitations: InvitationService;
  readonly members: MemberService;
  readonly profiles: ProfileService;
  readonly accountAdmin: AccountAdminService;
  /** The first-party OAuth client that the web app signs in with (served by /staticconf). */
  readonly firstPartyClientId: string;
  /** The developer area: personal access tokens, clients, third-party grants (issue 18). */
  readonly oauth: OAuthService;
  /** Calls of service requests (issue 34 item 3). */
  readonly calls: CallService;
  readonly releases: ReleaseService;
  /** Webhook integrations' delivery log and signing secrets (issue 37 item 6). */
  readonly integrations: IntegrationService;
  /** Two-factor sign-in: authenticator app, recovery codes, passkeys (issue 38 item 2). */
  readonly twoFactor: TwoFactorService;
  /** Two-factor's accounts part: an account's rule, its members' factors, history, admin reset. */
  readonly twoFactorAccounts: TwoFactorAccountsService;
  /** Security insights' event counters (issue 38 item 1): sign-in, broker and CSP events. */
  readonly securityEvents: SecurityEvents;
  /** Security insights: the checks, threats and dismissals of the active account. */
  readonly insights: InsightsService;
}

export interface ServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  readonly mailer: Mailer;
  readonly background: BackgroundTasks;
  readonly appUrl: string;
  readonly tokenTtlMs: number;
  readonly firstPartyClientId: string;
  /** The client personal access tokens are issued by (made at first start, like the first). */
  readonly personalClientId: string;
  readonly authLimits?: AuthLimits;
  /** Where rate limits count: shared by the cluster's processes (Redis), or this one's memory. */
  readonly rateCounters?: RateCounters;
  readonly feed: ChangeFeed;
  /** Whether a hotspot's point lies on its 3D model (threed/surface.ts). */
  readonly surfaces?: SurfaceCheck;
  /** The accounts' release keys (DATA_DIR/release-keys). */
  readonly releaseKeys?: ReleaseKeys;
  /** The STUN/TURN servers browsers use for calls (config ICE_SERVERS). */
  readonly iceServers?: readonly IceServer[];
  /** How long a call's record in its request waits (default CALL_RECORD_DELAY_MS). */
  readonly callRecordDelayMs?: number;
  /** Seals webhooks' signing secrets with the key in DATA_DIR (integrations/secret-box.ts). */
  readonly secretBox: SecretBox;
  /** Passkeys' relying party (config `webauthn`); default: APP_URL's host and origin. */
  readonly webauthn?: { readonly id: string; readonly origins: readonly string[] };
  /** How often security events are written (config INSIGHTS_EVENTS_MS; default 15 s). */
  readonly insightsEventsMs?: number;
}

export function createServices(deps: ServiceDeps): Services {
  const { db, clock } = deps;
  const counters = deps.rateCounters ?? new MemoryRateCounters(() => clock.now());
  const app = new URL(deps.appUrl);
  const twoFactor = new TwoFactorService(
    db,
    clock,
    deps.secretBox,
    { name: RELYING_PARTY_NAME, ...(deps.webauthn ?? { id: app.hostname, origins: [app.origin] }) },
    deps.log,
    counters,
  );
  const auth = new AuthService(db, clock, deps.tokenTtlMs, deps.authLimits, counters, twoFactor);
  const users = new UserService(db, clock);
  const passwords = new PasswordService(
    db,
    clock,
    deps.mailer,
    deps.appUrl,
    deps.background,
    counters,
  );
  const models = new ModelService(db, clock, deps.feed, deps.surfaces, deps.releaseKeys);
  return {
    auth,
    alarms: new AlarmService(db),
    articles: new ArticleService(db),
    sessions: new SessionService(db, clock, auth, users),
    users,
    accounts: new AccountService(db),
    passwords,
    clientReports: new ClientReportService(db, clock, counters),
    pushSubscriptions: new PushSubscriptionService(db, clock),
    models,
    gateways: new GatewayService(db),
    gatewayCredentials: new GatewayCredentialService(db, clock),
    browserCredentials: new BrowserCredentialService(db, clock),
    sync: new SyncService(db),
    roles: new RoleService(db, clock, deps.feed),
    invitations: new InvitationService(
      db,
      clock,
      deps.mailer,
      deps.appUrl,
      deps.background,
      auth,
      deps.feed,
      counters,
    ),
    members: new MemberService(db, clock, deps.feed, passwords),
    profiles: new ProfileService(db, clock, deps.feed),
    accountAdmin: new AccountAdminService(db, clock, deps.feed),
    firstPartyClientId: deps.firstPartyClientId,
    oauth: new OAuthService(db, clock, deps.personalClientId),
    calls: new CallService(
      db,
      clock,
      models,
      deps.log,
      deps.iceServers ?? [],
      deps.background,
      deps.callRecordDelayMs,
    ),
    releases: new ReleaseService(db, deps.releaseKeys),
    integrations: new IntegrationService(db, new WebhookSecrets(db, clock, deps.secretBox)),
    twoFactor,
    twoFactorAccounts: new TwoFactorAccountsService(db, clock, deps.log),
    securityEvents: new SecurityEvents({
      db,
      clock,
      log: deps.log,
      flushMs: deps.insightsEventsMs ?? 15_000,
    }),
    insights: new InsightsService(db, clock, deps.log),
  };
}
