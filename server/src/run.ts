import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { startServer, type RunningServer } from './server';

/**
 * Configuration, server, and an orderly stop on SIGTERM or SIGINT (`then`: what else the process
 * runs, stopped first). A bad configuration ends the process with its message.
 */
export async function runServer(onStop?: () => Promise<void>): Promise<RunningServer> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const server = await startServer({ config, log });
  const shutdown = (signal: string) => {
    log.info('shutting down', { signal });
    (onStop?.() ?? Promise.resolve())
      .then(() => server.stop())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          log.error('shutdown failed', { error: String(err) });
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return server;
}

/** For the process entries: a server that cannot start ends the process with the reason. */
export function failedToStart(err: unknown): never {
  process.stderr.write(
    `The server could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
}
