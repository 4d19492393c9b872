import { uuidv7 } from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { hashPassword } from '../lib/secrets';
import type { Logger } from '../logger';
import { createAccount } from '../services/account.service';

/** The demo sign-ins, listed in README.md. Every one has this password. */
export const DEMO_PASSWORD = 'demo-pass-1';

export const DEMO_USERS = {
  admin: 'admin@demo.local',
  tech: 'tech@demo.local',
  norole: 'norole@demo.local',
  internal: 'internal@demo.local',
  south: 'south@demo.local',
} as const;

const TECHNICIAN_PERMISSIONS = ['asset::view', 'asset::edit', 'gateway::view', 'helpcenter::view'];
const SUPERVISOR_PERMISSIONS = [
  'account::view',
  'user::view',
  'asset::view',
  'gateway::view',
  'helpcenter::view',
  'dashboard::view',
];

/**
 * Seeds the demo accounts, roles and users on a database without accounts (the first start).
 * One transaction: a start that fails half-way leaves no half-seeded database behind.
 */
export async function seedDemo(db: Db, clock: Clock, log: Logger): Promise<boolean> {
  const any = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (any !== undefined) return false;
  const hashes = await Promise.all(
    Object.values(DEMO_USERS).map(() => hashPassword(DEMO_PASSWORD)),
  );
  const at = isoAt(clock.now());

  await db.transaction().execute(async (trx) => {
    const root = await createAccount(
      trx,
      {
        name: 'Demo Machine Builder',
        design: { color1: '#0b5394', color2: '#f1c232', title: 'Demo Machine Builder' },
      },
      at,
    );
    const north = await createAccount(
      trx,
      {
        name: 'Customer North',
        parentId: root.id,
        design: { color1: '#38761d', color2: '#d9ead3', title: 'Customer North' },
      },
      at,
    );
    const south = await createAccount(
      trx,
      { name: 'Customer South', parentId: root.id, active: false },
      at,
    );

    const supervisorRoleId = uuidv7();
    const technicianRoleId = uuidv7();
    await trx
      .insertInto('roles')
      .values([
        { id: supervisorRoleId, account_id: root.id, slug: 'supervisor', name: 'Supervisor' },
        { id: technicianRoleId, account_id: root.id, slug: 'technician', name: 'Technician' },
      ])
      .execute();
    const records = [
      ...TECHNICIAN_PERMISSIONS.map((name) => ({ name, role_id: technicianRoleId })),
      ...SUPERVISOR_PERMISSIONS.map((name) => ({ name, role_id: supervisorRoleId })),
    ];
    await trx
      .insertInto('permissions')
      .values(
        records.map((r) => ({
          id: uuidv7(),
          ...r,
          user_id: null,
          guard_name: 'api',
          account_id: root.id,
        })),
      )
      .execute();

    const users = Object.fromEntries(Object.keys(DEMO_USERS).map((k) => [k, uuidv7()])) as Record<
      keyof typeof DEMO_USERS,
      string
    >;
    const people: Record<keyof typeof DEMO_USERS, [string, string, string]> = {
      admin: ['Ada', 'Administrator', root.id],
      tech: ['Tomas', 'Technician', root.id],
      norole: ['Nora', 'Norole', root.id],
      internal: ['Ingrid', 'Internal', root.id],
      south: ['Sven', 'Southerly', south.id],
    };
    await trx
      .insertInto('users')
      .values(
        (Object.keys(DEMO_USERS) as (keyof typeof DEMO_USERS)[]).map((key, i) => ({
          id: users[key],
          firstname: people[key][0],
          lastname: people[key][1],
          email: DEMO_USERS[key],
          password_hash: hashes[i] ?? '',
          active_account_id: people[key][2],
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const member = (user_id: string, account_id: string, role_id: string) => ({
      user_id,
      account_id,
      role_id,
      created_at: at,
    });
    await trx
      .insertInto('memberships')
      .values([
        member(users.admin, root.id, root.adminRoleId),
        member(users.admin, north.id, north.adminRoleId),
        member(users.tech, root.id, technicianRoleId),
        member(users.norole, root.id, root.noroleRoleId),
        member(users.internal, root.id, supervisorRoleId),
        member(users.south, south.id, south.adminRoleId),
      ])
      .execute();

    // Global tags; and a feature flag that puts security insights behind an account tag.
    const internalTag = uuidv7();
    const insightsTag = uuidv7();
    await trx
      .insertInto('tags')
      .values([
        { id: internalTag, slug: 'internal', account_id: null },
        { id: uuidv7(), slug: 'internal_fe_dev', account_id: null },
        { id: insightsTag, slug: 'security-insights', account_id: root.id },
      ])
      .execute();
    await trx
      .insertInto('user_tags')
      .values([
        { user_id: users.internal, tag_id: internalTag },
        { user_id: users.admin, tag_id: insightsTag },
      ])
      .execute();
    await trx
      .insertInto('feature_flags')
      .values({
        id: uuidv7(),
        key: 'security-insights::view',
        visibility_scope: 'app',
        tag_slug: 'security-insights',
      })
      .execute();
  });
  log.info('demo data seeded', { users: Object.values(DEMO_USERS) });
  return true;
}
