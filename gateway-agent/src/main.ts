/**
 * The gateway agent's process: `npm run gateway -- --server <url> --gateway <id> --key <secret>`
 * (or `--config file.json`). JSON lines on stdout; SIGTERM or SIGINT stops it cleanly (the
 * buffer keeps what was not sent yet).
 */
import { Agent } from './agent';
import { AgentConfigError, parseAgentConfig } from './config';
import { makeConnector } from './connectors';
import { createLogger } from './logger';

let config;
try {
  config = parseAgentConfig(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${err instanceof AgentConfigError ? err.message : String(err)}\n`);
  process.exit(2);
}
const log = createLogger(config.logLevel, { gateway: config.gatewayId });
const agent = new Agent({ config, log, makeConnector });
agent.start();

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info('stopping', { signal });
  agent.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      log.error('stop failed', { error: String(err) });
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
