import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ARCHIVE_SIZE,
  opcuaConnection,
  recordingContext,
  startOpcuaTestServer,
  type OpcuaTestServer,
} from '../testing/opcua-server';
import type { BrowsingConnector } from './connector';
import { createOpcuaConnector } from './opcua-connector';

/** Address-space browse and search against a real server (spec 001 §9). */

const WAIT = { timeout: 30_000, interval: 50 } as const;
let pkiDir: string;
let server: OpcuaTestServer;
let connector: BrowsingConnector;
const signal = () => AbortSignal.timeout(30_000);

beforeAll(async () => {
  pkiDir = await mkdtemp(join(tmpdir(), 'opcua-client-pki-'));
  server = await startOpcuaTestServer();
  const { ctx } = recordingContext(opcuaConnection(server.endpoint, []));
  // 100 references per answer: the Archive's 500 need continuation points.
  connector = createOpcuaConnector(ctx, { pkiDir, referencesPerNode: 100 });
  connector.start();
  await vi.waitFor(() => expect(connector.status().state).toBe('connected'), WAIT);
});
afterAll(async () => {
  await connector.stop();
  await server.close();
  await rm(pkiDir, { recursive: true, force: true });
});

describe('OPC UA browse', () => {
  it("lists the Objects folder's children by default", async () => {
    const nodes = await connector.browse(undefined, signal());
    expect(nodes).toContainEqual({
      node_id: server.folderId('Plant'),
      browse_name: '1:Plant',
      display_name: 'Plant',
      node_class: 'Object',
      data_type: null,
      has_children: true,
    });
    expect(nodes.map((n) => n.display_name)).toContain('Server');
  });

  it("lists a folder's variables with their data types", async () => {
    const nodes = await connector.browse(server.folderId('Oven'), signal());
    const byName = Object.fromEntries(nodes.map((n) => [n.display_name, n]));
    expect(Object.keys(byName).sort()).toEqual([
      'CycleTime',
      'Mode',
      'Recipe',
      'Running',
      'Temperature',
    ]);
    expect(byName['Temperature']).toEqual({
      node_id: server.nodeId('Oven.Temperature'),
      browse_name: '1:Temperature',
      display_name: 'Temperature',
      node_class: 'Variable',
      data_type: 'Double',
      has_children: false,
    });
    expect(nodes.map((n) => [n.display_name, n.data_type]).sort()).toEqual([
      ['CycleTime', 'Duration'],
      ['Mode', 'Int32'],
      ['Recipe', 'String'],
      ['Running', 'Boolean'],
      ['Temperature', 'Double'],
    ]);
  });

  it('follows continuation points to the last child', async () => {
    const nodes = await connector.browse(server.folderId('Archive'), signal());
    expect(nodes).toHaveLength(ARCHIVE_SIZE);
    expect(nodes.at(-1)?.display_name).toBe('Sensor 499');
  });

  it('refuses a node that does not exist', async () => {
    await expect(connector.browse('ns=1;s=Nowhere', signal())).rejects.toThrow(/BadNodeIdUnknown/);
    await expect(connector.browse('not a node id', signal())).rejects.toThrow(/not a valid/i);
  });
});

describe('OPC UA search', () => {
  it('finds a deeply nested variable by part of its name, case-insensitively', async () => {
    const result = await connector.search('gripFORCE', 50, signal());
    expect(result).toEqual({
      nodes: [
        {
          node_id: server.nodeId('Gripper.GripForceActual'),
          browse_name: '1:GripForceActual',
          display_name: 'GripForceActual',
          node_class: 'Variable',
          data_type: 'Double',
          has_children: false,
        },
      ],
      truncated: false,
    });
  });

  it('stops at maxResults and says so', async () => {
    const result = await connector.search('sensor', 20, signal());
    expect(result.truncated).toBe(true);
    expect(result.nodes.map((n) => n.display_name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Sensor ${String(i).padStart(3, '0')}`),
    );
  });

  it('stops when the signal aborts, with what it found', async () => {
    const already = new AbortController();
    already.abort(new Error('time is up'));
    await expect(connector.search('sensor', 1_000, already.signal)).resolves.toEqual({
      nodes: [],
      truncated: true,
    });

    // Aborted in the middle of the walk (at its third Browse): no request follows the abort.
    const midway = new AbortController();
    let browses = 0;
    const off = server.onRequest((type) => {
      if (type === 'BrowseRequest' && ++browses === 3) midway.abort(new Error('time is up'));
    });
    try {
      const result = await connector.search('sensor', 1_000, midway.signal);
      expect(result.truncated).toBe(true);
      expect(result.nodes.length).toBeLessThan(ARCHIVE_SIZE);
      expect(browses).toBe(3);
    } finally {
      off();
    }
  });

  it('stops at the visited-node cap and says so', async () => {
    const { ctx } = recordingContext(opcuaConnection(server.endpoint, []));
    const capped = createOpcuaConnector(ctx, { pkiDir, visitedNodes: 50 });
    capped.start();
    try {
      await vi.waitFor(() => expect(capped.status().state).toBe('connected'), WAIT);
      // GripForceActual lies behind the Archive's 500 sensors in breadth-first order.
      await expect(capped.search('gripforce', 50, signal())).resolves.toEqual({
        nodes: [],
        truncated: true,
      });
    } finally {
      await capped.stop();
    }
  });

  it('finds all matches of the whole space when nothing bounds it', async () => {
    const result = await connector.search('sensor', 1_000, signal());
    expect(result.truncated).toBe(false);
    expect(result.nodes).toHaveLength(ARCHIVE_SIZE);
  });
});
