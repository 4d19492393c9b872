import { format, stripVTControlCharacters } from 'node:util';
import { setErrorLogger, setWarningLogger } from 'node-opcua-client';
import type { Logger } from '../logger';

/**
 * node-opcua writes its warnings and errors with console.log, in colour, process-wide (one
 * logger for every client and server in the process). They are routed here into the agent's
 * JSON-line log at debug level: most are about states the connector reports itself
 * (a lost connection, a refused session), in words the user can act on.
 *
 * The routing is installed when this module loads, so that messages node-opcua prints while
 * loading (NODE-OPCUA-W27 on Node 20, about RSA PKCS#1 v1.5, which our Basic256Sha256 with OAEP
 * does not use) are kept too; they wait (at most a few) for the first connector's logger.
 */

const pending: { level: string; message: string }[] = [];
const MAX_PENDING = 20;
let sink: Logger | undefined;

const forward =
  (level: 'warning' | 'error') =>
  (context?: unknown, ...args: unknown[]): void => {
    const where =
      typeof context === 'object' && context !== null && 'filename' in context
        ? String(context.filename)
        : undefined;
    const message = stripVTControlCharacters(format(...args)).trim();
    if (sink) sink.debug('node-opcua', { level, where, message });
    else if (pending.length < MAX_PENDING) pending.push({ level, message });
  };

setWarningLogger(forward('warning'));
setErrorLogger(forward('error'));

/** Sends node-opcua's messages to this logger from now on (the newest connector's). */
export function routeNodeOpcuaLogs(log: Logger): void {
  sink = log;
  for (const entry of pending.splice(0)) log.debug('node-opcua', entry);
}
