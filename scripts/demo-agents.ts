/**
 * The demo gateways' agents, started by `npm start` (unless DEMO_AGENTS=off): one gateway agent
 * per seeded gateway of an active demo account, all in this one process, each with its own
 * broker connection, buffer and simulator connection, through the same broker path as an agent
 * at a plant. They reconnect until the server is up, and stop when the server's process goes.
 */
import path from 'node:path';
import { Agent } from '../gateway-agent/src/agent';
import { brokerUrlOf } from '../gateway-agent/src/config';
import { makeConnector } from '../gateway-agent/src/connectors';
import { createLogger } from '../gateway-agent/src/logger';
import { loadConfig } from '../server/src/config';
import { readDemoAgentKeys } from '../server/src/seed/demo-agents';

const config = loadConfig();
const keys = readDemoAgentKeys(config.dataDir);
const host =
  config.host === '0.0.0.0'
    ? '127.0.0.1'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
const port = Number(process.env.DEMO_AGENTS_PORT ?? config.port);
const log = createLogger(config.logLevel === 'debug' ? 'debug' : 'warn', { demo_agent: true });
const agents = keys.map(
  (k) =>
    new Agent({
      config: {
        brokerUrl: brokerUrlOf(`http://${host}:${port}`),
        serverUrl: `http://${host}:${port}`,
        gatewayId: k.gateway,
        key: k.key,
        dataDir: path.join(config.dataDir, 'demo-agents'),
        logLevel: 'warn',
        bufferMaxPoints: undefined,
        batchPoints: 1_000,
      },
      log,
      makeConnector,
    }),
);
for (const agent of agents) agent.start();
process.stdout.write(
  `${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'demo gateway agents started', agents: agents.length })}\n`,
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void Promise.all(agents.map((a) => a.stop())).then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The server's process went (its IPC channel closes): the demo agents go with it.
process.on('disconnect', stop);
