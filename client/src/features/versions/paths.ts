import type { ReleaseTarget } from '@plant/shared-schema';

/** The tabs of a module version (spec 000 §2), in their order. */
export const MODULE_TABS = [
  'general',
  'interface',
  'featureflags',
  'actions',
  'datastreams',
] as const;
export type ModuleTab = (typeof MODULE_TABS)[number];

const part = encodeURIComponent;

/**
 * Release management's paths (spec 000 §2): `/app/versions/modules/{id}/{version?}/{tab}`, where a
 * module's id is its name, and `/app/versions/platforms/{slug}/{id}/general`, where the slug is
 * the target (agent or firmware) and the id the version's; firmware and boards beside them.
 */
export const versionPaths = {
  modules: () => '/app/versions/modules',
  platforms: () => '/app/versions/platforms',
  module: (name: string) => `/app/versions/modules/${part(name)}/general`,
  moduleVersion: (name: string, version: string, tab: ModuleTab = 'general') =>
    `/app/versions/modules/${part(name)}/${part(version)}/${tab}`,
  platform: (target: ReleaseTarget, id: string) =>
    `/app/versions/platforms/${target}/${part(id)}/general`,
  of: (release: {
    readonly id: string;
    readonly attributes: { readonly target: ReleaseTarget; name: string; version: string };
  }) =>
    release.attributes.target === 'module'
      ? versionPaths.moduleVersion(release.attributes.name, release.attributes.version)
      : versionPaths.platform(release.attributes.target, release.id),
  firmwareList: () => '/app/firmware/list',
  firmware: (id: string) => `/app/firmware/${part(id)}/details`,
  boardList: () => '/app/boards/list',
  board: (id: string) => `/app/boards/${part(id)}/details`,
};

/** Release management's route requirement: the menu entry and every screen of it. */
export const RELEASES_REQUIREMENT = { permission: 'release::view' } as const;
