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
} as const;
