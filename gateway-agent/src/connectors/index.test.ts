import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOLS, type AgentConnection } from '@plant/shared-schema';
import { recordingContext } from '../testing/opcua-server';
import { makeConnector } from '.';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'connectors-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const connection = (protocol: AgentConnection['protocol']): AgentConnection => ({
  id: `c-${protocol}`,
  name: protocol,
  protocol,
  settings: {},
  interval_ms: 100,
  enabled: true,
  datapoints: [
    {
      id: 'd',
      datastream_id: 's',
      stream_type: 'number',
      address: { shape: 'sine' },
      deadband: 0,
      scale: 1,
      offset: 0,
    },
  ],
});

describe('makeConnector', () => {
  it('makes a connector for every protocol, not started', () => {
    for (const protocol of PROTOCOLS) {
      const connector = makeConnector(recordingContext(connection(protocol)).ctx, dataDir);
      expect(connector.status()).toMatchObject({ id: `c-${protocol}`, state: 'connecting' });
    }
  });

  it('runs the simulator for simulator connections', async () => {
    const recorded = recordingContext(connection('simulator'));
    const connector = makeConnector(recorded.ctx, dataDir);
    connector.start();
    try {
      await expect
        .poll(() => recorded.valuesOf('d').length, { timeout: 30_000 })
        .toBeGreaterThan(0);
      expect(connector.status().state).toBe('connected');
    } finally {
      await connector.stop();
    }
  });
});
