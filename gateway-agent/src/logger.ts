export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One JSON line per event on stdout (errors on stderr), like the server's. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  const write =
    (name: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
      if (ORDER[name] < ORDER[level]) return;
      const line = JSON.stringify({
        time: new Date().toISOString(),
        level: name,
        msg,
        ...base,
        ...fields,
      });
      (name === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** A logger that keeps nothing: for tests that do not read the log. */
export const silentLogger: Logger = createLogger('silent');
