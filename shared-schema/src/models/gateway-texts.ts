/*
 * The texts of gateway.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
/** Spec 001 §8: a static gateway needs its address and mask. */
export const STATIC_IP_MISSING =
  'Static IP configuration missing or wrong: please set the IP address and subnet mask of the gateway.';
