/** Release management's check texts (English message ids; the client translates them). */
export const RELEASE_TEXTS = {
  /** Spec 001 §5. */
  boardName: 'Enter board name',
  firmwareType: 'Enter firmware type',
  firmwareName: 'Enter firmware name',
  /** Spec 001 §8, with the reason beside it. */
  deploymentNotPossible: 'Deployment not possible',
  nameRequired: 'Name is required',
  versionInvalid: 'A version is three numbers with dots, like 1.4.2 (semantic versioning).',
  versionTaken: 'This version exists already.',
  releasedFixed: 'A released version can no longer change.',
  moveNotAllowed: 'A version moves from draft to released to active only.',
  artifactMissing: 'Please upload a file',
  artifactNotReady: 'The file is still being uploaded.',
  pinTwice: 'Each pin number is used once on a board.',
  modulesOnly: 'Only a module version has an interface, feature flags, actions and data streams.',
  assetsOnModules: 'Only a module version is made active on assets.',
  assetUnknown: 'Choose assets of this account.',
  assetNotYours: 'You may not change every chosen asset.',
} as const;

/** What a release's artifact that does not fit is told (file.ts's FILE_LIMITS). */
export const RELEASE_FILE_TEXTS = {
  tooLarge: 'The file is too large: a release file may have up to 500 MB.',
  wrongType: 'A release file must be a binary, an archive or a package.',
} as const;

/** A rollout's texts: 'Deployment not possible' (spec 001 §8) with why, and its own checks. */
export const DEPLOYMENT_TEXTS = {
  notPossible: 'Deployment not possible',
  notReleased: 'Deployment not possible: the version is not released.',
  notCompatible: 'Deployment not possible: the version does not fit the board of a chosen gateway.',
  noAccess: 'Deployment not possible: you may not manage every chosen gateway.',
  moduleTarget: 'Deployment not possible: a module version is made active on assets instead.',
  noGateways: 'Choose at least one gateway.',
  moveNotAllowed: 'A rollout is paused, resumed or cancelled; the rest is the server’s.',
  serverOnly: 'Only the server writes a gateway’s part of a rollout.',
  halted: 'Halted: the failures passed the limit.',
  kept: 'A rollout is kept with its history: cancel it instead.',
} as const;
