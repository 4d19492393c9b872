/*
 * The texts of fields.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
import { LIMITS } from '../constants';

export const NEW_PASSWORD_LENGTH_MESSAGE = `The password must be between ${LIMITS.newPasswordMin} and ${LIMITS.newPasswordMax} characters`;
