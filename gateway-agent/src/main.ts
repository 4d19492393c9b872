/**
 * The gateway agent's process: `npm run gateway -- --server <url> --gateway <id> --key <secret>`
 * (or `--config file.json`). JSON lines on stdout (errors on stderr); SIGTERM or SIGINT stops it
 * cleanly (the buffer keeps what was not sent yet) with exit code 0. A bad command line or config
 * file stops it at once with one line on stderr naming the problem, and exit code 1.
 */
import type { Agent } from './agent';
import { AgentConfigError, parseAgentConfig, type AgentConfig } from './config';
import { createLogger } from './logger';
import { RESTART_CODE } from './update/install-state';

let config: AgentConfig;
try {
  config = parseAgentConfig(process.argv.slice(2));
} catch (err) {
  process.stderr.write(
    `${err instanceof AgentConfigError ? err.message : `The gateway agent cannot start: ${String(err)}`}\n`,
  );
  process.exit(1);
}
const log = createLogger(config.logLevel, { gateway: config.gatewayId });

let agent: Agent | undefined;
let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info('stopping', { signal });
  if (agent === undefined) {
    // Still loading: nothing runs yet.
    log.info('gateway agent stopped');
    process.exit(0);
  }
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

// Loaded once the configuration is good (the protocol libraries take seconds): bad input is
// answered at once.
const [{ Agent: AgentClass }, { makeConnector }] = await Promise.all([
  import('./agent'),
  import('./connectors'),
]);
if (!stopping) {
  try {
    // Opens the buffer in the data folder: a folder it cannot write stops it here.
    agent = new AgentClass({
      config,
      log,
      makeConnector,
      // A rollout's version is installed: stop cleanly, and the launcher starts it (launcher.ts).
      restart: () => {
        if (stopping) return;
        stopping = true;
        void agent?.stop().finally(() => process.exit(RESTART_CODE));
      },
    });
  } catch (err) {
    log.error('the gateway agent could not start', {
      error: err instanceof Error ? err.message : String(err),
      data: config.dataDir,
    });
    process.exit(1);
  }
  agent.start();
}
