import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  opcuaConnection,
  opcuaDatapoint,
  recordingContext,
  startOpcuaTestServer,
  type OpcuaTestServer,
} from '../testing/opcua-server';
import type { BrowsingConnector } from './connector';
import { createOpcuaConnector } from './opcua-connector';

/** Signed and encrypted channels (Basic256Sha256) and user name sessions, on a real server. */

const WAIT = { timeout: 30_000, interval: 50 } as const;
let pkiDir: string;
let server: OpcuaTestServer;
const connectors: BrowsingConnector[] = [];

beforeAll(async () => {
  pkiDir = await mkdtemp(join(tmpdir(), 'opcua-client-pki-'));
  server = await startOpcuaTestServer({ users: { operator: 'correct horse' } });
});
afterAll(async () => {
  await Promise.all(connectors.map((c) => c.stop()));
  await server.close();
  await rm(pkiDir, { recursive: true, force: true });
});

function connect(settings: Parameters<typeof opcuaConnection>[2]) {
  const recorded = recordingContext(
    opcuaConnection(
      server.endpoint,
      [opcuaDatapoint('recipe', server.nodeId('Oven.Recipe'), 'text')],
      settings,
    ),
  );
  const connector = createOpcuaConnector(recorded.ctx, { pkiDir });
  connectors.push(connector);
  connector.start();
  return { connector, ...recorded };
}

describe('OPC UA security', () => {
  it('reads over sign-and-encrypt with a user name and password', async () => {
    const { connector, valuesOf, statuses } = connect({
      security_mode: 'sign-and-encrypt',
      username: 'operator',
      password: 'correct horse',
    });
    await expect.poll(() => valuesOf('recipe'), WAIT).toEqual(['bread']);
    server.set('Oven.Recipe', 'baguette');
    await expect.poll(() => valuesOf('recipe'), WAIT).toEqual(['bread', 'baguette']);
    expect(statuses.map((s) => s.state)).toEqual(['connecting', 'connected']);
    expect(connector.status().error).toBeNull();
    // The agent's own certificate lives in the PKI folder it was given (and the server's was
    // accepted on first use).
    expect(await readdir(join(pkiDir, 'own', 'certs'))).not.toEqual([]);
    expect(await readdir(join(pkiDir, 'trusted', 'certs'))).not.toEqual([]);
  });

  it('reads over sign', async () => {
    const { valuesOf } = connect({
      security_mode: 'sign',
      username: 'operator',
      password: 'correct horse',
    });
    await expect.poll(() => valuesOf('recipe').length, WAIT).toBe(1);
  });

  it('fails with a clear error on a wrong password, and on no user where one is required', async () => {
    const wrong = connect({
      security_mode: 'sign-and-encrypt',
      username: 'operator',
      password: 'battery staple',
    });
    const anonymous = connect({ security_mode: 'sign-and-encrypt' });
    await expect.poll(() => wrong.connector.status().state, WAIT).toBe('failed');
    expect(wrong.connector.status().error).toMatch(
      /refused the user name or password \(BadUserAccessDenied\)/,
    );
    await expect.poll(() => anonymous.connector.status().state, WAIT).toBe('failed');
    expect(anonymous.connector.status().error).toMatch(/accepts no anonymous sessions/);
    expect(wrong.readings).toEqual([]);
  });
});
