/*
 * The texts of terminal.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
export const TERMINAL_UNKNOWN = 'Unknown command. Type help for the commands.';
export const TERMINAL_USAGE = 'Wrong arguments. Type help for the commands.';
export const TERMINAL_NOT_ALLOWED = 'The terminal needs the internal tag and gateway::view.';
/** The answer to a ping outside the gateway's connections and networks (never sent on). */
export const TERMINAL_PING_REFUSED =
  "ping reaches only the hosts of this gateway's connections and addresses in its own networks.";
