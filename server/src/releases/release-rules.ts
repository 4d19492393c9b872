import {
  assetModel,
  DEPLOYMENT_TEXTS,
  fileAttributesSchema,
  gatewayModel,
  fileModel,
  RELEASE_MOVES,
  RELEASE_TEXTS,
  releaseModel,
  releaseSigningText,
  type ReleaseAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import type { AccessDecision } from '../services/access-decision';
import { forbidden, invalidInput, notFound } from '../services/domain-error';
import type { ReleaseKeys } from './release-keys';

/*
 * What the server holds a release to (DESIGN.md §15, issue 35 item 1), in the write's
 * transaction: a version is made a draft; while a draft, anything of it may change (a version
 * once per name and target); released, it can no longer change, save moving to active and back;
 * released means its artifact is stored whole, and the server then writes the artifact's SHA-256,
 * the account's signature of it and who released it when. Its artifact and the version itself
 * are kept from then on (neither may be deleted).
 */

const MODULE_TABS = ['interface', 'feature_flags', 'actions', 'datastreams'] as const;

function moduleTabsOnlyOnModules(release: ReleaseAttributes): void {
  if (release.target === 'module') return;
  if (release.assets.length > 0) throw invalidInput({ assets: [RELEASE_TEXTS.assetsOnModules] });
  const used = MODULE_TABS.filter((tab) =>
    tab === 'interface' ? release.interface.datapoints.length > 0 : release[tab].length > 0,
  );
  if (used.length > 0)
    throw invalidInput(Object.fromEntries(used.map((tab) => [tab, [RELEASE_TEXTS.modulesOnly]])));
}

async function versionFree(
  trx: Db,
  accountId: string,
  id: string,
  release: ReleaseAttributes,
): Promise<void> {
  const same = await new ModelRepository(trx).referencing(
    accountId,
    releaseModel.type,
    'version',
    release.version,
  );
  const taken = same.some((row) => {
    if (row.id === id) return false;
    const other = JSON.parse(row.attributes) as ReleaseAttributes;
    return other.target === release.target && other.name === release.name;
  });
  if (taken) throw invalidInput({ version: [RELEASE_TEXTS.versionTaken] });
}

/** A new release: a draft (the server's own, the seed's, may be made released). */
export async function releaseCreate(
  trx: Db,
  accountId: string,
  id: string,
  release: ReleaseAttributes,
  asServer: boolean,
  writer: string | null,
  now: number,
): Promise<void> {
  if (!asServer && release.state !== 'draft')
    throw invalidInput({ state: [RELEASE_TEXTS.moveNotAllowed] });
  moduleTabsOnlyOnModules(release);
  await assetsOfAccount(trx, accountId, release.assets);
  await versionFree(trx, accountId, id, release);
  release.changed_by = writer;
  release.changed_at = now;
}

/**
 * A release's change, by the stored release (`before`): `after` is what it becomes, and gets the
 * server's fields (the signature at release, who changed it when).
 */
export async function releaseUpdate(
  trx: Db,
  accountId: string,
  id: string,
  before: ReleaseAttributes,
  after: ReleaseAttributes,
  changed: readonly string[],
  keys: ReleaseKeys | undefined,
  writer: string | null,
  now: number,
): Promise<void> {
  if (before.state !== 'draft') {
    // Which assets a module version is active on is no part of the version: it changes on.
    const others = changed.filter((k) => k !== 'state' && k !== 'assets');
    if (others.length > 0)
      throw invalidInput(Object.fromEntries(others.map((k) => [k, [RELEASE_TEXTS.releasedFixed]])));
  }
  if (changed.includes('state') && !RELEASE_MOVES[before.state].includes(after.state))
    throw invalidInput({ state: [RELEASE_TEXTS.moveNotAllowed] });
  if (changed.includes('assets')) {
    moduleTabsOnlyOnModules(after);
    await assetsOfAccount(trx, accountId, after.assets);
  }
  if (before.state === 'draft') {
    moduleTabsOnlyOnModules(after);
    if (['name', 'version'].some((k) => changed.includes(k)))
      await versionFree(trx, accountId, id, after);
  }
  if (before.state === 'draft' && after.state === 'released') {
    const sha256 = await readyArtifact(trx, accountId, id, after.artifact_file_id);
    if (keys === undefined) throw new Error('release keys are not set up');
    const key = await keys.of(accountId);
    after.artifact_sha256 = sha256;
    after.signature = key.sign(
      releaseSigningText({
        accountId,
        id,
        target: after.target,
        name: after.name,
        version: after.version,
        sha256,
      }),
    );
    after.key_id = key.keyId;
    after.public_key = key.publicKey;
    after.released_by = writer;
    after.released_at = now;
  }
  after.changed_by = writer;
  after.changed_at = now;
}

/**
 * A module version's change that changes gateways' configurations (DESIGN.md §15): made active or
 * no longer active while on assets, or its assets changed while active. Who makes it manages
 * gateways and may edit each asset it comes onto or goes off (access per asset, §10); the
 * server's own writes pass.
 */
export function mayApplyModule(
  access: AccessDecision | undefined,
  before: ReleaseAttributes,
  after: ReleaseAttributes,
  moved: boolean,
): void {
  if (access === undefined || after.target !== 'module' || !moved) return;
  const wasOn = before.state === 'active' ? before.assets : [];
  const isOn = after.state === 'active' ? after.assets : [];
  // What the configurations would carry now, and what the user's choice of assets is.
  const touched = new Set([
    ...wasOn.filter((id) => !isOn.includes(id)),
    ...isOn.filter((id) => !wasOn.includes(id)),
    ...before.assets.filter((id) => !after.assets.includes(id)),
    ...after.assets.filter((id) => !before.assets.includes(id)),
  ]);
  if (touched.size === 0) return;
  if (!access.permits(gatewayModel.permissions.update))
    throw invalidInput({ assets: [DEPLOYMENT_TEXTS.noAccess] });
  if ([...touched].some((id) => !access.editsAsset(id)))
    throw invalidInput({ assets: [RELEASE_TEXTS.assetNotYours] });
}

/** Each chosen asset is one of the account's. */
async function assetsOfAccount(trx: Db, accountId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const known = new Set(
    (await new ModelRepository(trx).allOfTypes(accountId, [assetModel.type])).map((r) => r.id),
  );
  if (ids.some((id) => !known.has(id)))
    throw invalidInput({ assets: [RELEASE_TEXTS.assetUnknown] });
}

/**
 * A module version made active: the module's other active version, which it replaces (one
 * version of a module is active at a time); the server moves those back to released.
 */
export async function replacedVersions(
  trx: Db,
  accountId: string,
  id: string,
  before: ReleaseAttributes,
  after: ReleaseAttributes,
): Promise<ModelRow[]> {
  if (after.target !== 'module' || after.state !== 'active' || before.state === 'active') return [];
  const rows = await new ModelRepository(trx).allOfTypes(accountId, [releaseModel.type]);
  return rows.filter((row) => {
    if (row.id === id) return false;
    const other = JSON.parse(row.attributes) as ReleaseAttributes;
    return other.target === 'module' && other.name === after.name && other.state === 'active';
  });
}

/** The release's artifact, stored whole and its own: its SHA-256. */
async function readyArtifact(
  trx: Db,
  accountId: string,
  releaseId: string,
  fileId: string | null,
): Promise<string> {
  if (fileId === null) throw invalidInput({ artifact_file_id: [RELEASE_TEXTS.artifactMissing] });
  const row = await new ModelRepository(trx).find(accountId, fileModel.type, fileId);
  const file =
    row === undefined ? undefined : fileAttributesSchema.parse(JSON.parse(row.attributes));
  if (file === undefined || file.release_id !== releaseId || file.kind !== 'artifact')
    throw invalidInput({ artifact_file_id: [RELEASE_TEXTS.artifactMissing] });
  if (file.state !== 'ready')
    throw invalidInput({ artifact_file_id: [RELEASE_TEXTS.artifactNotReady] });
  return file.sha256;
}

/** A released version is kept: it may not be deleted. */
export function mayRemoveRelease(release: ReleaseAttributes): void {
  if (release.state !== 'draft') throw invalidInput({ state: [RELEASE_TEXTS.releasedFixed] });
}

/**
 * A file of a release (its artifact): who may edit releases adds or removes it, while the stored
 * release is a draft (a released version's file is kept).
 */
export async function mayChangeReleaseFile(
  trx: Db,
  accountId: string,
  releaseId: string,
  access: AccessDecision | undefined,
): Promise<void> {
  if (access !== undefined && !access.permits(releaseModel.permissions.update)) throw forbidden();
  const row = await new ModelRepository(trx).find(accountId, releaseModel.type, releaseId);
  if (row === undefined) throw notFound('Model');
  const release = JSON.parse(row.attributes) as ReleaseAttributes;
  if (release.state !== 'draft') throw invalidInput({ release_id: [RELEASE_TEXTS.releasedFixed] });
}
