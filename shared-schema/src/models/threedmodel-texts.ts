/*
 * The texts of threedmodel.ts that the server and the client show people (spec 001 §8's 3D
 * texts and the limits of DESIGN.md §13), apart from its schemas: the client's translation table
 * (client/src/i18n/server-texts.ts) takes them without the schemas.
 */
export const THREED_TEXTS = {
  /** Spec 001 §8: what a model that could not be read says. */
  loadFailed:
    'Loading the model failed (check the format; multi-file models need the folder upload)',
  /** Spec 001 §8: a STEP file has no preview in the browser before it is processed. */
  stepPreview: 'Preview not available for STEP files',
  zipPath: 'The ZIP archive holds a path that leaves its folder.',
  zipTooLarge: 'The ZIP archive unpacks to more than 512 MB.',
  zipTooManyEntries: 'The ZIP archive holds more than 2,000 files.',
  zipBroken: 'The ZIP archive cannot be read.',
  tooManyTriangles: 'The model has more than 5 million triangles.',
  tooSlow: 'Processing the model took longer than 10 minutes.',
  tooMuchMemory: 'Processing the model needed more memory than it may use.',
  sourceMissing: 'A file of the model is missing: upload the model again.',
  sourcesOfAsset: 'The files of a 3D model must be 3D model files of its asset.',
  samePath: 'Two files of the model have the same path.',
  badPath: 'A file path of the model is not valid.',
  /** A model, a scene or a file names its asset or its template (DESIGN.md §13), not both. */
  oneOwner: 'It belongs to an asset or to a template: name one of them.',
  /** A copy's original (a template's model, for an asset made from the template). */
  copyMissing: 'The 3D model to copy does not exist.',
  copyNotReady: 'The 3D model to copy is not processed yet.',
} as const;

/**
 * The texts of a 3D model's files (issue 32), apart from the photos' and documents': kept
 * apart from file-texts.ts, which every first visit carries (its translation table), so that
 * only the 3D area's chunk and the server hold these.
 */
export const MODEL_FILE_TEXTS = {
  tooLarge: 'The 3D model is too large: its files may have up to 500 MB.',
  wrongType:
    'This file cannot be part of a 3D model: FBX, glTF with its bin and images, GLB, STEP and ZIP files can.',
} as const;
/** A client's create of a file only the server makes (a 3D model's levels and thumbnail). */
export const FILE_ONLY_SERVER = 'Only the server makes the levels of a 3D model.';

/** The texts of scenes and hotspots (spec 001 §8's 3D rules) that the server and client show. */
export const SCENE_TEXTS = {
  /** Spec 001 §8: a hotspot sits on a model's surface. */
  offModel: 'A hotspot must lie on a model.',
  /** Spec 001 §8: its icon is one of the icon font's. */
  unknownIcon: 'An icon must be part of the icon font.',
  modelsOfAsset: 'A scene shows 3D models of its own asset.',
  modelTwice: 'A 3D model is placed once in a scene.',
  modelNotInScene: 'The hotspot’s 3D model is not placed in this scene.',
  modelNotReady: 'The 3D model is not processed yet.',
  tooManyModels: 'A scene may place at most 50 models.',
  tooManyMetadata: 'A hotspot may carry at most 20 entries.',
  metadataOfAsset: 'A hotspot shows data streams and files of its own asset.',
  /** An attached item that does not exist, or that the writer does not see (told alike). */
  linkMissing: 'The linked item does not exist.',
  sceneOfOtherAsset: 'The scene belongs to another asset.',
  /** A template's hotspot names the template's streams (by their place) and no files. */
  metadataOfTemplate: 'A template’s hotspot shows data streams of its template, and no files.',
  /** A rendering is a picture of an asset's scene (it may become the asset's picture). */
  renderingOfTemplate: 'Renderings are made of an asset’s scenes, not of a template’s.',
  /** Renderings waiting or being drawn, per scene (the server draws one at a time). */
  tooManyRenderings: 'This scene has 5 renderings under way: wait until one is done.',
  /** A rendering's models together, at their high level. */
  tooLargeToRender: 'The scene is too large to render: its models have more than 500 MB.',
  /** A rendering could not be made (the server's browser, its time). */
  renderFailed: 'The rendering could not be made; try again later.',
  noBrowser: 'Renderings need Chromium on the server.',
  /** Said on the client when a click hit a model. */
  placed: 'Point on the model chosen: name the hotspot.',
} as const;
