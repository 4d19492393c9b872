/*
 * The texts of link-gateway.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
export const GATEWAY_REF_MESSAGE = 'Please give the id or serial number of a gateway.';
