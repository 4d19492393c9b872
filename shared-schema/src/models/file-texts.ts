/*
 * The texts of file.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
/** file.ts's FileKind, named here too: file.ts imports these texts (no circle back). */
type FileKind = 'photo' | 'document';

/** Spec 001 §5's text for a form without its file, and for an empty file. */
export const FILE_REQUIRED = 'Please upload a file';
export const FILE_TOO_LARGE = {
  photo: 'The photo is too large: photos may have up to 20 MB.',
  document: 'The document is too large: documents may have up to 100 MB.',
} as const satisfies Record<FileKind, string>;
export const FILE_WRONG_TYPE = {
  photo: 'A photo must be a JPEG, PNG, WebP or GIF image.',
  document:
    'This type of document cannot be uploaded: PDF, text, CSV, images, ZIP, office and 3D model files can.',
} as const satisfies Record<FileKind, string>;
export const FILE_FIXED = 'A file cannot be changed: upload a new one.';
export const FILE_CHECKSUM_MISMATCH =
  'The uploaded bytes do not match the file: the upload starts again.';
export const FILE_NOT_UPLOADED = 'The file has not been uploaded yet.';
export const PHOTO_NOT_OF_ASSET = 'The photo must be a photo of this asset.';
