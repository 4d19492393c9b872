import { describe, expect, it } from 'vitest';
import {
  can,
  canEnterRoute,
  effectiveTagSlugs,
  hasTag,
  mayUseApp,
  ROUTE_REQUIREMENTS,
  type PermissionContext,
  type TagRef,
} from './permissions';

const admin = { id: 'r-admin', slug: 'admin' };
const tech = { id: 'r-tech', slug: 'technician' };
const otherTech = { id: 'r-other', slug: 'technician' };
const internal: TagRef = { slug: 'internal', account_id: null, parents: [] };
const internalFeDev: TagRef = { slug: 'internal_fe_dev', account_id: null, parents: [] };
const accountInternal: TagRef = { slug: 'internal', account_id: 'acc-1', parents: [] };
const beta: TagRef = { slug: 'beta', account_id: 'acc-1', parents: [] };
const betaPlus: TagRef = { slug: 'beta-plus', account_id: 'acc-1', parents: ['beta'] };

function ctx(overrides: Partial<PermissionContext>): PermissionContext {
  return {
    activeRoles: [],
    permissions: [],
    tags: [],
    featureFlags: [],
    internalFeaturesDisabled: false,
    ...overrides,
  };
}

const flagged = [{ key: 'insights::view', tag: 'beta' }];
const techRecord = [{ name: 'asset::view', role_id: 'r-tech' }];

describe('can(): every branch of spec 000 §6', () => {
  it.each([
    ['admin has every permission', ctx({ activeRoles: [admin] }), 'asset::delete', true],
    [
      'admin is denied a flagged permission without the tag',
      ctx({ activeRoles: [admin], featureFlags: flagged }),
      'insights::view',
      false,
    ],
    [
      'admin with the flag tag gets the flagged permission',
      ctx({ activeRoles: [admin], featureFlags: flagged, tags: [beta] }),
      'insights::view',
      true,
    ],
    [
      'a parent tag implied by a held tag satisfies the flag',
      ctx({ activeRoles: [admin], featureFlags: flagged, tags: [betaPlus] }),
      'insights::view',
      true,
    ],
    [
      'a flag on another permission does not restrict admin',
      ctx({ activeRoles: [admin], featureFlags: flagged }),
      'asset::view',
      true,
    ],
    [
      'other role with a matching record',
      ctx({ activeRoles: [tech], permissions: techRecord }),
      'asset::view',
      true,
    ],
    [
      'other role without a record',
      ctx({ activeRoles: [tech], permissions: techRecord }),
      'asset::edit',
      false,
    ],
    [
      'a record with the same name but another role_id does not count',
      ctx({ activeRoles: [otherTech], permissions: techRecord }),
      'asset::view',
      false,
    ],
    [
      'a matching record is still denied by a flag without the tag',
      ctx({
        activeRoles: [tech],
        permissions: [{ name: 'insights::view', role_id: 'r-tech' }],
        featureFlags: flagged,
      }),
      'insights::view',
      false,
    ],
    [
      'a matching record and the flag tag',
      ctx({
        activeRoles: [tech],
        permissions: [{ name: 'insights::view', role_id: 'r-tech' }],
        featureFlags: flagged,
        tags: [beta],
      }),
      'insights::view',
      true,
    ],
    [
      'the flag tag alone grants nothing',
      ctx({ activeRoles: [tech], featureFlags: flagged, tags: [beta] }),
      'insights::view',
      false,
    ],
    ['global internal grants everything', ctx({ tags: [internal] }), 'anything::at-all', true],
    [
      'global internal_fe_dev grants everything',
      ctx({ tags: [internalFeDev] }),
      'anything::at-all',
      true,
    ],
    [
      'internal grants even flagged permissions',
      ctx({ tags: [internal], featureFlags: flagged }),
      'insights::view',
      true,
    ],
    [
      'internal disabled falls back to the roles',
      ctx({
        tags: [internal],
        internalFeaturesDisabled: true,
        activeRoles: [tech],
        permissions: techRecord,
      }),
      'asset::edit',
      false,
    ],
    [
      'internal disabled still lets the role records count',
      ctx({
        tags: [internal],
        internalFeaturesDisabled: true,
        activeRoles: [tech],
        permissions: techRecord,
      }),
      'asset::view',
      true,
    ],
    [
      'an account-scoped tag named internal grants nothing',
      ctx({ tags: [accountInternal] }),
      'asset::view',
      false,
    ],
    ['no roles, no tags: nothing', ctx({}), 'asset::view', false],
    [
      'a flag needing internal is not met by an account tag whose parent is internal',
      ctx({
        activeRoles: [admin],
        featureFlags: [{ key: 'terminal::open', tag: 'internal' }],
        tags: [{ slug: 'helper', account_id: 'acc-1', parents: ['internal'] }],
      }),
      'terminal::open',
      false,
    ],
    [
      'a flag needing internal is not met while internal features are disabled',
      ctx({
        activeRoles: [admin],
        featureFlags: [{ key: 'terminal::open', tag: 'internal' }],
        tags: [internal],
        internalFeaturesDisabled: true,
      }),
      'terminal::open',
      false,
    ],
  ] as const)('%s', (_name, context, permission, expected) => {
    expect(can(context, permission)).toBe(expected);
  });
});

describe('route requirements', () => {
  const gatewayViewer = ctx({
    activeRoles: [tech],
    permissions: [{ name: 'gateway::view', role_id: 'r-tech' }],
  });
  it.each([
    ['accounts needs account::view', ROUTE_REQUIREMENTS.accounts, gatewayViewer, false],
    ['gateways with gateway::view', ROUTE_REQUIREMENTS.gateways, gatewayViewer, true],
    [
      'terminal needs the internal tag besides gateway::view',
      ROUTE_REQUIREMENTS.gatewayTerminal,
      gatewayViewer,
      false,
    ],
    [
      'terminal for internal users',
      ROUTE_REQUIREMENTS.gatewayTerminal,
      ctx({ tags: [internal] }),
      true,
    ],
    [
      'terminal refused when internal features are disabled',
      ROUTE_REQUIREMENTS.gatewayTerminal,
      ctx({ tags: [internal], internalFeaturesDisabled: true, activeRoles: [admin] }),
      false,
    ],
    ['helpcenter for admin', ROUTE_REQUIREMENTS.helpcenter, ctx({ activeRoles: [admin] }), true],
    [
      'security insights for admin',
      ROUTE_REQUIREMENTS.securityInsights,
      ctx({ activeRoles: [admin] }),
      true,
    ],
    ['a route without requirements', {}, ctx({}), true],
  ] as const)('%s', (_name, requirement, context, expected) => {
    expect(canEnterRoute(context, requirement)).toBe(expected);
  });
});

describe('tags', () => {
  it('follows parents transitively and survives cycles', () => {
    const a: TagRef = { slug: 'a', account_id: null, parents: ['b'] };
    const b: TagRef = { slug: 'b', account_id: null, parents: ['c', 'a'] };
    const c: TagRef = { slug: 'c', account_id: null, parents: [] };
    expect([...effectiveTagSlugs([a, b, c])].sort()).toEqual(['a', 'b', 'c']);
    expect([...effectiveTagSlugs([betaPlus])].sort()).toEqual(['beta', 'beta-plus']);
  });

  it('hasTag: internal tags count only while internal features are on', () => {
    expect(hasTag(ctx({ tags: [internal] }), 'internal')).toBe(true);
    expect(hasTag(ctx({ tags: [internal], internalFeaturesDisabled: true }), 'internal')).toBe(
      false,
    );
    expect(hasTag(ctx({ tags: [accountInternal] }), 'internal')).toBe(false);
    expect(hasTag(ctx({ tags: [beta] }), 'beta')).toBe(true);
    expect(hasTag(ctx({ tags: [beta] }), 'gamma')).toBe(false);
  });
});

describe('mayUseApp: the norole rule', () => {
  it.each([
    [['norole'], false],
    [[], false],
    [['norole', 'norole'], false],
    [['norole', 'technician'], true],
    [['admin'], true],
  ] as const)('roles %j -> %s', (roles, expected) => {
    expect(mayUseApp(roles)).toBe(expected);
  });
});
