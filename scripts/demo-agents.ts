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
import { readInstallState } from '../gateway-agent/src/update/install-state';
import { readDemoAgentKeys } from '../server/src/seed/demo-agents';
import { DEMO_RELEASES } from '../server/src/seed/demo-releases';

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
/**
 * One demo gateway's agent. A rollout's version (issue 35 item 6) is installed by it as at a
 * plant, into its own folder; its restart is this process's: the agent stops and starts again
 * reporting the version installed (which ends its trial once healthy), where a plant's launcher
 * would run the new file.
 */
function startAgent(k: (typeof keys)[number]): Agent {
  const dataDir = path.join(config.dataDir, 'demo-agents', k.gateway);
  let restarting = false;
  const agent: Agent = new Agent({
    config: {
      brokerUrl: brokerUrlOf(`http://${host}:${port}`),
      serverUrl: `http://${host}:${port}`,
      gatewayId: k.gateway,
      key: k.key,
      dataDir,
      logLevel: 'warn',
      bufferMaxPoints: undefined,
      batchPoints: 1_000,
    },
    log,
    makeConnector,
    version: readInstallState(dataDir).current?.version ?? DEMO_RELEASES.older,
    restart: () => {
      // Once per agent: a second ask while it stops would start two agents of one gateway.
      if (stopping || restarting) return;
      restarting = true;
      void agent.stop().then(() => {
        if (stopping) return;
        agents.set(k.gateway, startAgent(k));
      });
    },
  });
  agent.start();
  return agent;
}

let stopping = false;
const agents = new Map<string, Agent>();
for (const k of keys) agents.set(k.gateway, startAgent(k));
process.stdout.write(
  `${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'demo gateway agents started', agents: agents.size })}\n`,
);

const stop = () => {
  if (stopping) return;
  stopping = true;
  void Promise.all([...agents.values()].map((a) => a.stop())).then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The server's process went (its IPC channel closes): the demo agents go with it.
process.on('disconnect', stop);
