/*
 * The texts of asset.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
export const LATITUDE_MESSAGE = 'The latitude lies between -90 and 90.';
export const LONGITUDE_MESSAGE = 'The longitude lies between -180 and 180.';
