import type { LogLevel } from './config';

/** One JSON line per event on stdout (errors on stderr); the level comes from LOG_LEVEL. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export function createLogger(level: LogLevel): Logger {
  const write =
    (name: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
      if (ORDER[name] < ORDER[level]) return;
      const line = JSON.stringify({ time: new Date().toISOString(), level: name, msg, ...fields });
      (name === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
