import { msg } from '@lingui/core/macro';
import { DEPLOYMENT_TEXTS, RELEASE_FILE_TEXTS, RELEASE_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * Release management's texts that come from the server or the shared schemas (issue 35): added to
 * the translation table when the area's chunk loads.
 */
addServerTexts([
  [RELEASE_TEXTS.boardName, msg`Enter board name`],
  [RELEASE_TEXTS.firmwareType, msg`Enter firmware type`],
  [RELEASE_TEXTS.firmwareName, msg`Enter firmware name`],
  [RELEASE_TEXTS.deploymentNotPossible, msg`Deployment not possible`],
  [
    RELEASE_TEXTS.versionInvalid,
    msg`A version is three numbers with dots, like 1.4.2 (semantic versioning).`,
  ],
  [RELEASE_TEXTS.versionTaken, msg`This version exists already.`],
  [RELEASE_TEXTS.releasedFixed, msg`A released version can no longer change.`],
  [RELEASE_TEXTS.moveNotAllowed, msg`A version moves from draft to released to active only.`],
  [RELEASE_TEXTS.artifactMissing, msg`Please upload a file`],
  [RELEASE_TEXTS.artifactNotReady, msg`The file is still being uploaded.`],
  [RELEASE_TEXTS.pinTwice, msg`Each pin number is used once on a board.`],
  [
    RELEASE_TEXTS.modulesOnly,
    msg`Only a module version has an interface, feature flags, actions and data streams.`,
  ],
  [RELEASE_TEXTS.assetsOnModules, msg`Only a module version is made active on assets.`],
  [RELEASE_TEXTS.assetUnknown, msg`Choose assets of this account.`],
  [RELEASE_TEXTS.assetNotYours, msg`You may not change every chosen asset.`],
  [RELEASE_FILE_TEXTS.tooLarge, msg`The file is too large: a release file may have up to 500 MB.`],
  [RELEASE_FILE_TEXTS.wrongType, msg`A release file must be a binary, an archive or a package.`],
  [DEPLOYMENT_TEXTS.notReleased, msg`Deployment not possible: the version is not released.`],
  [
    DEPLOYMENT_TEXTS.notCompatible,
    msg`Deployment not possible: the version does not fit the board of a chosen gateway.`,
  ],
  [
    DEPLOYMENT_TEXTS.noAccess,
    msg`Deployment not possible: you may not manage every chosen gateway.`,
  ],
  [
    DEPLOYMENT_TEXTS.moduleTarget,
    msg`Deployment not possible: a module version is made active on assets instead.`,
  ],
  [DEPLOYMENT_TEXTS.noGateways, msg`Choose at least one gateway.`],
  [
    DEPLOYMENT_TEXTS.moveNotAllowed,
    msg`A rollout is paused, resumed or cancelled; the rest is the server’s.`,
  ],
  [DEPLOYMENT_TEXTS.halted, msg`Halted: the failures passed the limit.`],
  [DEPLOYMENT_TEXTS.kept, msg`A rollout is kept with its history: cancel it instead.`],
]);
