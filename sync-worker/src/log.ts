/** One log line of the worker. */
export interface LogEntry {
  readonly at: number;
  readonly level: LogLevel;
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * The worker's log: the last entries in memory (the UI's diagnostics read them through the API),
 * each also handed to `sink` (the worker entry forwards warnings and errors to the console).
 */
export class MemoryLogger implements Logger {
  private readonly entries: LogEntry[] = [];

  constructor(
    private readonly sink: (entry: LogEntry) => void = () => undefined,
    private readonly keep = 500,
  ) {}

  recent(): readonly LogEntry[] {
    return [...this.entries];
  }

  debug(message: string, fields?: Record<string, unknown>) {
    this.add('debug', message, fields);
  }
  info(message: string, fields?: Record<string, unknown>) {
    this.add('info', message, fields);
  }
  warn(message: string, fields?: Record<string, unknown>) {
    this.add('warn', message, fields);
  }
  error(message: string, fields?: Record<string, unknown>) {
    this.add('error', message, fields);
  }

  private add(level: LogLevel, message: string, fields?: Record<string, unknown>) {
    const entry: LogEntry = { at: Date.now(), level, message, ...(fields ? { fields } : {}) };
    this.entries.push(entry);
    if (this.entries.length > this.keep) this.entries.splice(0, this.entries.length - this.keep);
    this.sink(entry);
  }
}
