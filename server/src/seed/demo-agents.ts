import fs from 'node:fs';
import path from 'node:path';
import type { GatewayCredentialService } from '../services/gateway-credential.service';
import type { DemoGateway } from './demo-models';

/** In DATA_DIR: the demo gateways' agent keys, for the demo agents that `npm start` runs. */
export const DEMO_AGENTS_FILE = 'demo-agents.json';

export interface DemoAgentKey {
  readonly gateway: string;
  readonly key: string;
}

/**
 * Makes broker credentials for the seeded gateways of active accounts and keeps their secrets in
 * DATA_DIR (mode 600), like every secret made at first start: `npm start` runs a demo agent for
 * each, through the same broker path as an agent at a plant. Only on the start that seeded.
 */
export async function writeDemoAgentKeys(
  dataDir: string,
  gateways: readonly DemoGateway[],
  credentials: GatewayCredentialService,
): Promise<void> {
  const keys: DemoAgentKey[] = [];
  for (const g of gateways) {
    if (!g.active) continue;
    const made = await credentials.makeFor(g.accountId, g.gatewayId, null);
    keys.push({ gateway: g.gatewayId, key: made.secret });
  }
  const file = path.join(dataDir, DEMO_AGENTS_FILE);
  fs.writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
}

/** The demo agents' keys, or none when the data was not seeded by this program. */
export function readDemoAgentKeys(dataDir: string): DemoAgentKey[] {
  try {
    return JSON.parse(
      fs.readFileSync(path.join(dataDir, DEMO_AGENTS_FILE), 'utf8'),
    ) as DemoAgentKey[];
  } catch {
    return [];
  }
}
