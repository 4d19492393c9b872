import { assetModel, uuidv7 } from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { hashPassword } from '../lib/secrets';
import type { Logger } from '../logger';
import { AccessRepository } from '../repositories/access.repository';
import { AccountRepository } from '../repositories/account.repository';
import { AssetAccessRepository } from '../repositories/asset-access.repository';
import { RoleRepository } from '../repositories/role.repository';
import { UserRepository } from '../repositories/user.repository';
import { createAccount } from '../services/account.service';
import { ChangeFeed } from '../services/change-feed';
import { ModelService } from '../services/model.service';
import { ModelRepository } from '../repositories/model.repository';
import { seedDemoModels, type DemoGateway } from './demo-models';
import { seedDemoSmartphone } from './demo-smartphone';
import { seedDemoScene } from './demo-scene';
import { seedDemoHelp } from './demo-help';
import { seedDemoFeedback } from './demo-feedback';
import { seedDemoReleases } from './demo-releases';
import { seedDemoThemes } from './demo-themes';
import { seedDemoForms } from './demo-forms';
import { seedDemoDiagram } from './demo-diagram';
import type { ReleaseKeys } from '../releases/release-keys';
import type { BlobStore } from '../files/blob-store';

/** The demo sign-ins, listed in README.md. Every one has this password. */
export const DEMO_PASSWORD = 'demo-pass-1';

/** The demo accounts by their names: the machine builder and its two customers (South inactive). */
export const DEMO_ACCOUNTS = {
  root: 'Demo Machine Builder',
  north: 'Customer North',
  south: 'Customer South',
} as const;

export const DEMO_USERS = {
  admin: 'admin@demo.local',
  tech: 'tech@demo.local',
  norole: 'norole@demo.local',
  internal: 'internal@demo.local',
  south: 'south@demo.local',
} as const;

const TECHNICIAN_PERMISSIONS = [
  'asset::view',
  'asset::edit',
  'gateway::view',
  'datastream::view',
  'helpcenter::view',
  // Issue 17: the technician sees the alarms of its machines and acknowledges them.
  'alarm::view',
  'alarm::acknowledge',
  // Issue 31: the account's dashboards and those of its machines, to look at, not to change.
  'dashboard::view',
  // Issue 34: reports problems, asks for features, votes; asks for service on its machines.
  'feedback::view',
  'servicerequest::view',
  // Issue 37: fills in the inspection forms of its machines and sees what is due.
  'form::view',
  'form_entry::view',
  'form_entry::create',
  'task::view',
];
/** How many of the root account's machines the technician sees (the first of them it edits). */
export const TECHNICIAN_MACHINES = 4;
/** The asset fields hidden from the technician. */
export const TECHNICIAN_HIDDEN: readonly string[] = ['description'];
const SUPERVISOR_PERMISSIONS = [
  'account::view',
  'user::view',
  'asset::view',
  'gateway::view',
  'datastream::view',
  'helpcenter::view',
  'dashboard::view',
  'template::view',
  'feedback::view',
  // Issue 34: follows the service requests and assigns them; takes their calls (the internal
  // user, a supervisor, is the demo's service agent).
  'servicerequest::view',
  'servicerequest::admin',
  'servicerequest::agent',
];

/**
 * The demo users' password hashes, made once per process and kept: five scrypt runs were half of a
 * seed, and a test process seeds a server for every file (a production server seeds once). Each
 * user still has a salt of its own; a failed run (scrypt busy) is tried again next time.
 */
let demoHashes: Promise<string[]> | undefined;

function demoPasswordHashes(): Promise<string[]> {
  if (demoHashes === undefined) {
    const made = Promise.all(Object.values(DEMO_USERS).map(() => hashPassword(DEMO_PASSWORD)));
    made.catch(() => {
      if (demoHashes === made) demoHashes = undefined;
    });
    demoHashes = made;
  }
  return demoHashes;
}

/**
 * Seeds the demo accounts, roles and users on a database without accounts (the first start).
 * One transaction: a start that fails half-way leaves no half-seeded database behind.
 */
export async function seedDemo(
  db: Db,
  clock: Clock,
  log: Logger,
  options: {
    /** Where the demo's files go: the release artifacts, and the 3D model with `scene`. */
    readonly blobs?: BlobStore;
    /** The 3D scene (issue 32 item 8), seeded only where asked: its model is processed after. */
    readonly scene?: boolean;
    /** The accounts' release keys: the demo's agent versions are released with them. */
    readonly releaseKeys?: ReleaseKeys;
  } = {},
): Promise<readonly DemoGateway[] | undefined> {
  const { blobs, releaseKeys } = options;
  if (await new AccountRepository(db).anyExists()) return undefined;
  const hashes = await demoPasswordHashes();
  const at = isoAt(clock.now());

  const gateways = await db.transaction().execute(async (trx) => {
    const root = await createAccount(trx, { name: DEMO_ACCOUNTS.root }, at);
    const north = await createAccount(trx, { name: DEMO_ACCOUNTS.north, parentId: root.id }, at);
    const south = await createAccount(
      trx,
      { name: DEMO_ACCOUNTS.south, parentId: root.id, active: false },
      at,
    );

    const roles = new RoleRepository(trx);
    const supervisorRoleId = uuidv7();
    const technicianRoleId = uuidv7();
    await roles.addRoles(root.id, [
      { id: supervisorRoleId, slug: 'supervisor', name: 'Supervisor' },
      { id: technicianRoleId, slug: 'technician', name: 'Technician' },
    ]);
    await roles.addPermissions(root.id, [
      ...TECHNICIAN_PERMISSIONS.map((name) => ({ id: uuidv7(), name, roleId: technicianRoleId })),
      ...SUPERVISOR_PERMISSIONS.map((name) => ({ id: uuidv7(), name, roleId: supervisorRoleId })),
    ]);

    const people: Record<keyof typeof DEMO_USERS, [string, string, string]> = {
      admin: ['Ada', 'Administrator', root.id],
      tech: ['Tomas', 'Technician', root.id],
      norole: ['Nora', 'Norole', root.id],
      internal: ['Ingrid', 'Internal', root.id],
      south: ['Sven', 'Southerly', south.id],
    };
    const keys = Object.keys(DEMO_USERS) as (keyof typeof DEMO_USERS)[];
    const ids = Object.fromEntries(keys.map((k) => [k, uuidv7()])) as Record<
      keyof typeof DEMO_USERS,
      string
    >;
    const userRepo = new UserRepository(trx);
    for (const [i, key] of keys.entries()) {
      await userRepo.insert({
        id: ids[key],
        firstname: people[key][0],
        lastname: people[key][1],
        email: DEMO_USERS[key],
        password_hash: hashes[i] ?? '',
        active_account_id: people[key][2],
        created_at: at,
        updated_at: at,
      });
    }
    await roles.addMemberships(
      root.id,
      [
        { userId: ids.admin, roleId: root.adminRoleId },
        { userId: ids.tech, roleId: technicianRoleId },
        { userId: ids.norole, roleId: root.noroleRoleId },
        { userId: ids.internal, roleId: supervisorRoleId },
      ],
      at,
    );
    await roles.addMemberships(north.id, [{ userId: ids.admin, roleId: north.adminRoleId }], at);
    await roles.addMemberships(south.id, [{ userId: ids.south, roleId: south.adminRoleId }], at);

    // Global tags; and a feature flag that puts security insights behind an account tag.
    const access = new AccessRepository(trx);
    const internalTag = await access.addTag('internal', null);
    await access.addTag('internal_fe_dev', null);
    const insightsTag = await access.addTag('security-insights', root.id);
    await access.tagUser(ids.internal, internalTag);
    await access.tagUser(ids.admin, insightsTag);
    await access.addFeatureFlag('security-insights::view', 'security-insights');

    const machines = await seedDemoModels(trx, clock, [
      { id: root.id, machines: 12, prefix: '', active: true },
      { id: north.id, machines: 3, prefix: 'North ', active: true },
      { id: south.id, machines: 2, prefix: 'South ', active: false },
    ]);

    // Access per asset and field (DESIGN.md §10): the technician sees the first four of the
    // root account's twelve machines, edits the first, and never sees a machine's description.
    const grants = new AssetAccessRepository(trx);
    await grants.setAllAssets(root.id, technicianRoleId, false);
    const rootMachines = machines.filter((m) => m.accountId === root.id).map((m) => m.assetId);
    for (const [i, assetId] of rootMachines.slice(0, TECHNICIAN_MACHINES).entries()) {
      await grants.grant(root.id, technicianRoleId, assetId, i === 0);
    }
    await grants.setFields(
      root.id,
      technicianRoleId,
      assetModel.type,
      Object.keys(assetModel.attributes.shape).filter((f) => !TECHNICIAN_HIDDEN.includes(f)),
    );
    // The help centre's articles (issue 33 item 8), before the alarms that link one of them.
    await seedDemoHelp(trx, clock, root.id);
    await seedDemoThemes(trx, clock, root.id, north.id, blobs);
    await seedDemoAlarms(trx, clock, root.id, rootMachines, ids.admin);
    await seedDemoDashboard(trx, clock, root.id, rootMachines);
    // Field work (issue 37 item 7): the weekly inspection of the technician's machines.
    await seedDemoForms(trx, clock, root.id, rootMachines, ids.tech);
    if (rootMachines[0] !== undefined) await seedDemoDiagram(trx, clock, root.id, rootMachines[0]);
    // After the demo dashboards: the weekly report mails "Plant overview" (issue 31 item 6).
    await seedDemoReport(trx, clock, root.id, ids.admin);
    // The feedback centre's tickets (issue 34 item 5): the internal user is the service agent.
    await seedDemoFeedback(trx, clock, root.id, {
      tech: ids.tech,
      admin: ids.admin,
      agent: ids.internal,
      machine: rootMachines[0] ?? '',
    });
    // The first machine's 3D scene, its model processed in the background after the start.
    const first = rootMachines[0];
    if (blobs !== undefined && options.scene === true && first !== undefined)
      await seedDemoScene(trx, clock, root.id, first, blobs);
    // Release management (issue 35 item 6): the root account's gateways are the demo board, on
    // the older of two released agent versions.
    if (blobs !== undefined && releaseKeys !== undefined)
      await seedDemoReleases(
        trx,
        clock,
        root.id,
        machines.filter((m) => m.accountId === root.id).map((m) => m.gatewayId),
        blobs,
        releaseKeys,
      );
    // The smartphone demo (template and asset) in the machine builder's account.
    return [...machines, await seedDemoSmartphone(trx, clock, root.id)];
  });
  log.info('demo data seeded', { users: Object.values(DEMO_USERS) });
  return gateways;
}

/** The demo alarms (issue 17), on the simulated streams of the machine builder's first machines. */
export const DEMO_ALARMS = [
  {
    machine: 0,
    stream: 'Motor temperature',
    // The simulated motor runs between 45 and 85 °C: above 80 for a few minutes each half hour.
    alarm: {
      name: 'Motor too hot',
      condition: 'greater',
      upper_limit: 80,
      unit: '°C',
      severity: 'warning',
      delay_s: 60,
      hysteresis: 3,
      // Its help article (issue 33 item 5): what to check when the motor runs hot.
      help_article: 101,
    },
    mailAdmin: true,
  },
  {
    machine: 1,
    stream: 'Oil pressure',
    // The simulated pressure runs between 120 and 185 bar: below 125 for a moment every 10 min.
    alarm: {
      name: 'Oil pressure low',
      condition: 'less',
      lower_limit: 125,
      unit: 'bar',
      severity: 'critical',
      delay_s: 30,
      hysteresis: 5,
      // Article 136 (spec 001 §2): a reading that looks wrong starts with the tag table.
      help_article: 136,
    },
    mailAdmin: false,
  },
] as const;

/**
 * Writes the demo alarms through the same code as a client's write (the change log and the
 * model's checks against its stream as for any alarm); the first one mails the demo admin.
 */
async function seedDemoAlarms(
  trx: Db,
  clock: Clock,
  accountId: string,
  machines: readonly string[],
  adminId: string,
): Promise<void> {
  const streams = await new ModelRepository(trx).allOfTypes(accountId, ['datastream']);
  const models = new ModelService(trx, clock, new ChangeFeed());
  for (const demo of DEMO_ALARMS) {
    const assetId = machines[demo.machine];
    const stream = streams.find((row) => {
      const a = JSON.parse(row.attributes) as { asset_id?: string; name?: string };
      return a.asset_id === assetId && a.name === demo.stream;
    });
    if (assetId === undefined || stream === undefined) continue;
    await models.applyIn(trx, accountId, {
      kind: 'create',
      collection: 'alarms',
      body: {
        ...demo.alarm,
        asset_id: assetId,
        datastream_id: stream.id,
        recipients: demo.mailAdmin ? [{ user_id: adminId, channels: ['mail'] }] : [],
      },
    });
  }
}

/** The demo dashboard's name (issue 31 item 6): the root account's, over its first machines. */
export const DEMO_DASHBOARD = 'Plant overview';

/**
 * The root account's dashboard "Plant overview" (issue 31 item 6): a value, a line chart, a
 * gauge, a state timeline, the alarms and a table over the first demo machines' simulated
 * streams, written through the same code as a client's write (logged, synced).
 */
async function seedDemoDashboard(
  trx: Db,
  clock: Clock,
  accountId: string,
  machines: readonly string[],
): Promise<string> {
  const rows = await new ModelRepository(trx).allOfTypes(accountId, ['datastream']);
  const streamOf = (machine: number, name: string): string[] => {
    const row = rows.find((r) => {
      const a = JSON.parse(r.attributes) as { asset_id?: string; name?: string };
      return a.asset_id === machines[machine] && a.name === name;
    });
    return row === undefined ? [] : [row.id];
  };
  const widget = (
    id: string,
    type: string,
    place: [number, number, number, number],
    title: string,
    streams: string[],
  ) => {
    const [x, y, w, h] = place;
    return { id, type, x, y, w, h, title, streams, options: {} };
  };
  const widgets = [
    widget(
      'motor-now',
      'value',
      [0, 0, 4, 4],
      'Motor temperature',
      streamOf(0, 'Motor temperature'),
    ),
    widget('speed-gauge', 'gauge', [4, 0, 6, 6], 'Spindle speed', streamOf(0, 'Spindle speed')),
    widget('alarms', 'alarms', [10, 0, 14, 6], 'Alarms', []),
    widget('temperatures', 'line', [0, 6, 12, 8], 'Motor temperatures', [
      ...streamOf(0, 'Motor temperature'),
      ...streamOf(1, 'Motor temperature'),
      ...streamOf(2, 'Motor temperature'),
    ]),
    widget('pressure', 'line', [12, 6, 12, 8], 'Oil pressure', streamOf(1, 'Oil pressure')),
    widget('modes', 'state', [0, 14, 12, 6], 'Operating mode', [
      ...streamOf(0, 'Operating mode'),
      ...streamOf(1, 'Operating mode'),
    ]),
    widget('latest', 'table', [12, 14, 12, 6], 'Latest values', [
      ...streamOf(0, 'Motor temperature'),
      ...streamOf(0, 'Spindle speed'),
      ...streamOf(0, 'Running'),
      ...streamOf(1, 'Oil pressure'),
    ]),
  ];
  const { answer } = await new ModelService(trx, clock, new ChangeFeed()).applyIn(trx, accountId, {
    kind: 'create',
    collection: 'dashboards',
    body: { name: DEMO_DASHBOARD, widgets },
  });
  return answer.body.data?.id ?? '';
}

/** The demo's dashboard that the weekly report mails (issue 31 item 6). */
export const DEMO_REPORT_DASHBOARD = DEMO_DASHBOARD;
export const DEMO_REPORT_NAME = 'Weekly plant overview';

/**
 * An active weekly report of the dashboard "Plant overview" to the admin, Mondays at 07:00 in
 * Berlin, over the last week (issue 31 item 6). The dashboard is the dashboards' seed's: without
 * it (a seed that runs before it, or none) there is nothing to mail and no report is made.
 */
export async function seedDemoReport(
  trx: Db,
  clock: Clock,
  accountId: string,
  adminId: string,
): Promise<void> {
  const dashboards = await new ModelRepository(trx).allOfTypes(accountId, ['dashboard']);
  const dashboard = dashboards.find(
    (row) => (JSON.parse(row.attributes) as { name?: string }).name === DEMO_REPORT_DASHBOARD,
  );
  if (dashboard === undefined) return;
  await new ModelService(trx, clock, new ChangeFeed()).applyIn(trx, accountId, {
    kind: 'create',
    collection: 'reports',
    body: {
      name: DEMO_REPORT_NAME,
      dashboard_id: dashboard.id,
      range: { kind: 'relative', last: 1, unit: 'weeks' },
      schedule: { every: 'week', at: '07:00', weekday: 1, monthday: null, tz: 'Europe/Berlin' },
      recipients: [{ user_id: adminId }],
      attachments: ['pdf'],
      state: 'active',
    },
  });
}
